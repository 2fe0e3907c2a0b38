// `tree:` (top level): records arranged under a parent, with a stored path of ids and, optionally,
// a stored full name (the names from the root down), both read-only and kept by the engine:
//
//   tree:
//     parent: parent_id
//     path: { field: parent_path, self: true }      # "1/9/10/"; a string (or self: false): "/1/9/"
//     fullName: { field: full_name, from: name, separator: '/', nameOnlyWhere: { type: view } }
//     cycleMessage: The parent id cannot be the location itself or one of its sub-locations.
//
// A record's path and full name are written with it (a path that ends with the record's own id
// right after its insert). Moving a record under itself or one of its descendants is a 422 on the
// parent field. When a record moves or is renamed, its descendants' paths and full names are
// rewritten in one UPDATE (trashed ones included), each recorded in the change feed.
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { scopeConditions } from '../sql/resource-rows.ts';
import { idsMeeting, lockedDescendants, rewriteDescendants, type Subtree } from '../sql/tree-paths.ts';
import { cycleMessage } from '../definition/structure-rules.ts';
import type { TreeDef } from '../definition/types.ts';

type Row = Record<string, unknown>;

/** The ids a stored path names: the ancestors from the root (and, with `self`, the record last). */
const pathIds = (path: unknown) =>
  String(path ?? '')
    .split('/')
    .filter(Boolean)
    .map(Number);

/** What the paths of a record's descendants start with. */
function subtreePrefix(tree: TreeDef, row: Row): string {
  const path = row[tree.path.field] as string | null | undefined;
  return tree.path.self ? (path ?? '') : `${path ?? '/'}${row.id}/`;
}

const length = (text: string) => [...text].length;

function checkedFullName(def: ResourceDef, tree: TreeDef, fullName: string): string {
  const max = def.fields.get(tree.fullName!.field)?.maxLength;
  if (max === undefined || length(fullName) <= max) return fullName;
  const label = def.fields.get(tree.fullName!.field)!.label;
  throw new ValidationError({ [tree.fullName!.from]: [`The ${label} (the names from the root down) must not be greater than ${max} characters.`] });
}

/**
 * Before records are written: a moved record's parent is not itself or below it (422), and each
 * record created, moved or renamed gets its path and full name in its values (a path that ends
 * with its own id gets that id after the insert: finishTreeInsert).
 */
export async function placeInTree(trx: Knex.Transaction, def: ResourceDef, entries: ReadonlyArray<{ values: Row; record?: Row }>): Promise<void> {
  const tree = def.tree;
  if (!tree) return;
  const reads = [tree.parent, ...(tree.fullName ? [tree.fullName.from, ...Object.keys(tree.fullName.nameOnlyWhere)] : [])];
  for (const { values, record } of entries) {
    if (record && !reads.some((name) => values[name] !== undefined)) continue;
    const merged = { ...record, ...values };
    const parentId = merged[tree.parent];
    const columns = ['id', tree.path.field, ...(tree.fullName ? [tree.fullName.field] : [])];
    const parent: Row | undefined = parentId == null ? undefined : await trx(def.table).where('id', parentId).first(columns);
    if (record && parent && [...pathIds(parent[tree.path.field]), Number(parent.id)].includes(Number(record.id))) {
      throw new ValidationError({ [tree.parent]: [cycleMessage(def, tree)] });
    }
    const prefix = parent ? subtreePrefix(tree, parent) : tree.path.self ? '' : '/';
    values[tree.path.field] = tree.path.self && record ? `${prefix}${record.id}/` : prefix;
    if (tree.fullName) {
      const { field, from, separator, nameOnlyWhere } = tree.fullName;
      const nameOnly = !parent || (Object.keys(nameOnlyWhere).length > 0 && Object.entries(nameOnlyWhere).every(([key, value]) => merged[key] === value));
      values[field] = checkedFullName(def, tree, nameOnly ? String(merged[from]) : `${parent[field] ?? ''}${separator}${merged[from]}`);
    }
  }
}

/** After a record's insert: a path that ends with the record's own id gets it. */
export async function finishTreeInsert(trx: Knex.Transaction, def: ResourceDef, id: number, values: Row): Promise<void> {
  const tree = def.tree;
  if (!tree?.path.self) return;
  await trx(def.table)
    .where('id', id)
    .update({ [tree.path.field]: `${values[tree.path.field] ?? ''}${id}/` });
}

/**
 * After a record's update: when its descendants' path prefix or its full name changed, one UPDATE
 * rewrites them in every descendant (a descendant whose full name does not start with the old one,
 * as a location shown by its name only, keeps it), each recorded in the change feed.
 */
export async function moveSubtree(context: { trx: Knex.Transaction; registry: Registry; changes: ChangeSet }, def: ResourceDef, current: Row, values: Row): Promise<void> {
  const tree = def.tree;
  if (!tree) return;
  const { trx } = context;
  const pathField = tree.path.field;
  if (values[pathField] === undefined) return;
  const oldPrefix = subtreePrefix(tree, current);
  const newPrefix = subtreePrefix(tree, { ...current, [pathField]: values[pathField] });
  const fullField = tree.fullName?.field;
  const oldFull = fullField ? String(current[fullField] ?? '') : '';
  const newFull = fullField ? String(values[fullField] ?? '') : '';
  if (oldPrefix === newPrefix && oldFull === newFull) return;
  const subtree: Subtree = { table: def.table, pathField, prefix: oldPrefix, prefixLength: length(oldPrefix), id: current.id, fullField };
  const rows = await lockedDescendants(trx, subtree);
  if (rows.length === 0) return;
  let fullName: { from: string; fromLength: number; to: string } | undefined;
  if (fullField && oldFull !== newFull) {
    const oldStart = `${oldFull}${tree.fullName!.separator}`;
    const newStart = `${newFull}${tree.fullName!.separator}`;
    for (const row of rows) if (row.full?.startsWith(oldStart)) checkedFullName(def, tree, newStart + row.full.slice(oldStart.length));
    fullName = { from: oldStart, fromLength: length(oldStart), to: newStart };
  }
  await rewriteDescendants(trx, subtree, newPrefix, fullName);
  const changed = [pathField, ...(fullField ? [fullField] : [])];
  for (const resource of servedFrom(context.registry, def.table)) {
    const ids = await inScope(
      trx,
      context.registry,
      resource,
      rows.map((row) => Number(row.id)),
    );
    if (ids.length > 0) context.changes.add(resource.name, ids, 'updated', changed);
  }
}

/** The listable resources served from a table: a rewritten row is a change of each that shows it. */
function servedFrom(registry: Registry, table: string): ResourceDef[] {
  return [...registry.all()].filter((def) => def.table === table && def.operations.has('list'));
}

async function inScope(trx: Knex.Transaction, registry: Registry, def: ResourceDef, ids: number[]): Promise<number[]> {
  const scope = scopeConditions(def, registry);
  if (scope.length === 0) return ids;
  return idsMeeting(trx, def.table, ids, scope);
}
