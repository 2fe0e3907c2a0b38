// What a hard delete changes beyond its own rows. The database's foreign keys set references to
// NULL (ON DELETE SET NULL: the moves of a deleted order line) or delete rows along (CASCADE: a
// deleted record's children, the links of a many-to-many relation); the change feed must show
// those records too, or a consumer's copy keeps what the database no longer has. The keys are read
// from the database once; before each hard delete, one query per key and per resource on the
// referencing table finds the records it will touch: as many statements for 50 rows as for one.
import type { Knex } from 'knex';
import type { DependentsTracker } from '../behaviours/change-set.ts';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { whereConditions } from '../sql/builder-sql.ts';
import { lockedForUpdate } from '../sql/dialect.ts';
import { scopeConditions } from '../sql/resource-rows.ts';
import { readForeignKeys, type ForeignKey } from '../sql/schema-reads.ts';

export function dependentsTracker(registry: Registry, knex: Knex): DependentsTracker {
  // Read at boot, awaited at the first hard delete.
  const loading = readForeignKeys(knex);
  loading.catch(() => {});
  let byTable: Map<string, ForeignKey[]> | undefined;
  const listable = registry.all().filter((def) => def.operations.has('list'));
  const resourcesOf = (table: string) => listable.filter((def) => def.table === table);
  const linksIn = (table: string) =>
    listable.flatMap((def) =>
      [...def.relations.values()]
        .filter((relation) => relation.kind === 'manyToMany' && relation.through?.table === table)
        .map((relation) => ({ def, through: relation.through! })),
    );
  // A locking read on MySQL/MariaDB: a plain one shows the transaction's snapshot, without the rows
  // another write is adding right now (a move for the line being deleted), which the delete will
  // still change once that write commits. The lock waits for it and sees them.
  const locking = (query: Knex.QueryBuilder) => lockedForUpdate(knex, query);
  const ofResource = (trx: Knex.Transaction, def: ResourceDef) => whereConditions(locking(trx(def.table)), scopeConditions(def, registry));

  return {
    async beforeDelete(trx, changes, resource, ids) {
      byTable ??= groupBy(await loading, (key) => key.references);
      // Rows a cascade deletes can be referenced in turn: follow them, table by table.
      let pending: Array<{ table: string; ids: number[] }> = [{ table: registry.get(resource).table, ids: [...ids] }];
      const seen = new Set<string>();
      while (pending.length > 0) {
        const next: typeof pending = [];
        for (const { table, ids: removed } of pending) {
          const fresh = removed.filter((id) => !seen.has(`${table} ${id}`));
          for (const id of fresh) seen.add(`${table} ${id}`);
          if (fresh.length === 0) continue;
          for (const key of byTable.get(table) ?? []) {
            for (const def of resourcesOf(key.table)) {
              if (key.rule === 'SET NULL') {
                changes.add(def.name, (await ofResource(trx, def).whereIn(key.column, fresh).pluck('id')).map(Number), 'updated');
              } else {
                changes.addDeleted(def.name, await ofResource(trx, def).whereIn(key.column, fresh));
              }
            }
            // A link removed along: the record on the link's other side shows one less.
            for (const { def, through } of linksIn(key.table)) {
              if (through.to === key.column) changes.add(def.name, (await locking(trx(key.table)).whereIn(through.to, fresh).pluck(through.from)).map(Number), 'updated');
            }
            // Rows deleted along can be referenced in turn (keys reference ids).
            if (key.rule === 'CASCADE' && byTable.has(key.table)) {
              next.push({ table: key.table, ids: (await locking(trx(key.table)).whereIn(key.column, fresh).pluck('id')).map(Number) });
            }
          }
        }
        pending = next;
      }
    },
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
