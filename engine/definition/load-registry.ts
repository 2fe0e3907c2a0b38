// Loads resources/ into the registry: read and checked against the meta-schema (load.ts) with the
// rule keys' parts, normalized (each key's normal form too), their action bodies resolved, linked
// (cross-file checks, each key's own) and their access resolved. engine/keys/registry.ts gives it
// the engine's rule keys.
import { DefinitionError, type DefinitionProblem } from './definition-error.ts';
import { resolveAccess } from './access.ts';
import { resolveActionBodies } from './action-body.ts';
import { definitionFormats } from './definition-formats.ts';
import { link } from './link.ts';
import type { DefinitionKey } from './rule-key.ts';
import { loadDefinitionFiles, type LoadedFile } from './load.ts';
import { normalize } from './normalize.ts';
import { Registry } from './registry.ts';
import { didYouMean } from './suggest.ts';
import { openParseCache } from './parse-cache.ts';
import { loadWalkthroughs } from './walkthroughs.ts';
import type { ResourceDef } from './types.ts';

/** Loads resources/ and throws one DefinitionError listing every problem found. */
export function loadDefinitions(
  dir: string,
  keys: readonly DefinitionKey[],
  behaviourNames: ReadonlySet<string>,
  actionNames: ReadonlySet<string> = new Set(),
  invalidatorNames: ReadonlySet<string> = new Set(),
): Registry {
  const problems: DefinitionProblem[] = [];
  // One parse cache for both: it keeps only the texts read through it.
  const cache = openParseCache(dir);
  const files = loadDefinitionFiles(dir, definitionFormats(keys), problems, cache);
  const walkthroughs = loadWalkthroughs(dir, problems, cache);
  cache.save();
  const byName = new Map<string, LoadedFile>(files.map((file) => [file.name, file]));
  const resources = new Map<string, ResourceDef>(files.map((file) => [file.name, normalize(file, keys, walkthroughs.get(file.name)?.walkthrough)]));
  for (const [name, source] of walkthroughs) {
    if (!resources.has(name)) problems.push({ file: source.file, at: name, line: source.lineOf(''), message: `unknown resource "${name}"${didYouMean(name, resources.keys())}` });
  }
  resolveActionBodies(resources, byName, problems);
  link(resources, byName, keys, behaviourNames, problems, actionNames, walkthroughs, invalidatorNames);
  resolveAccess(resources, byName);
  for (const key of keys) key.resolve?.(resources);
  if (problems.length > 0) throw new DefinitionError(problems);
  for (const def of resources.values()) {
    for (const field of def.fields.values()) {
      const words = keys.flatMap((key) => key.describeField?.(def, field) ?? []);
      if (words.length > 0) field.keyWords = words;
    }
  }
  return new Registry(resources);
}
