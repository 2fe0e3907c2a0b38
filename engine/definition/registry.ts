// The registry: every resource definition, loaded, normalized and linked once at boot.
import { DefinitionError, type DefinitionProblem } from './definition-error.ts';
import { resolveAccess } from './access.ts';
import { resolveActionBodies } from './action-body.ts';
import { link } from './link.ts';
import { loadDefinitionFiles, type LoadedFile } from './load.ts';
import { normalize } from './normalize.ts';
import { didYouMean } from './suggest.ts';
import { openParseCache } from './parse-cache.ts';
import { loadWalkthroughs } from './walkthroughs.ts';
import type { ResourceDef } from './types.ts';

export class Registry {
  constructor(readonly resources: ReadonlyMap<string, ResourceDef>) {}

  get(name: string): ResourceDef {
    const def = this.resources.get(name);
    if (!def) throw new Error(`Unknown resource ${name}`);
    return def;
  }

  all(): ResourceDef[] {
    return [...this.resources.values()];
  }
}

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
  if (problems.length > 0) throw new DefinitionError(problems);
  return new Registry(resources);
}
