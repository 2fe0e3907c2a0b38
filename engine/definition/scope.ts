// A definition's scope as query conditions: own columns, or a column of a belongsTo target
// (`operationType.type: incoming` limits operations to those whose type is incoming).
import type { Knex } from 'knex';
import type { Registry } from './registry.ts';
import type { ResourceDef } from './types.ts';

type Where = { where(column: string, value: unknown): unknown; whereIn(column: string, values: unknown): unknown };

export function applyScope(query: Where, def: ResourceDef, registry: Registry, knex: Knex): void {
  for (const [key, value] of Object.entries(def.scope)) {
    if (!key.includes('.')) {
      query.where(`${def.table}.${key}`, value);
      continue;
    }
    const [relationName, column] = key.split('.') as [string, string];
    const relation = def.relations.get(relationName)!;
    const target = registry.get(relation.resource);
    query.whereIn(`${def.table}.${relation.foreignKey}`, knex(target.table).select('id').where(column, value));
  }
}

/** The scope's own columns, which create writes. */
export function ownScope(def: ResourceDef): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(def.scope).filter(([key]) => !key.includes('.')));
}
