// Relations given by name, as Odoo resolves them: a row may name the record a belongsTo relation
// (or a field that `references` a resource) points at in a column named after it (`category` =
// "Weight" for `category_id`), by the
// field an export writes there (the target's `name`, else `full_name`, `title`, `code`...; see
// displayField), or else by its `code`. Each relation's names are looked up once
// for the whole file, among the rows the user may see; a name that matches no record, or more
// than one, is that row's error. A name given wins over an id in the same row (an export carries
// both, and ids differ from one database to another), except that a name several records share
// is taken as the one of them the id names (two taxes called "15%", one for sales).
import type { Registry } from '../../definition/registry.ts';
import type { ResourceDef } from '../../definition/types.ts';
import type { FieldErrors } from '../../errors/http-errors.ts';
import type { RowScope } from '../../sql/resource-rows.ts';
import { resourceRows } from '../../sql/resource-rows.ts';
import { displayField } from '../../definition/display-field.ts';
import { recordsFields } from '../records-fields.ts';
import { namedReferences, type Reference } from '../references.ts';
import { rowsByName } from '../../sql/key-reads.ts';
import type { Statements } from '../../sql/statements.ts';

/** A reference a row may name by a column of its target. */
export interface NamedRelation extends Reference {
  /** The target's columns it is matched against, in order: the display field, then `code`. */
  by: string[];
}

/** The references the create takes (../references.ts) whose target has a code or a name. */
export function namedRelations(def: ResourceDef, registry: Registry): NamedRelation[] {
  return namedReferences(def, registry).flatMap((reference) => {
    const by = nameColumns(reference.target);
    return by.length > 0 ? [{ ...reference, by }] : [];
  });
}

/** The columns a record of `target` is found by: its display field, then its `code`. */
export function nameColumns(target: ResourceDef): string[] {
  const text = (name: string) => {
    const field = target.fields.get(name);
    return field?.stored === true && field.output && (field.type === 'string' || field.type === 'text');
  };
  return [...new Set([displayField(target), text('code') ? 'code' : undefined])].filter((name): name is string => name !== undefined);
}

/** The error of a name that matches no record of `target`, or several; `prefix` places a line's (`invoice_lines.0.`), as the validator does. */
export function nameError(prefix: string, column: string, name: string, matches: number, target: ResourceDef, by: readonly string[]): string {
  const problem = matches === 0 ? 'matches no' : `matches ${matches}`;
  return `The ${prefix}${column.replace(/_/g, ' ')} "${name}" ${problem} ${target.label} record${matches > 1 ? 's' : ''} by ${by}.`;
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
  /** Where a body is, for its messages (a document's line: `invoice_lines.0.`). */
  placeOf: (index: number) => string = () => '',
): Promise<Map<number, FieldErrors>> {
  const errors = new Map<number, FieldErrors>();
  for (const named of relations) {
    const { foreignKey, target, column, by } = named;
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
      const found = oneOf(matches, body[foreignKey]);
      if (found !== undefined) body[foreignKey] = found;
      else errors.set(index, { ...errors.get(index), [column]: [nameError(placeOf(index), column, name, matches.length, target, by)] });
    });
  }
  return errors;
}

/** The record a name found: the only match, or of several the one the id given beside the name is. */
export function oneOf(matches: readonly number[], id: unknown): number | undefined {
  if (matches.length === 1) return matches[0];
  return matches.find((match) => id !== null && id !== undefined && id !== '' && match === Number(id));
}

/** name → the ids of the visible live rows that have it: by the first column, then the names left by the next. */
export async function idsByName(named: Pick<NamedRelation, 'target' | 'by'>, names: string[], statements: Pick<Statements, 'all'>, registry: Registry, rows: RowScope | undefined) {
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
    const found = await rowsByName(statements, target.table, by, chunk, visible);
    for (const row of found) {
      const key = String(row.name);
      ids.set(key, [...(ids.get(key) ?? []), Number(row.id)]);
    }
  }
  return ids;
}

/** A resource's and its lines' name columns with the id each stands for (`product` → `product_id`). */
export function idKeysOfNames(def: ResourceDef, registry: Registry): Map<string, string> {
  const keys = new Map<string, string>();
  for (const resource of [def, ...recordsFields(def, registry).map((records) => records.child)]) {
    for (const named of namedRelations(resource, registry)) keys.set(named.column, named.foreignKey);
  }
  return keys;
}

/**
 * A row's validation errors without those of an id beside a name that matched no record: an export
 * carries both, and the id is the other installation's, so the name's own error says what is wrong.
 */
export function withoutIdsOfUnresolvedNames(errors: FieldErrors, nameErrors: FieldErrors, idKeys: ReadonlyMap<string, string>): FieldErrors {
  const kept = { ...errors };
  for (const key of Object.keys(nameErrors)) {
    const dot = key.lastIndexOf('.');
    const id = idKeys.get(key.slice(dot + 1));
    if (id !== undefined) delete kept[`${key.slice(0, dot + 1)}${id}`];
  }
  return kept;
}
