// One Objection model class per resource, bound to one knex instance, built once at boot.
// Models are built per app (not global) so two apps on two databases can live in one process.
import type { Knex } from 'knex';
import { Model, type RelationMappings } from 'objection';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';

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
        return relationMappings(def, registry, models);
      }
    };
    Object.defineProperty(model, 'name', { value: modelName(def) });
    model.knex(knex);
    models.set(def.name, model);
  }
  return models;
}

function relationMappings(def: ResourceDef, registry: Registry, models: Map<string, ModelClass>): RelationMappings {
  const mappings: RelationMappings = {};
  for (const relation of def.relations.values()) {
    const target = registry.get(relation.resource);
    const targetModel = models.get(relation.resource)!;
    if (relation.kind === 'belongsTo') {
      mappings[relation.name] = {
        relation: Model.BelongsToOneRelation,
        modelClass: targetModel,
        join: { from: `${def.table}.${relation.foreignKey}`, to: `${target.table}.id` },
      };
    } else {
      mappings[relation.name] = {
        relation: Model.HasManyRelation,
        modelClass: targetModel,
        join: { from: `${def.table}.id`, to: `${target.table}.${relation.foreignKey}` },
        // Soft-deleted children stay hidden in includes, as they are in lists.
        filter: target.softDelete ? (builder) => builder.whereNull(`${target.table}.deleted_at`).orderBy(`${target.table}.id`) : (builder) => builder.orderBy(`${target.table}.id`),
      };
    }
  }
  return mappings;
}

function modelName(def: ResourceDef): string {
  return def.name.split(/[/-]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}
