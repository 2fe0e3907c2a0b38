// Definitions that share their common parts: `extends: module/name` starts a definition from
// another one's keys (a base marked `abstract: true`, or a served definition), and merges its own
// over them. Maps merge key by key, all the way down (a field's description can change alone); a
// list or a value replaces the base's; a null removes the base's key. `extends` and `abstract` are
// not inherited. A base may extend another base; a loop is an error.
import type { DefinitionProblem } from './definition-error.ts';

type Raw = Record<string, unknown>;

export interface ParsedDefinition {
  name: string;
  file: string;
  raw: Raw;
}

/** The definition with what it extends merged in, or undefined (and a problem) when its base is missing or loops. */
export function withBase(definition: ParsedDefinition, byName: ReadonlyMap<string, ParsedDefinition>, problems: DefinitionProblem[]): Raw | undefined {
  const chain: ParsedDefinition[] = [definition];
  for (let current = definition; typeof current.raw.extends === 'string'; ) {
    const base = byName.get(current.raw.extends);
    if (!base) {
      problems.push({ file: current.file, at: 'extends', message: `extends ${current.raw.extends}, which is not defined` });
      return undefined;
    }
    if (chain.includes(base)) {
      problems.push({ file: definition.file, at: 'extends', message: `extends itself through ${chain.map((link) => link.name).join(' → ')} → ${base.name}` });
      return undefined;
    }
    chain.push(base);
    current = base;
  }
  // From the farthest base to the definition itself.
  let merged: Raw = {};
  for (const link of chain.reverse()) {
    const { extends: _extends, abstract: _abstract, ...own } = link.raw;
    merged = mergeOver(merged, own) as Raw;
  }
  if (definition.raw.abstract !== undefined) merged.abstract = definition.raw.abstract;
  return merged;
}

function isMap(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeOver(base: unknown, own: unknown): unknown {
  if (!isMap(base) || !isMap(own)) return own;
  const merged: Raw = { ...base };
  for (const [key, value] of Object.entries(own)) {
    if (value === null && key in base) delete merged[key];
    else merged[key] = key in base ? mergeOver(base[key], value) : value;
  }
  return merged;
}
