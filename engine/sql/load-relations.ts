// Included relations, loaded in batches: one query per relation for all the records of a page
// (and for nested includes, one per level), never one per record. belongsTo targets are shown
// even when trashed; hasMany and manyToMany show live rows only, by id, as lists do.
import type { Registry } from '../definition/registry.ts';
import type { Columns } from './columns.ts';
import type { RelationDef, ResourceDef } from '../definition/types.ts';
import { placeholders, quote, whereClause, type Condition } from './quote.ts';
import type { Statements, Row } from './statements.ts';
import { scopeConditions, trashedCondition } from './resource-rows.ts';

/** Include paths as a tree: `lines.product`, `lines.uom` → lines → {product, uom}. */
export type IncludeTree = Map<string, IncludeTree>;

export function includeTree(paths: readonly string[]): IncludeTree {
  const root: IncludeTree = new Map();
  for (const path of paths) {
    let node = root;
    for (const segment of path.split('.')) {
      if (!node.has(segment)) node.set(segment, new Map());
      node = node.get(segment)!;
    }
  }
  return root;
}

/** Sets `row[relation]` on every row for every relation of the tree (recursively). */
export async function loadRelations(statements: Pick<Statements, 'all'>, registry: Registry, columns: Columns, def: ResourceDef, rows: Row[], tree: IncludeTree): Promise<void> {
  if (rows.length === 0 || tree.size === 0) return;
  await Promise.all(
    [...tree].map(async ([name, children]) => {
      const relation = def.relations.get(name)!;
      const target = registry.get(relation.resource);
      const related = await loadRelation(statements, registry, columns, relation, target, rows);
      await loadRelations(statements, registry, columns, target, related, children);
    }),
  );
}

/** Loads one relation for all rows; returns the related rows (for the next level). */
async function loadRelation(statements: Pick<Statements, 'all'>, registry: Registry, columns: Columns, relation: RelationDef, target: ResourceDef, rows: Row[]): Promise<Row[]> {
  const many = relation.kind !== 'belongsTo';
  const filters = relationConditions(relation, target, registry, many);
  const table = quote(target.table);

  if (relation.kind === 'belongsTo') {
    const keys = unique(rows.map((row) => row[relation.foreignKey]));
    const found = keys.length === 0 ? [] : await select(statements, columns(target), ` FROM ${table}`, [inList(`${target.table}.id`, keys), ...filters]);
    const byId = new Map(found.map((row) => [Number(row.id), row]));
    for (const row of rows) row[relation.name] = row[relation.foreignKey] == null ? null : (byId.get(Number(row[relation.foreignKey])) ?? null);
    return found;
  }

  const ids = unique(rows.map((row) => row.id));
  let found: Row[];
  let ownerOf: (row: Row) => number;
  if (relation.kind === 'hasMany') {
    found = await select(statements, columns(target), ` FROM ${table}`, [inList(`${target.table}.${relation.foreignKey}`, ids), ...filters], `${target.table}.id`);
    ownerOf = (row) => Number(row[relation.foreignKey]);
  } else {
    const { table: pivot, from, to } = relation.through!;
    const join = ` INNER JOIN ${quote(pivot)} ON ${quote(`${pivot}.${to}`)} = ${quote(`${target.table}.id`)}`;
    found = await select(
      statements,
      columns(target),
      `, ${quote(`${pivot}.${from}`)} AS ${quote('__owner')} FROM ${table}${join}`,
      [inList(`${pivot}.${from}`, ids), ...filters],
      `${target.table}.id`,
    );
    ownerOf = (row) => Number(row.__owner);
  }
  const byOwner = new Map<number, Row[]>();
  for (const row of found) {
    const owner = ownerOf(row);
    if (relation.kind === 'manyToMany') delete row.__owner;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), row]);
  }
  for (const row of rows) row[relation.name] = byOwner.get(Number(row.id)) ?? [];
  // A record related to several owners (many-to-many) is loaded once per owner: the next level sees each copy.
  return found;
}

function relationConditions(relation: RelationDef, target: ResourceDef, registry: Registry, many: boolean): Condition[] {
  const conditions = scopeConditions(target, registry);
  for (const [column, value] of Object.entries(relation.where ?? {})) {
    conditions.push(Array.isArray(value) ? inList(`${target.table}.${column}`, value) : { sql: `${quote(`${target.table}.${column}`)} = ?`, params: [value] });
  }
  const trashed = many ? trashedCondition(target) : undefined;
  if (trashed) conditions.push(trashed);
  return conditions;
}

function inList(column: string, values: readonly unknown[]): Condition {
  return { sql: `${quote(column)} IN (${placeholders(values.length)})`, params: [...values] };
}

/** SELECT `columns`, then `rest` (FROM ...), the conditions and the order. */
async function select(statements: Pick<Statements, 'all'>, columns: Condition, rest: string, conditions: Condition[], orderBy?: string): Promise<Row[]> {
  const where = whereClause(conditions);
  return statements.all(`SELECT ${columns.sql}${rest}${where.sql}${orderBy ? ` ORDER BY ${quote(orderBy)}` : ''}`, [...columns.params, ...where.params]);
}

function unique(values: unknown[]): unknown[] {
  return [...new Set(values.filter((value) => value !== null && value !== undefined).map(Number))];
}
