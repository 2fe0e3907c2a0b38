// One Objection model class per resource, bound to one knex instance, built once at boot.
// Models are built per app (not global) so two apps on two databases can live in one process.
import type { Knex } from 'knex';
import { Model, type QueryBuilder, type RelationMappings } from 'objection';
import type { Registry } from '../definition/registry.ts';
import { applyScope } from '../definition/scope.ts';
import type { RelationDef, ResourceDef } from '../definition/types.ts';

export type ModelClass = typeof Model;
export type Models = ReadonlyMap<string, ModelClass>;

export function buildModels(registry: Registry, knex: Knex): Models {
  const models = new Map<string, ModelClass>();
  for (const def of registry.all()) {
    const model = class extends Model {
      static override get tableName() {
        return def.table;
      }
      static override get relationMappings(): RelationMappings {
        return relationMappings(def, registry, models, knex);
      }
    };
    Object.defineProperty(model, 'name', { value: modelName(def) });
    model.knex(knex);
    models.set(def.name, model);
  }
  return models;
}

function relationMappings(def: ResourceDef, registry: Registry, models: Map<string, ModelClass>, knex: Knex): RelationMappings {
  const mappings: RelationMappings = {};
  for (const relation of def.relations.values()) {
    const target = registry.get(relation.resource);
    const modelClass = models.get(relation.resource)!;
    const filter = relationFilter(relation, target, registry, knex);
    if (relation.kind === 'belongsTo') {
      mappings[relation.name] = {
        relation: Model.BelongsToOneRelation,
        modelClass,
        filter,
        join: { from: `${def.table}.${relation.foreignKey}`, to: `${target.table}.id` },
      };
    } else if (relation.kind === 'hasMany') {
      mappings[relation.name] = {
        relation: Model.HasManyRelation,
        modelClass,
        filter,
        join: { from: `${def.table}.id`, to: `${target.table}.${relation.foreignKey}` },
      };
    } else {
      const through = relation.through!;
      mappings[relation.name] = {
        relation: Model.ManyToManyRelation,
        modelClass,
        filter,
        join: {
          from: `${def.table}.id`,
          through: { from: `${through.table}.${through.from}`, to: `${through.table}.${through.to}` },
          to: `${target.table}.id`,
        },
      };
    }
  }
  return mappings;
}

/** The related rows a relation shows: its `where`, the target's scope, and for lists no trashed rows, by id. */
function relationFilter(relation: RelationDef, target: ResourceDef, registry: Registry, knex: Knex) {
  const many = relation.kind !== 'belongsTo';
  return (builder: QueryBuilder<Model>) => {
    applyScope(builder, target, registry, knex);
    for (const [column, value] of Object.entries(relation.where ?? {})) {
      if (Array.isArray(value)) builder.whereIn(`${target.table}.${column}`, value);
      else builder.where(`${target.table}.${column}`, value);
    }
    // A trashed child is hidden like in lists; a trashed parent a record points at stays visible.
    if (many && target.softDelete) builder.whereNull(`${target.table}.deleted_at`);
    if (many) builder.orderBy(`${target.table}.id`);
  };
}

function modelName(def: ResourceDef): string {
  return def.name.split(/[/-]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}
