// `locks:` (top level): what a record's stored state forbids, an update, a delete, or an update
// that changes given fields, refused with the lock's message (422 {message}) before anything is
// written or any other rule runs:
//
//   locks:
//     - { when: { state: [posted] }, forbid: [delete], message: 'The {label} is posted: reverse it instead.' }
//     - { when: { state: [posted] }, fields: [partner_id, date], message: ... }
import { Type } from '@sinclair/typebox';
import { templatePaths } from '../definition/placeholders.ts';
import { MatchValue, NotValue } from '../definition/format.ts';
import { didYouMean } from '../definition/suggest.ts';
import type { LockDef, ResourceDef } from '../definition/types.ts';
import { ActionRefusedError } from '../errors/http-errors.ts';
import { matches } from '../definition/match.ts';
import type { RuleKey } from './types.ts';

const LockFormat = Type.Object(
  {
    when: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), Type.Union([Type.Array(MatchValue, { minItems: 1 }), NotValue]), {
      additionalProperties: false,
      minProperties: 1,
      description: "the stored column values that lock the record (state: [done]; locked: [true]; name: {'<>': null})",
    }),
    forbid: Type.Optional(
      Type.Array(Type.Union([Type.Literal('update'), Type.Literal('delete')]), { minItems: 1, uniqueItems: true, description: 'what the lock refuses: update, delete' }),
    ),
    fields: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), {
        minItems: 1,
        uniqueItems: true,
        description: 'instead of every update: only one that changes these fields (sent with another value; a records or ids field: sent at all)',
      }),
    ),
    message: Type.String({ minLength: 1, description: 'the 422 `{message}`; `{label}` is the resource label in lower case, `{field}` a field of the record' }),
  },
  { additionalProperties: false },
);

export const locks: RuleKey = {
  key: 'locks',
  format: {
    at: 'resource',
    schema: Type.Array(LockFormat, { minItems: 1, description: 'what the stored state forbids: `{when: {state: [done]}, forbid: [update, delete] | fields: [...], message}`' }),
  },
  normalize(raw, def) {
    def.locks = (raw as LockDef[] | undefined) ?? [];
  },
  check(def, _resources, problem) {
    def.locks.forEach((lock, index) => {
      const at = `locks.${index}`;
      const field = (place: string, name: string) => {
        if (!def.fields.get(name)?.stored) problem(place, `"${name}" is not a field of this resource${didYouMean(name, def.fields.keys())}`);
      };
      for (const [column, values] of Object.entries(lock.when)) {
        const found = def.fields.get(column);
        field(`${at}.when.${column}`, column);
        for (const value of Array.isArray(values) ? values : [values['<>']].filter((one) => one !== null))
          if (found?.enum && !found.enum.includes(String(value))) problem(`${at}.when.${column}`, `"${value}" is not one of ${column}'s values (${found.enum.join(', ')})`);
      }
      for (const name of templatePaths(lock.message)) if (name !== 'label') field(`${at}.message`, name);
      if ((lock.forbid === undefined) === (lock.fields === undefined))
        problem(at, 'a lock says what it forbids: `forbid: [update, delete]`, or the `fields` an update may not change');
      for (const name of lock.fields ?? [])
        if (!def.fields.get(name)?.writable) problem(`${at}.fields`, `"${name}" is not a field a body may send${didYouMean(name, def.fields.keys())}`);
    });
  },
  // Refused before any other rule runs; a removal of the system (a product's offer replaced) is not a client's delete.
  step: {
    key: 'locks',
    uses: (def, _registry, phase) => phase !== 'create' && def.locks.length > 0,
    beforeUpdate: (_context, def, hooks) => refuseLockedUpdates(def, hooks),
    beforeRemove(_context, def, rows, { system }) {
      if (!system) for (const row of rows) refuseLockedDelete(def, row);
    },
  },
};

/** `{label}` is the resource's label in lower case (the posted invoice, the posted bill), `{field}` the row's value. */
const message = (def: ResourceDef, lock: LockDef, row?: Record<string, unknown>) =>
  lock.message.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => (name === 'label' ? def.label.toLowerCase() : row ? String(row[name] ?? '') : `{${name}}`));

/** Before a delete: the first lock that forbids it on this row refuses. */
function refuseLockedDelete(def: ResourceDef, row: Record<string, unknown>): void {
  for (const lock of def.locks) if (lock.forbid?.includes('delete') && matches(def, lock.when, row)) throw new ActionRefusedError(message(def, lock, row));
}

/** Before an update of each record written together (values sent, row stored). */
function refuseLockedUpdates(def: ResourceDef, entries: ReadonlyArray<{ values: Record<string, unknown>; record?: Record<string, unknown> }>): void {
  if (def.locks.length === 0) return;
  for (const { values, record } of entries) {
    if (!record) continue;
    for (const lock of def.locks) {
      const applies = lock.fields ? lock.fields.some((name) => changes(def, name, values, record)) : lock.forbid?.includes('update');
      if (applies && matches(def, lock.when, record)) throw new ActionRefusedError(message(def, lock, record));
    }
  }
}

/** A field sent with another value than the stored one; a list of ids or records sent at all (it replaces a set). */
function changes(def: ResourceDef, name: string, values: Record<string, unknown>, record: Record<string, unknown>): boolean {
  const sent = values[name];
  if (sent === undefined) return false;
  const field = def.fields.get(name);
  if (field?.type === 'ids' || field?.type === 'records') return true;
  const stored = record[name];
  if (sent === null || stored === null || stored === undefined) return (sent ?? null) !== (stored ?? null);
  if (typeof sent === 'number' || typeof sent === 'boolean') return Number(sent) !== Number(stored);
  return String(sent) !== String(stored);
}

const listed = (when: LockDef['when']) =>
  Object.entries(when)
    .map(([column, values]) =>
      Array.isArray(values)
        ? `\`${column}\` is ${values.map((value) => `\`${value}\``).join(' or ')}`
        : values['<>'] === null
          ? `\`${column}\` is set`
          : `\`${column}\` is not \`${values['<>']}\``,
    )
    .join(' and ');

/** What the locks refuse, in words: for an update's or a delete's description, and the Markdown reference. */
export function describeLocks(def: ResourceDef, op: 'update' | 'delete'): string[] {
  if (!def.operations.has(op)) return [];
  return def.locks
    .filter((lock) => (op === 'delete' ? lock.forbid?.includes('delete') : lock.fields || lock.forbid?.includes('update')))
    .map((lock) => {
      const what = op === 'delete' ? 'deleted' : lock.fields ? `changed in ${lock.fields.map((name) => `\`${name}\``).join(', ')}` : 'changed';
      return `A record whose ${listed(lock.when)} cannot be ${what}: 422 “${message(def, lock)}”`;
    });
}
