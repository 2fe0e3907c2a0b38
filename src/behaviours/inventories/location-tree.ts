// A location's place in the tree, kept in two read-only columns as the original does:
// - full_name: "<parent's full name>/<name>" ("WH/Stock", "Partners/Vendors"); a view location,
//   or one without a parent, shows its name only ("WH", "Physical Locations");
// - parent_path: the ids from the root down to the location itself ("1/9/10/").
import { ValidationError, type Hook } from '../../../engine/index.ts';
import { changedIds } from '../support/changed-rows.ts';

type Trx = Parameters<Hook>[0]['trx'];
const TABLE = 'inventories_locations';

/**
 * beforeCreate/beforeUpdate: a new location takes its parent's company and warehouse unless sent;
 * a location cannot be moved under itself or one of its sub-locations (422).
 */
export const prepareLocation: Hook = async ({ trx, values, record }) => {
  const parentId = values.parent_id as number | null | undefined;
  if (parentId === undefined || parentId === null) return;
  const parent = await trx(TABLE).where('id', parentId).first('id', 'parent_path', 'company_id', 'warehouse_id');
  if (record) {
    const ancestors = String(parent?.parent_path ?? '')
      .split('/')
      .filter(Boolean)
      .map(Number);
    if (Number(parentId) === Number(record.id) || ancestors.includes(Number(record.id))) {
      throw new ValidationError({ parent_id: ['The parent id cannot be the location itself or one of its sub-locations.'] });
    }
    return;
  }
  if (values.company_id === undefined) values.company_id = parent?.company_id ?? null;
  if (values.warehouse_id === undefined) values.warehouse_id = parent?.warehouse_id ?? null;
};

/**
 * afterCreate/afterUpdate: writes the location's full_name and parent_path (the path needs the new
 * id) and, when its name, type or parent changed, those of every location below it, trashed
 * ones included (they may be restored).
 */
export const refreshLocationTree: Hook = async ({ trx, values, record }) => {
  if (!record) return;
  const changed = record.parent_path === null || ['name', 'type', 'parent_id'].some((key) => values[key] !== undefined);
  if (changed) await refresh(trx, record);
};

async function refresh(trx: Trx, location: Record<string, any>): Promise<void> {
  const parent = location.parent_id ? await trx(TABLE).where('id', location.parent_id).first('full_name', 'parent_path') : undefined;
  const changes = {
    full_name: parent && location.type !== 'view' ? `${parent.full_name ?? ''}/${location.name}` : location.name,
    parent_path: `${parent?.parent_path ?? ''}${location.id}/`,
  };
  await trx(TABLE).where('id', location.id).update(changes);
  changedIds(trx, 'inventories/locations', [location.id]);
  const children = await trx(TABLE).where('parent_id', location.id).whereNot('id', location.id).select('id', 'name', 'type', 'parent_id');
  for (const child of children) await refresh(trx, child);
}
