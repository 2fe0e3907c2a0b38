// Loads resources/ into the registry: read and checked against the meta-schema (load.ts),
// normalized, their action bodies resolved, linked (cross-file checks) and their access resolved.
import { DefinitionError, type DefinitionProblem } from './definition-error.ts';
import { resolveAccess } from './access.ts';
import { resolveActionBodies } from './action-body.ts';
import { link } from './link.ts';
import { loadDefinitionFiles, type LoadedFile } from './load.ts';
import { normalize } from './normalize.ts';
import { Registry } from './registry.ts';
import { resolveSearchColumns } from './search.ts';
import { didYouMean } from './suggest.ts';
import { openParseCache } from './parse-cache.ts';
import { loadWalkthroughs } from './walkthroughs.ts';
import type { ResourceDef } from './types.ts';

/** Loads resources/ and throws one DefinitionError listing every problem found. */
export function loadRegistry(
  dir: string,
  behaviourNames: ReadonlySet<string>,
  actionNames: ReadonlySet<string> = new Set(),
  invalidatorNames: ReadonlySet<string> = new Set(),
): Registry {
  const problems: DefinitionProblem[] = [];
  // One parse cache for both: it keeps only the texts read through it.
  const cache = openParseCache(dir);
  const files = loadDefinitionFiles(dir, problems, cache);
  const walkthroughs = loadWalkthroughs(dir, problems, cache);
  cache.save();
  const byName = new Map<string, LoadedFile>(files.map((file) => [file.name, file]));
  const resources = new Map<string, ResourceDef>(files.map((file) => [file.name, normalize(file, walkthroughs.get(file.name)?.walkthrough)]));
  for (const [name, source] of walkthroughs) {
    if (!resources.has(name)) problems.push({ file: source.file, at: name, line: source.lineOf(''), message: `unknown resource "${name}"${didYouMean(name, resources.keys())}` });
  }
  resolveActionBodies(resources, byName, problems);
  link(resources, byName, behaviourNames, problems, actionNames, walkthroughs, invalidatorNames);
  resolveAccess(resources, byName);
  resolveSearchColumns(resources);
  if (problems.length > 0) throw new DefinitionError(problems);
  return new Registry(resources);
}
