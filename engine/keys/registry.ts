// The registry as the engine reads resources/: the definitions loaded with every rule key's
// format, normal form and check (engine/definition/load-registry.ts is given them).
import { loadDefinitions } from '../definition/load-registry.ts';
import type { Registry } from '../definition/registry.ts';
import { RULE_KEYS } from './index.ts';

/** Loads resources/ and throws one DefinitionError listing every problem found. */
export function loadRegistry(
  dir: string,
  behaviourNames: ReadonlySet<string>,
  actionNames: ReadonlySet<string> = new Set(),
  invalidatorNames: ReadonlySet<string> = new Set(),
): Registry {
  return loadDefinitions(dir, RULE_KEYS, behaviourNames, actionNames, invalidatorNames);
}
