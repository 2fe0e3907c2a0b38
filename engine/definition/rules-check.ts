// Boot checks of the workflow vocabulary (called by engine/definition/link.ts): what a sequence,
// or an action's `set` names must exist and fit. Each problem
// names the file and line.
import type { ResourceDef } from './types.ts';
import { didYouMean } from './suggest.ts';
import { templatePaths } from './sequence-rules.ts';

type Problem = (at: string, message: string) => void;

export function checkRules(def: ResourceDef, resources: ReadonlyMap<string, ResourceDef>, problem: Problem): void {
  const field = (at: string, name: string) => {
    if (!def.fields.get(name)?.stored) problem(at, `"${name}" is not a field of this resource${didYouMean(name, def.fields.keys())}`);
  };
  /** A field, or `relation.column` through a belongsTo relation. */
  const path = (at: string, value: string) => {
    const [first, column] = value.split('.') as [string, string | undefined];
    if (column === undefined) return field(at, first);
    const relation = def.relations.get(first);
    if (relation?.kind !== 'belongsTo') return problem(at, `"${first}" is not a belongsTo relation of this resource${didYouMean(first, def.relations.keys())}`);
    const target = resources.get(relation.resource);
    if (target && !target.fields.get(column)?.stored) problem(at, `"${column}" is not a field of ${target.name}${didYouMean(column, target.fields.keys())}`);
  };

  for (const numbered of def.fields.values()) {
    const sequence = numbered.sequence;
    if (!sequence) continue;
    const at = `fields.${numbered.name}.sequence`;
    if (numbered.type !== 'string' || !numbered.stored) problem(at, 'a document number is a stored string field');
    for (const key of ['code', 'prefix'] as const) for (const placeholder of templatePaths(sequence[key] ?? '')) path(`${at}.${key}`, placeholder);
    if (sequence.year) {
      const type = def.fields.get(sequence.year)?.type;
      if (type !== 'date' && type !== 'datetime') problem(`${at}.year`, `"${sequence.year}" is not a date or datetime field of this resource`);
    }
    if (sequence.perCompany && !def.fields.get('company_id')?.stored) problem(`${at}.perCompany`, 'this resource has no company_id field');
    const on = sequence.on ?? 'create';
    if (on !== 'create' && !def.actions.has(on)) problem(`${at}.on`, `"${on}" is not an action of this resource${didYouMean(on, def.actions.keys())}`);
  }

  for (const action of def.actions.values()) {
    const at = `actions.${action.name}`;
    if (action.behaviour === undefined && action.set === undefined) problem(at, 'an action names a behaviour, or the values it sets (`set`), or both');
    if (action.on === 'collection' && action.behaviour === undefined) problem(`${at}.on`, 'a collection action runs a behaviour on the parent record');
    for (const [column, value] of Object.entries(action.set ?? {})) {
      const target = def.fields.get(column);
      field(`${at}.set.${column}`, column);
      if (!target) continue;
      if (value === 'now' && target.type !== 'date' && target.type !== 'datetime' && target.type !== 'string')
        problem(`${at}.set.${column}`, '`now` sets a date or datetime field');
      if (value === 'toggle' && target.type !== 'boolean') problem(`${at}.set.${column}`, '`toggle` turns a boolean field over');
      const byStored = value !== null && typeof value === 'object' ? value : undefined;
      if (byStored) {
        // Each value `when` lets the record have picks the one written.
        for (const from of action.when?.[column] ?? []) if (!(String(from) in byStored)) problem(`${at}.set.${column}`, `says nothing for "${from}", which \`when\` allows`);
        if (target.enum)
          for (const from of Object.keys(byStored))
            if (!target.enum.includes(from)) problem(`${at}.set.${column}`, `"${from}" is not one of ${column}'s values (${target.enum.join(', ')})`);
      }
      const after = action.to?.[column];
      for (const written of byStored ? Object.values(byStored) : value === 'toggle' ? [] : [value]) {
        if (target.enum && !target.enum.includes(String(written))) problem(`${at}.set.${column}`, `"${written}" is not one of ${column}'s values (${target.enum.join(', ')})`);
        if (after && !after.includes(String(written))) problem(`${at}.set.${column}`, `"${written}" is not among what \`to\` says ${column} becomes (${after.join(', ')})`);
      }
    }
  }
}
