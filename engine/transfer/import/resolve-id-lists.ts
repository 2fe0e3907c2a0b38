// A record's own lists of ids in an import row (../id-lists.ts: a partner's `tags`): the ids as an
// export writes them (`[3,7]`; in CSV also `3,7`, read by coerce-cells.ts), or the records' names
// in `<field>_names` (`["VIP","Retail"]`, a list in JSON Lines, its JSON text in CSV and XLSX).
// Names given win over the ids beside them (an export carries both, and ids differ between
// databases); a name several records share is the one of them whose id stands at the same place
// in the ids, if one is. Each field's names are looked up once for the whole file, among the
// records the user may see; a name that matches no record is the row's error under the names column.
import secureJson from 'secure-json-parse';
import type { Registry } from '../../definition/registry.ts';
import type { ResourceDef } from '../../definition/types.ts';
import type { FieldErrors } from '../../errors/http-errors.ts';
import type { RowScope } from '../../sql/resource-rows.ts';
import type { Statements } from '../../sql/statements.ts';
import { idLists } from '../id-lists.ts';
import { idsByName, nameColumns, nameError, oneOf } from './resolve-names.ts';

/**
 * Replaces each row's `<field>_names` with the ids they name (in `<field>`), in place; returns the
 * errors per row index. A row without the column (or with an empty cell) keeps its ids.
 */
export async function resolveIdLists(
  def: ResourceDef,
  registry: Registry,
  bodies: Array<Record<string, unknown>>,
  statements: Pick<Statements, 'all'>,
  rowScope: (def: ResourceDef) => RowScope | undefined,
): Promise<Map<number, FieldErrors>> {
  const errors = new Map<number, FieldErrors>();
  for (const { field, target, namesColumn } of idLists(def, registry)) {
    const by = nameColumns(target);
    if (by.length === 0) continue;
    const sent = bodies.map((body, index) => {
      if (!(namesColumn in body)) return undefined;
      const names = namesOf(body[namesColumn]);
      delete body[namesColumn];
      if (names !== 'invalid') return names;
      // The cell's own error, not that of the ids beside it (the other installation's).
      delete body[field.name];
      errors.set(index, { ...errors.get(index), [namesColumn]: [notAList(field.label)] });
      return undefined;
    });
    const wanted = [...new Set(sent.flatMap((names) => names ?? []))];
    if (sent.every((names) => names === undefined)) continue;
    const ids = wanted.length > 0 ? await idsByName({ target, by }, wanted, statements, registry, rowScope(target)) : new Map<string, number[]>();
    sent.forEach((names, index) => {
      if (names === undefined) return;
      const body = bodies[index]!;
      const beside = Array.isArray(body[field.name]) ? (body[field.name] as unknown[]) : [];
      const found: number[] = [];
      const messages = new Set<string>();
      names.forEach((name, at) => {
        const matches = ids.get(name) ?? [];
        const id = oneOf(matches, beside[at]);
        if (id !== undefined) found.push(id);
        else messages.add(nameError('', `${field.name}_name`, name, matches.length, target, by));
      });
      // The names found stand for the list; those not found are the row's error, not the ids beside them.
      body[field.name] = found;
      if (messages.size > 0) errors.set(index, { ...errors.get(index), [namesColumn]: [...messages] });
    });
  }
  return errors;
}

/** The names of a cell: a list (JSON Lines), or its JSON text (CSV, XLSX); undefined when empty; 'invalid' when not a list of names. */
function namesOf(value: unknown): string[] | undefined | 'invalid' {
  if (value === null || value === undefined) return undefined;
  let list = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return undefined;
    try {
      // secure-json-parse, as for JSON bodies: no __proto__ or constructor pollution.
      list = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return 'invalid';
    }
  }
  if (!Array.isArray(list)) return 'invalid';
  const names: string[] = [];
  for (const entry of list) {
    const name = typeof entry === 'string' ? entry.trim() : typeof entry === 'number' ? String(entry) : '';
    if (name === '') return 'invalid';
    names.push(name);
  }
  return names;
}

function notAList(label: string): string {
  return `The ${label} names field must be a JSON list of names, as an export writes it (["VIP", "Retail"]).`;
}
