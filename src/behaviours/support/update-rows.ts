// Many rows updated with values of their own in one statement per few hundred rows:
// UPDATE t SET a = CASE id WHEN ? THEN ? ... END, ... WHERE id IN (...).
import type { Knex } from 'knex';

// Each row scans the CASE list: small statements keep that (quadratic) work short.
const ROWS_PER_STATEMENT = 50;

export async function updateRows(trx: Knex.Transaction, table: string, rows: Array<{ id: number; values: Record<string, unknown> }>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const columns = Object.keys(chunk[0]!.values);
    const bindings: Knex.RawBinding[] = [];
    const sets = columns.map((column) => {
      const cases = chunk.map((row) => {
        bindings.push(row.id, row.values[column] as Knex.RawBinding);
        return 'WHEN ? THEN ?';
      });
      return `\`${column}\` = CASE \`id\` ${cases.join(' ')} END`;
    });
    bindings.push(...chunk.map((row) => row.id));
    await trx.raw(`UPDATE \`${table}\` SET ${sets.join(', ')} WHERE \`id\` IN (${chunk.map(() => '?').join(', ')})`, bindings);
  }
}
