// A document's lines in an import row (the column an export writes for a `records` field, see
// ../export/export-lines.ts): a CSV or XLSX cell holds them as JSON text, a JSON Lines record as
// a list. Each line is read as a JSON record is (a decimal's text as its number, a date as its
// day), its references given by name resolved as the row's own are (and the entries of a list of
// ids, its taxes, given as `{"id": 1, "name": "15%"}` or a name alone, likewise), and the whole
// row then goes through the create's validation, which names a bad line's field (`lines.1.quantity`).
import secureJson from 'secure-json-parse';
import type { Registry } from '../../definition/registry.ts';
import type { ResourceDef } from '../../definition/types.ts';
import type { FieldErrors } from '../../errors/http-errors.ts';
import { lowerLabel, plural } from '../../definition/names.ts';
import type { RowScope } from '../../sql/resource-rows.ts';
import type { Statements } from '../../sql/statements.ts';
import { recordsFields } from '../records-fields.ts';
import { readValues } from './coerce-cells.ts';
import { idsByName, nameColumns, nameError, namedRelations, oneOf, resolveNames } from './resolve-names.ts';

/** Reads the row's lists of lines in place; the errors of a cell that is not a JSON list (the field left out of the body). */
export function readLines(def: ResourceDef, registry: Registry, body: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, child } of recordsFields(def, registry)) {
    let value = body[field.name];
    const lines = lowerLabel(plural(child.label));
    if (typeof value === 'string') {
      try {
        // secure-json-parse, as for JSON bodies: no __proto__ or constructor pollution.
        value = secureJson.parse(value, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        errors[field.name] = [`The ${field.label} field is not valid JSON: it holds a list of ${lines}, as an export writes it ([{…}, …]).`];
        delete body[field.name];
        continue;
      }
    }
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) {
      errors[field.name] = [`The ${field.label} field must be a JSON list of ${lines}, as an export writes it ([{…}, …]).`];
      delete body[field.name];
      continue;
    }
    body[field.name] = value.map((line) => (isRecord(line) ? readValues(child, line) : line));
  }
  return errors;
}

/**
 * Replaces the names in the rows' lines with the ids they resolve to (`product` → `product_id`),
 * each relation's names looked up once for the whole file; returns the errors per row index,
 * under the line's place (`lines.0.product`).
 */
export async function resolveLineNames(
  def: ResourceDef,
  registry: Registry,
  bodies: Array<Record<string, unknown>>,
  statements: Pick<Statements, 'all'>,
  rowScope: (def: ResourceDef) => RowScope | undefined,
): Promise<Map<number, FieldErrors>> {
  const errors = new Map<number, FieldErrors>();
  const fail = (row: number, key: string, message: string) => errors.set(row, { ...errors.get(row), [key]: [message] });
  for (const { field, child } of recordsFields(def, registry)) {
    const named = namedRelations(child, registry);
    const lines: Array<Record<string, unknown>> = [];
    const places: Array<{ row: number; index: number }> = [];
    bodies.forEach((body, row) => {
      const list = body[field.name];
      if (!Array.isArray(list)) return;
      list.forEach((line, index) => {
        if (!isRecord(line)) return;
        lines.push(line);
        places.push({ row, index });
      });
    });
    if (lines.length === 0) continue;
    const placeOf = (at: number) => `${field.name}.${places[at]!.index}.`;
    for (const [at, found] of await resolveNames(named, lines, statements, registry, rowScope, placeOf)) {
      const { row, index } = places[at]!;
      for (const [key, messages] of Object.entries(found)) fail(row, `${field.name}.${index}.${key}`, messages[0]!);
    }
    for (const list of idLists(child, registry)) {
      const { name, target, by } = list;
      const entries = lines.flatMap((line, at) => (Array.isArray(line[name]) ? (line[name] as unknown[]).map((entry, index) => ({ at, index, ...sent(entry, by) })) : []));
      const wanted = [...new Set(entries.flatMap((entry) => (entry.name === undefined ? [] : [entry.name])))];
      if (entries.length === 0) continue;
      const ids = wanted.length > 0 ? await idsByName(list, wanted, statements, registry, rowScope(target)) : new Map<string, number[]>();
      const resolved = lines.map((line) => (Array.isArray(line[name]) ? [...(line[name] as unknown[])] : undefined));
      for (const entry of entries) {
        if (entry.name === undefined) {
          resolved[entry.at]![entry.index] = entry.id;
          continue;
        }
        const matches = ids.get(entry.name) ?? [];
        const found = oneOf(matches, entry.id);
        const { row, index } = places[entry.at]!;
        if (found === undefined)
          fail(row, `${field.name}.${index}.${name}.${entry.index}`, nameError(`${field.name}.${index}.`, `${name}.${entry.index}`, entry.name, matches.length, target, by));
        resolved[entry.at]![entry.index] = found ?? entry.id ?? null;
      }
      lines.forEach((line, at) => {
        if (resolved[at]) line[name] = resolved[at];
      });
    }
  }
  return errors;
}

/** The lists of ids a line takes (its taxes) whose records have a name. */
function idLists(child: ResourceDef, registry: Registry) {
  return [...child.fields.values()].flatMap((field) => {
    const relation = field.type === 'ids' && !field.by && field.relation ? child.relations.get(field.relation) : undefined;
    if (!field.writable || !relation) return [];
    const target = registry.get(relation.resource);
    const by = nameColumns(target);
    return by.length > 0 ? [{ name: field.name, target, by }] : [];
  });
}

/** An entry of a list of ids: an id (left as it is), a name, or `{id, name}` as an export writes it. */
function sent(entry: unknown, by: readonly string[]): { id?: unknown; name?: string } {
  if (typeof entry === 'string' && entry.trim() !== '') return { name: entry.trim() };
  if (!isRecord(entry)) return { id: entry };
  const name = by.map((column) => entry[column]).find((value) => typeof value === 'string' && value.trim() !== '') as string | undefined;
  return { id: entry.id, name: name?.trim() };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
