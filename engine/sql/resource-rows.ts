// Which rows of a resource a request reads, as SQL conditions: the definition's scope, the parent
// the path names, the rows the policy lets the user see, and soft-deleted rows hidden unless asked.
import type { Registry } from '../definition/registry.ts';
import { scopeTest } from '../definition/scope.ts';
import type { ResourceDef } from '../definition/types.ts';
import { condition, placeholders, quote, type Condition } from './quote.ts';

/** Soft-deleted rows: hidden (`without`, the default), shown beside the others, or alone. */
export type TrashedMode = 'with' | 'without' | 'only';

/**
 * The rows of a resource a user may see (the policy's answer): those of some companies
 * (`column IN (values)`, and rows without one when `orNull`), and, for a definition with
 * `visibleTo`, those that name one of `visibleTo` users (the user, or their team).
 */
export interface RowScope {
  company?: { column: string; values: readonly number[]; orNull: boolean };
  visibleTo?: readonly number[];
}

export interface RowsOptions {
  parentId?: number;
  trashed?: TrashedMode;
  /** The rows the user may see, as the policy says (company and record scope). */
  rows?: RowScope;
}

/** The definition's scope: own columns, or a column of a belongsTo target (`operationType.type`); equal to a value, or compared (`> 0`). */
export function scopeConditions(def: ResourceDef, registry: Registry): Condition[] {
  return Object.entries(def.scope).map(([key, value]) => {
    const { operator, operand } = scopeTest(value);
    if (!key.includes('.')) return condition(`${quote(`${def.table}.${key}`)} ${operator} ?`, operand);
    const [relationName, column] = key.split('.') as [string, string];
    const relation = def.relations.get(relationName)!;
    const target = registry.get(relation.resource);
    return condition(`${quote(`${def.table}.${relation.foreignKey}`)} IN (SELECT ${quote('id')} FROM ${quote(target.table)} WHERE ${quote(column)} ${operator} ?)`, operand);
  });
}

export function rowScopeConditions(def: ResourceDef, { company, visibleTo }: RowScope): Condition[] {
  const conditions: Condition[] = [];
  if (company) {
    const qualified = quote(`${def.table}.${company.column}`);
    const anyOf = company.values.length > 0 ? `${qualified} IN (${placeholders(company.values.length)})` : '1 = 0';
    conditions.push({ sql: company.orNull ? `(${anyOf} OR ${qualified} IS NULL)` : anyOf, params: [...company.values] });
  }
  if (visibleTo && def.access.visibleTo) conditions.push(namesOneOf(def, visibleTo));
  return conditions;
}

/** The record names one of these users in one of its `visibleTo` columns or pivots. */
function namesOneOf(def: ResourceDef, users: readonly number[]): Condition {
  if (users.length === 0) return condition('1 = 0');
  const list = placeholders(users.length);
  const tests = def.access.visibleTo!.map((by) =>
    'column' in by
      ? `${quote(`${def.table}.${by.column}`)} IN (${list})`
      : `${quote(`${def.table}.id`)} IN (SELECT ${quote(by.through.from)} FROM ${quote(by.through.table)} WHERE ${quote(by.through.to)} IN (${list}))`,
  );
  return { sql: `(${tests.join(' OR ')})`, params: tests.flatMap(() => users) };
}

export function trashedCondition(def: ResourceDef, trashed: TrashedMode = 'without'): Condition | undefined {
  if (!def.softDelete || trashed === 'with') return undefined;
  return condition(`${quote(`${def.table}.deleted_at`)} ${trashed === 'only' ? 'IS NOT NULL' : 'IS NULL'}`);
}

/** Every condition on the rows of `def` a request may read. */
export function resourceRows(def: ResourceDef, registry: Registry, options: RowsOptions): Condition[] {
  const conditions: Condition[] = [];
  if (def.parent && options.parentId !== undefined) conditions.push(condition(`${quote(`${def.table}.${def.parent.foreignKey}`)} = ?`, options.parentId));
  conditions.push(...scopeConditions(def, registry));
  if (options.rows) conditions.push(...rowScopeConditions(def, options.rows));
  const trashed = trashedCondition(def, options.trashed);
  if (trashed) conditions.push(trashed);
  return conditions;
}
