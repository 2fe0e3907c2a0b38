// A definition's `invalidates`: the caches the application drops when a record of it is written.
// Run at the end of a unit of writing from what its change set holds, so that every way the unit
// wrote the record counts (a client's create or restore, an action, a nested record, a link, a
// behaviour's write through the record writers, a row the database changed along with a delete),
// and each invalidator runs once however many records the unit wrote.
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { Behaviours } from '../behaviours/types.ts';
import type { Registry } from '../definition/registry.ts';

export async function runInvalidators(registry: Registry, behaviours: Behaviours, trx: Knex.Transaction, changes: ChangeSet): Promise<void> {
  const names = new Set<string>();
  const seen = new Set<string>();
  for (const { resource } of changes.pending) {
    if (seen.has(resource)) continue;
    seen.add(resource);
    for (const name of registry.get(resource).invalidates) names.add(name);
  }
  // The names were checked at boot (engine/definition/link.ts).
  for (const name of names) await behaviours.invalidators![name]!(trx);
}
