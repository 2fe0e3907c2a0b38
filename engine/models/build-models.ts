// An Objection model class per resource, generated from the registry at boot, for application
// code off the request path: seeds, the command line, rare behaviours and operators' scripts. The
// request path reads through prepared statements (engine/sql) and never through these.
// A model knows its table and id, its definition's scope and soft delete (as modifiers, since a
// script may mean any row), and its relations as the API includes them: belongsTo, hasMany and
// manyToMany from the definition, with the same conditions (the target's scope, the relation's
// `where`, live rows only for lists of related rows), and `parent` for a nested resource.
// Objection (and the ajv it brings, ~14 MB resident) is loaded by the first call, not at boot: a
// serving process that never builds models never pays for it.
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type { Model, Modifiers, QueryBuilder, RelationMapping, RelationMappings } from 'objection';
import type { Models } from '../behaviours/types.ts';
import type { Registry } from '../definition/registry.ts';
import type { RelationDef, ResourceDef } from '../definition/types.ts';
import { whereConditions } from '../sql/builder-sql.ts';
import { isOneOf } from '../sql/conditions.ts';
import { quote } from '../sql/quote.ts';
import { scopeConditions, trashedCondition } from '../sql/resource-rows.ts';

/** The model classes of every resource, by resource name (`inventories/receipts`), bound to `knex`. */
export function buildModels(registry: Registry, knex: Knex): Models {
  const { Model } = createRequire(import.meta.url)('objection') as typeof import('objection');
  // Each set of models has a base of its own, so two apps (two databases) never share a knex.
  class ResourceModel extends Model {}
  ResourceModel.knex(knex);
  const models: Models = {};
  for (const def of registry.all()) models[def.name] = modelOf(def, registry, models, ResourceModel, Model);
  return models;
}

function modelOf(def: ResourceDef, registry: Registry, models: Models, Base: typeof Model, Objection: typeof Model): typeof Model {
  const scope = scopeConditions(def, registry);
  const trashed = trashedCondition(def);
  const modifiers: Modifiers = {
    /** The rows the resource serves: its definition's scope (a receipt is an operation of an incoming type). */
    inScope: (query: QueryBuilder<Model>) => whereConditions(query, scope),
    /** Rows not soft-deleted (every row where the resource has no soft delete). */
    notTrashed: (query: QueryBuilder<Model>) => whereConditions(query, trashed ? [trashed] : []),
  };
  const model = class extends Base {
    static override tableName = def.table;
    static override idColumn = 'id';
    static override modifiers = modifiers;
    static override get relationMappings(): RelationMappings {
      return relationMappings(def, registry, models, Objection);
    }
  };
  Object.defineProperty(model, 'name', { value: className(def) });
  return model;
}

function relationMappings(def: ResourceDef, registry: Registry, models: Models, Model: typeof import('objection').Model): RelationMappings {
  const mappings: RelationMappings = {};
  for (const relation of def.relations.values()) mappings[relation.name] = mappingOf(def, relation, registry, models, Model);
  const parentKeyed = [...def.relations.values()].some((relation) => relation.kind === 'belongsTo' && relation.foreignKey === def.parent?.foreignKey);
  if (def.parent && !parentKeyed && !mappings.parent) {
    const parent = registry.get(def.parent.resource);
    mappings.parent = {
      relation: Model.BelongsToOneRelation,
      modelClass: models[parent.name]!,
      join: { from: `${def.table}.${def.parent.foreignKey}`, to: `${parent.table}.id` },
    };
  }
  return mappings;
}

/** A relation as engine/sql/load-relations.ts loads an include. */
function mappingOf(def: ResourceDef, relation: RelationDef, registry: Registry, models: Models, Model: typeof import('objection').Model): RelationMapping<Model> {
  const target = registry.get(relation.resource);
  const modelClass = models[target.name]!;
  const conditions = [...scopeConditions(target, registry)];
  for (const [column, value] of Object.entries(relation.where ?? {})) {
    const values = [value].flat();
    conditions.push(isOneOf(quote(`${target.table}.${column}`), values));
  }
  const many = relation.kind !== 'belongsTo';
  const trashed = many ? trashedCondition(target) : undefined;
  if (trashed) conditions.push(trashed);
  const filter = (query: QueryBuilder<Model>) => {
    whereConditions(query, conditions);
    if (many) query.orderBy(`${target.table}.id`);
  };
  if (relation.kind === 'belongsTo') {
    return { relation: Model.BelongsToOneRelation, modelClass, filter, join: { from: `${def.table}.${relation.foreignKey}`, to: `${target.table}.id` } };
  }
  if (relation.kind === 'hasMany') {
    return { relation: Model.HasManyRelation, modelClass, filter, join: { from: `${def.table}.id`, to: `${target.table}.${relation.foreignKey}` } };
  }
  const { table, from, to } = relation.through!;
  return {
    relation: Model.ManyToManyRelation,
    modelClass,
    filter,
    join: { from: `${def.table}.id`, through: { from: `${table}.${from}`, to: `${table}.${to}` }, to: `${target.table}.id` },
  };
}

/** `inventories/receipts` → InventoriesReceipts: what stack traces and logs call the class. */
function className(def: ResourceDef): string {
  return def.name
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
