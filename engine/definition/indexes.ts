// An index's name, as make:migration writes it and the definition-driven suite looks for it (the
// `indexes:` key itself: engine/keys/indexes.ts).

/** The index's name, as knex names an index it is not given one for. */
export function indexName(table: string, columns: readonly string[]): string {
  return `${table}_${columns.join('_')}_index`.toLowerCase();
}
