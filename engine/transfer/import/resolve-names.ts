// Relations given by name, as Odoo resolves them: a row may name the record a belongsTo relation
// points at in a column named after the relation (`category` = "Weight" for `category_id`), by the
// field an export writes there (the target's `name`, else `full_name`, `title`, `code`...; see
// displayField), or else by its `code`. Each relation's names are looked up once
// for the whole file, among the rows the user may see; a name that matches no record, or more
// than one, is that row's error. A name given wins over an id in the same row (an export carries
// both, and ids differ from one database to another).
import type { Registry } from '../../definition/registry.ts';
import type { RelationDef, ResourceDef } from '../../definition/types.ts';
import type { FieldErrors } from '../../errors/http-errors.ts';
import type { RowScope } from '../../sql/resource-rows.ts';
import { resourceRows } from '../../sql/resource-rows.ts';
import { displayField } from '../export/export-columns.ts';
import { condition, placeholders, quote, whereClause } from '../../sql/quote.ts';
import type { Statements } from '../../sql/statements.ts';

/** A relation a row may name by a column of its target. */
export interface NamedRelation {
  relation: RelationDef;
  target: ResourceDef;
  /** The row's column holding the name (the relation's key, `category`). */
  column: string;
  /** The target's columns it is matched against, in order: the display field, then `code`. */
  by: string[];
}

/** The belongsTo relations whose foreign key is a writable field, and whose target has a code or a name. */
export function namedRelations(def: ResourceDef, registry: Registry): NamedRelation[] {
  const found: NamedRelation[] = [];
  for (const relation of def.relations.values()) {
    if (relation.kind !== 'belongsTo' || !def.fields.get(relation.foreignKey)?.writable) continue;
    if (def.fields.has(relation.outputKey)) continue; // the column is a field of its own
    const target = registry.get(relation.resource);
    const text = (name: string) => {
      const field = target.fields.get(name);
      return field?.stored === true && field.output && (field.type === 'string' || field.type === 'text');
    };
    const by = [...new Set([displayField(target), text('code') ? 'code' : undefined])].filter((name): name is string => name !== undefined);
    if (by.length > 0) found.push({ relation, target, column: relation.outputKey, by });
  }
  return found;
}

/**
 * Replaces the names in `bodies` with the ids they resolve to (`category` → `category_id`), in place;
 * returns the errors per body index.
 */
export async function resolveNames(
  relations: readonly NamedRelation[],
  bodies: Array<Record<string, unknown>>,
  statements: Pick<Statements, 'all'>,
  registry: Registry,
  rowScope: (def: ResourceDef) => RowScope | undefined,
): Promise<Map<number, FieldErrors>> {
  const errors = new Map<number, FieldErrors>();
  for (const named of relations) {
    const { relation, target, column, by } = named;
    const wanted = new Set<string>();
    for (const body of bodies) {
      const name = body[column];
      if (typeof name === 'string' && name.trim() !== '') wanted.add(name.trim());
      else if (typeof name === 'number') wanted.add(String(name));
    }
    if (wanted.size === 0) continue;
    const ids = await idsByName(named, [...wanted], statements, registry, rowScope(target));
    bodies.forEach((body, index) => {
      const value = body[column];
      if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return;
      const name = String(value).trim();
      const matches = ids.get(name) ?? [];
      delete body[column];
      if (matches.length === 1) body[relation.foreignKey] = matches[0];
      else {
        const problem = matches.length === 0 ? 'matches no' : `matches ${matches.length}`;
        errors.set(index, {
          ...errors.get(index),
          [column]: [`The ${column.replace(/_/g, ' ')} "${name}" ${problem} ${target.label} record${matches.length > 1 ? 's' : ''} by ${by}.`],
        });
      }
    });
  }
  return errors;
}

/** name → the ids of the visible live rows that have it: by the first column, then the names left by the next. */
async function idsByName(named: NamedRelation, names: string[], statements: Pick<Statements, 'all'>, registry: Registry, rows: RowScope | undefined) {
  const ids = new Map<string, number[]>();
  let left = names;
  for (const by of named.by) {
    if (left.length === 0) break;
    for (const [name, found] of await idsBy(named.target, by, left, statements, registry, rows)) ids.set(name, found);
    left = left.filter((name) => !ids.has(name));
  }
  return ids;
}

/** name → the ids of the visible live rows whose `by` column has it, in chunks of 500 names. */
async function idsBy(target: ResourceDef, by: string, names: string[], statements: Pick<Statements, 'all'>, registry: Registry, rows: RowScope | undefined) {
  const ids = new Map<string, number[]>();
  const visible = resourceRows(target, registry, { rows });
  for (let start = 0; start < names.length; start += 500) {
    const chunk = names.slice(start, start + 500);
    const where = whereClause([condition(`${quote(`${target.table}.${by}`)} IN (${placeholders(chunk.length)})`, ...chunk), ...visible]);
    const found = await statements.all(
      `SELECT ${quote(`${target.table}.id`)} AS ${quote('id')}, ${quote(`${target.table}.${by}`)} AS ${quote('name')} FROM ${quote(target.table)}${where.sql}`,
      where.params,
    );
    for (const row of found) {
      const key = String(row.name);
      ids.set(key, [...(ids.get(key) ?? []), Number(row.id)]);
    }
  }
  return ids;
}
