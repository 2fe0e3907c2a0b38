// Refuses to delete a record that hasMany relations marked `onDelete: restrict` still point at.
import type { Knex } from 'knex';
import { ConflictError } from '../errors/http-errors.ts';
import type { ResourceRuntime } from './runtime.ts';

export async function assertDeletable(runtime: ResourceRuntime, trx: Knex.Transaction, id: number): Promise<void> {
  const { def, deps } = runtime;
  for (const relation of def.relations.values()) {
    if (relation.kind !== 'hasMany' || relation.onDelete !== 'restrict') continue;
    const target = deps.registry.get(relation.resource);
    // Soft-deleted children count: they could be restored and would point at nothing.
    const child = await trx(target.table).where(relation.foreignKey, id).first('id');
    if (child) {
      throw new ConflictError(`The ${def.label} cannot be deleted because it still has ${target.label} records (soft-deleted ones included). Remove them first.`);
    }
  }
}
