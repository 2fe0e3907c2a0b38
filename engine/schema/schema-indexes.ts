// The indexes the migrated database has, each as its columns in order (primary keys aside): what
// make:migration compares a definition's `indexes` with, and what the definition-driven suite
// checks. Read by engine/sql/schema-reads.ts.
import type { SchemaIndexes } from '../sql/schema-reads.ts';

export { readSchemaIndexes, type SchemaIndexes } from '../sql/schema-reads.ts';

/** Whether the table has an index on exactly these columns, in this order. */
export function hasIndex(indexes: SchemaIndexes, table: string, columns: readonly string[]): boolean {
  return (indexes.get(table) ?? []).some((index) => index.length === columns.length && index.every((column, i) => column === columns[i]));
}
