// The base query of a resource: its parent's rows only, the rows the user may see, and
// soft-deleted rows hidden unless asked.
import type { Knex } from 'knex';
import type { Registry } from '../definition/registry.ts';
import { applyScope } from '../definition/scope.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { ModelClass } from '../model/build-models.ts';
import type { TrashedMode } from '../list/filters/trashed.ts';
import type { RowScope } from './runtime.ts';

export interface Scope {
  parentId?: number;
  trashed?: TrashedMode;
  /** The rows the user may see, as the policy says (company scope). */
  rows?: RowScope;
  trx?: Knex.Transaction;
}

export function scopedQuery(model: ModelClass, def: ResourceDef, registry: Registry, scope: Scope) {
  const query = model.query(scope.trx);
  if (def.parent && scope.parentId !== undefined) query.where(`${def.table}.${def.parent.foreignKey}`, scope.parentId);
  applyScope(query, def, registry, model.knex());
  if (scope.rows) query.whereRaw(...rowCondition(`${def.table}.${scope.rows.column}`, scope.rows));
  if (def.softDelete) {
    const trashed = scope.trashed ?? 'without';
    if (trashed === 'only') query.whereNotNull(`${def.table}.deleted_at`);
    else if (trashed !== 'with') query.whereNull(`${def.table}.deleted_at`);
  }
  return query;
}

/**
 * Objection's relation expression for include paths, merged into one tree: `lines.product` and
 * `lines.uom` become `[lines.[product, uom]]` (listed side by side, the last would win).
 */
export function graphExpression(includes: readonly string[]): string {
  type Tree = Map<string, Tree>;
  const root: Tree = new Map();
  for (const include of includes) {
    let node = root;
    for (const segment of include.split('.')) {
      if (!node.has(segment)) node.set(segment, new Map());
      node = node.get(segment)!;
    }
  }
  const render = (tree: Tree): string =>
    `[${[...tree].map(([name, children]) => (children.size > 0 ? `${name}.${render(children)}` : name)).join(', ')}]`;
  return render(root);
}

/** What to load: the client's includes plus the relations the definition always embeds. */
export function loadedRelations(def: ResourceDef, includes: readonly string[] = []): string[] {
  return def.embed.length === 0 ? [...includes] : [...new Set([...def.embed, ...includes])];
}

/** `(column IN (?, ?) OR column IS NULL)` as raw SQL with bindings: cheaper to build than a nested builder, on every request. */
function rowCondition(column: string, { values, orNull }: RowScope): [string, unknown[]] {
  const anyOf = values.length > 0 ? `?? IN (${values.map(() => '?').join(', ')})` : '1 = 0';
  const bindings = values.length > 0 ? [column, ...values] : [];
  return orNull ? [`(${anyOf} OR ?? IS NULL)`, [...bindings, column]] : [anyOf, bindings];
}
