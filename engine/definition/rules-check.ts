// Boot checks of the actions (called by engine/definition/link.ts): what an action's `set` names
// must exist and fit. Each problem names the file and line.
import type { ResourceDef } from './types.ts';
import { didYouMean } from './suggest.ts';

type Problem = (at: string, message: string) => void;

export function checkRules(def: ResourceDef, problem: Problem): void {
  const field = (at: string, name: string) => {
    if (!def.fields.get(name)?.stored) problem(at, `"${name}" is not a field of this resource${didYouMean(name, def.fields.keys())}`);
  };
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
