// Boot checks of the value vocabulary (called by engine/definition/link.ts): every relation,
// field and resource a rule names must exist, and no copy may wait on itself. Each problem names
// the file and line.
import type { FieldDef, ResourceDef } from './types.ts';
import { didYouMean } from './suggest.ts';
import { fillReads } from './value-rules.ts';

type Problem = (at: string, message: string) => void;

export function checkValueRules(def: ResourceDef, resources: ReadonlyMap<string, ResourceDef>, problem: Problem): void {
  /** `uom_id` or `relation.column`: a stored field of this record, or of the record a belongsTo relation names. */
  const path = (at: string, value: string) => {
    const [first, column] = value.split('.') as [string, string | undefined];
    if (column === undefined) {
      if (!def.fields.get(first)?.stored) problem(at, `"${first}" is not a field of this resource${didYouMean(first, def.fields.keys())}`);
      return;
    }
    const relation = def.relations.get(first);
    if (relation?.kind !== 'belongsTo') {
      problem(at, `"${first}" is not a belongsTo relation of this resource${didYouMean(first, def.relations.keys())}`);
      return;
    }
    const target = resources.get(relation.resource);
    if (target && !target.fields.get(column)?.stored) problem(at, `"${column}" is not a field of ${target.name}${didYouMean(column, target.fields.keys())}`);
  };

  for (const field of def.fields.values()) {
    const at = `fields.${field.name}`;
    if (field.related) {
      path(`${at}.related`, field.related);
      const relation = def.relations.get(field.related.split('.')[0]!);
      if (relation?.kind === 'belongsTo' && resources.get(relation.resource)?.table === def.table)
        problem(`${at}.related`, 'a copy of a record of the same table is not supported');
      if (field.required || field.default !== undefined) problem(`${at}.related`, 'a copy is written by the engine: no required or default');
      if (!field.stored) problem(at, 'a value the engine writes needs a column (not computed, ids or records)');
    }
  }
  checkFillLoops(def, problem);
}

/** A copy that reads (through others) its own field could never be filled. */
function checkFillLoops(def: ResourceDef, problem: Problem): void {
  const filled = new Map([...def.fields.values()].filter((field) => field.related).map((field) => [field.name, field]));
  const reaches = (from: FieldDef, name: string, seen: Set<string>): boolean =>
    fillReads(def, from).some((read) => {
      if (read === name) return true;
      if (seen.has(read) || !filled.has(read)) return false;
      seen.add(read);
      return reaches(filled.get(read)!, name, seen);
    });
  for (const field of filled.values()) {
    if (reaches(field, field.name, new Set())) problem(`fields.${field.name}.related`, `"${field.name}" is filled from itself`);
  }
}
