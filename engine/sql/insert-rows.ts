// Many new rows of one table in multi-row INSERTs, their ids returned in the rows' order: as many
// statements for 500 rows as for 5. The new ids are those above the table's highest id read
// before the inserts, in the transaction's own view: SQLite has one writer at a time, and on
// MySQL/MariaDB (REPEATABLE READ) rows other transactions commit meanwhile stay out of it, so the
// ids found are this transaction's rows, in the order they went in.
import type { Knex } from 'knex';

// Bound values per statement: SQLite allows 32,766; MySQL's packet is the other limit.
const VALUES_PER_STATEMENT = 5000;

export async function insertRows(trx: Knex.Transaction, table: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<number[]> {
  if (rows.length === 0) return [];
  const before = await trx(table).max({ highest: 'id' }).first();
  // Rows with the same columns go in together; the ids then follow that order.
  const groups = new Map<string, number[]>();
  rows.forEach((row, position) => {
    const key = Object.keys(row).sort().join(',');
    groups.set(key, [...(groups.get(key) ?? []), position]);
  });
  const order: number[] = [];
  for (const positions of groups.values()) {
    const size = Math.max(1, Math.floor(VALUES_PER_STATEMENT / Math.max(1, Object.keys(rows[positions[0]!]!).length)));
    for (let start = 0; start < positions.length; start += size) {
      const chunk = positions.slice(start, start + size);
      await trx(table).insert(chunk.map((position) => rows[position]!));
      order.push(...chunk);
    }
  }
  const ids = (
    await trx(table)
      .where('id', '>', Number(before?.highest ?? 0))
      .orderBy('id')
      .pluck('id')
  ).map(Number);
  if (ids.length !== rows.length) throw new Error(`${table}: inserted ${rows.length} rows, found ${ids.length} new ids`);
  const byPosition: number[] = new Array(rows.length);
  order.forEach((position, index) => {
    byPosition[position] = ids[index]!;
  });
  return byPosition;
}
