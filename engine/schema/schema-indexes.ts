// The indexes the migrated database has, each as its columns in order (primary keys aside): what
// make:migration compares a definition's `indexes` with, and what the definition-driven suite checks.
import type { Knex } from 'knex';

/** table → the column lists of its indexes. */
export type SchemaIndexes = Map<string, string[][]>;

export async function readSchemaIndexes(knex: Knex, tables: readonly string[]): Promise<SchemaIndexes> {
  const indexes: SchemaIndexes = new Map(tables.map((table) => [table, []]));
  if (knex.client.config.client === 'better-sqlite3') {
    for (const table of tables) {
      const list = (await knex.raw('PRAGMA index_list(??)', [table])) as Array<{ name: string; origin: string }>;
      for (const { name, origin } of list) {
        if (origin === 'pk') continue;
        const columns = (await knex.raw('PRAGMA index_info(??)', [name])) as Array<{ seqno: number; name: string }>;
        indexes.get(table)!.push(columns.sort((a, b) => a.seqno - b.seqno).map((column) => column.name));
      }
    }
    return indexes;
  }
  const [rows] = await knex.raw(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, COLUMN_NAME AS c FROM information_schema.STATISTICS
     WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME <> 'PRIMARY' ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  );
  const byName = new Map<string, string[]>();
  for (const row of rows as Array<{ t: string; i: string; c: string }>) {
    if (!indexes.has(row.t)) continue;
    const key = `${row.t}.${row.i}`;
    if (!byName.has(key)) {
      byName.set(key, []);
      indexes.get(row.t)!.push(byName.get(key)!);
    }
    byName.get(key)!.push(row.c);
  }
  return indexes;
}

/** Whether the table has an index on exactly these columns, in this order. */
export function hasIndex(indexes: SchemaIndexes, table: string, columns: readonly string[]): boolean {
  return (indexes.get(table) ?? []).some((index) => index.length === columns.length && index.every((column, i) => column === columns[i]));
}
