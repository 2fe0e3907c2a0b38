// Many rows updated with values of their own in one statement per few dozen rows:
// UPDATE t SET a = CASE id WHEN ? THEN ? ... END, ... WHERE id IN (...). Statements that do not
// grow with the number of rows a write touches (a document's lines), with bindings only.
import type { Knex } from 'knex';
import { quote } from './quote.ts';

// Each row scans the CASE list: small statements keep that (quadratic) work short.
const ROWS_PER_STATEMENT = 50;

/** Every row gives the same columns. */
export async function updateEach(trx: Knex | Knex.Transaction, table: string, rows: ReadonlyArray<{ id: number; values: Record<string, unknown> }>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const columns = Object.keys(chunk[0]!.values);
    const bindings: Knex.RawBinding[] = [];
    const sets = columns.map((column) => {
      const cases = chunk.map((row) => {
        bindings.push(row.id, row.values[column] as Knex.RawBinding);
        return 'WHEN ? THEN ?';
      });
      return `${quote(column)} = CASE ${quote('id')} ${cases.join(' ')} END`;
    });
    bindings.push(...chunk.map((row) => row.id));
    await trx.raw(`UPDATE ${quote(table)} SET ${sets.join(', ')} WHERE ${quote('id')} IN (${chunk.map(() => '?').join(', ')})`, bindings);
  }
}
