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
import { type Static, Type } from '@sinclair/typebox';
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef, TreeDef } from '../definition/types.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { scopeConditions } from '../sql/resource-rows.ts';
import { idsMeeting, lockedDescendants, rewriteDescendants, type Subtree } from '../sql/tree-paths.ts';
import type { RuleKey } from './types.ts';
import { wroteColumns } from './written.ts';

const Name = Type.String({ pattern: '^[a-z][a-z0-9_]*$' });

const TreeFormat = Type.Object(
  {
    parent: Type.String({ pattern: Name.pattern, description: 'the field naming the parent record (of the same resource)' }),
    path: Type.Union(
      [
        Type.String({ pattern: Name.pattern, description: 'a read-only field: the ids of the ancestors from the root ("/1/6/", "/" for a root)' }),
        Type.Object(
          {
            field: Name,
            self: Type.Optional(Type.Boolean({ description: 'the ids from the root down to the record itself ("1/6/9/")' })),
          },
          { additionalProperties: false },
        ),
      ],
      { description: 'the stored path of ids, kept when a record moves' },
    ),
    fullName: Type.Optional(
      Type.Object(
        {
          field: Type.String({ pattern: Name.pattern, description: 'a read-only field: the full name' }),
          from: Type.String({ pattern: Name.pattern, description: "the field of each record's own name" }),
          separator: Type.String({ minLength: 1 }),
          nameOnlyWhere: Type.Optional(
            Type.Record(Name, Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
              additionalProperties: false,
              description: 'records with these values show their own name only, as a root does (a view location)',
            }),
          ),
        },
        { additionalProperties: false, description: "the parent's full name, the separator and the record's name; kept when an ancestor is renamed or moved" },
      ),
    ),
    cycleMessage: Type.Optional(Type.String({ minLength: 1, description: 'the 422 on the parent field of a record moved under itself or a descendant' })),
  },
  { additionalProperties: false, description: 'records under a parent, with a stored path and full name (no cycles)' },
);

/** The 422 of a record moved under itself or one of its descendants. */
export function cycleMessage(def: ResourceDef, tree: TreeDef): string {
  const label = def.fields.get(tree.parent)?.label ?? tree.parent;
  return tree.cycleMessage ?? `The ${label} cannot be the ${def.label.toLowerCase()} itself or one of its descendants.`;
}

export const tree: RuleKey = {
  key: 'tree',
  format: { at: 'resource', schema: TreeFormat },
  normalize(raw, def) {
    if (raw === undefined) return;
    const format = raw as Static<typeof TreeFormat>;
    const path = typeof format.path === 'string' ? { field: format.path, self: false } : { field: format.path.field, self: format.path.self ?? false };
    const fullName = format.fullName && { ...format.fullName, nameOnlyWhere: format.fullName.nameOnlyWhere ?? {} };
    def.tree = { parent: format.parent, path, ...(fullName && { fullName }), ...(format.cycleMessage && { cycleMessage: format.cycleMessage }) };
  },
  // The fields a tree names exist and are the engine's to write.
  check(def, _resources, problem) {
    const tree = def.tree;
    if (!tree) return;
    const field = (at: string, name: string): FieldDef | undefined => {
      const found = def.fields.get(name);
      if (!found?.stored) problem(at, `"${name}" is not a stored field of this resource`);
      return found?.stored ? found : undefined;
    };
    if (field('tree.parent', tree.parent)?.type === 'string') problem('tree.parent', 'the parent is an integer field');
    const readOnly = (at: string, name: string) => {
      const found = field(at, name);
      if (found?.writable) problem(at, `"${name}" is written by the engine: mark it readOnly: true`);
      if (found && found.type !== 'string' && found.type !== 'text') problem(at, `"${name}" is not a string field`);
    };
    readOnly('tree.path', tree.path.field);
    if (tree.fullName) {
      readOnly('tree.fullName.field', tree.fullName.field);
      field('tree.fullName.from', tree.fullName.from);
      for (const key of Object.keys(tree.fullName.nameOnlyWhere)) field(`tree.fullName.nameOnlyWhere.${key}`, key);
    }
  },
  describeField(def, field) {
    const tree = def.tree;
    if (!tree) return [];
    const words: string[] = [];
    if (field.name === tree.path.field) {
      words.push(
        tree.path.self
          ? `The ids from the root down to this record, each followed by "/"; kept when \`${tree.parent}\` changes.`
          : `The ids of the ancestors from the root, between "/" ("/" for a root); kept when \`${tree.parent}\` changes.`,
      );
    }
    if (field.name === tree.fullName?.field) {
      const only = Object.entries(tree.fullName.nameOnlyWhere).map(([key, value]) => `\`${key}\` is ${JSON.stringify(value)}`);
      words.push(
        `The parent's ${field.label} and \`${tree.fullName.from}\`, joined with ${JSON.stringify(tree.fullName.separator)} (a root${only.length > 0 ? `, or a record whose ${only.join(' and ')},` : ''} shows its \`${tree.fullName.from}\` only); kept when an ancestor is renamed or moved.`,
      );
    }
    if (field.name === tree.parent) words.push(`Not the record itself or one of its descendants: ${cycleMessage(def, tree)}`);
    return words;
  },
  // The stored path and full name, no cycles, and a moved record's descendants following it.
  step: {
    key: 'tree',
    uses: (def, _registry, phase) => phase !== 'remove' && def.tree !== undefined,
    follows: (def) => [def.tree!.parent, ...(def.tree!.fullName ? [def.tree!.fullName.from, ...Object.keys(def.tree!.fullName.nameOnlyWhere)] : [])],
    // A path that ends with the record's own id is finished right after its insert.
    oneByOne: () => true,
    beforeCreate: (context, def, hooks) => placeInTree(context.trx, def, hooks),
    beforeUpdate: (context, def, hooks) => placeInTree(context.trx, def, hooks),
    async afterInsert(context, def, written) {
      for (const { id, hook } of written) await finishTreeInsert(context.trx, def, id, hook.values);
    },
    async afterUpdate(context, def, written) {
      for (const { hook, current } of wroteColumns(written)) await moveSubtree(context, def, current!, hook.values);
    },
  },
};

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
async function placeInTree(trx: Knex.Transaction, def: ResourceDef, entries: ReadonlyArray<{ values: Row; record?: Row }>): Promise<void> {
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
async function finishTreeInsert(trx: Knex.Transaction, def: ResourceDef, id: number, values: Row): Promise<void> {
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
async function moveSubtree(context: { trx: Knex.Transaction; registry: Registry; changes: ChangeSet }, def: ResourceDef, current: Row, values: Row): Promise<void> {
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
