// What a record's state forbids (`locks:` in its definition): an update, a delete, or an update
// that changes given fields, refused with the lock's message (422 {message}) before anything is
// written or any other rule runs.
import type { LockFormat } from '../definition/rules-format.ts';
import type { ResourceDef } from '../definition/types.ts';
import { ActionRefusedError } from '../errors/http-errors.ts';
import { matches } from '../definition/match.ts';

/** `{label}` is the resource's label in lower case (the posted invoice, the posted bill), `{field}` the row's value. */
const message = (def: ResourceDef, lock: LockFormat, row?: Record<string, unknown>) =>
  lock.message.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => (name === 'label' ? def.label.toLowerCase() : row ? String(row[name] ?? '') : `{${name}}`));

/** Before a delete: the first lock that forbids it on this row refuses. */
export function refuseLockedDelete(def: ResourceDef, row: Record<string, unknown>): void {
  for (const lock of def.locks) if (lock.forbid?.includes('delete') && matches(def, lock.when, row)) throw new ActionRefusedError(message(def, lock, row));
}

/** Before an update of each record written together (values sent, row stored). */
export function refuseLockedUpdates(def: ResourceDef, entries: ReadonlyArray<{ values: Record<string, unknown>; record?: Record<string, unknown> }>): void {
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

const listed = (when: LockFormat['when']) =>
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
