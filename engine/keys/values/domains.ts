// Reference domains that read the record's own values (Odoo's domain= naming fields of the
// record): `referencesWhere: {project_id: {field: project_id}}` — the milestone of a task must be
// one of the task's project — judged on the values the record will have (those sent, else the
// stored ones), with the definition's message. Fixed conditions of a field with its own
// `referencesMessage` are judged here too, to answer with that message. One query per field for
// every record of the write.
import { satisfiesScope } from '../../definition/scope.ts';
import type { FieldDef, ResourceDef } from '../../definition/types.ts';
import type { FieldErrors } from '../../errors/http-errors.ts';
import { messages } from '../../validation/messages.ts';
import { isOwnValue, ownField, placeholdersOf } from '../../definition/value-rules.ts';
import { type Entry, own, type ReferencedRows, sameStored } from './record-values.ts';

/** Whether the write touches what the field's domain judges: a new record, the reference, or an own value it compares with. */
function judged(def: ResourceDef, field: FieldDef, entry: Entry, mode: 'create' | 'update'): boolean {
  if (own(entry, field.name) === null) return false;
  if (mode === 'create' || entry.values[field.name] !== undefined) return true;
  return Object.values(field.referencesWhere ?? {}).some((condition) => isOwnValue(condition) && entry.values[ownField(def, condition.field)] !== undefined);
}

/** Adds to each entry's errors the references outside their domain. */
export async function checkDomains(
  def: ResourceDef,
  fields: readonly FieldDef[],
  rows: ReferencedRows,
  entries: readonly Entry[],
  errors: Map<Entry, FieldErrors>,
  mode: 'create' | 'update',
) {
  for (const field of fields) {
    const checking = entries.filter((entry) => judged(def, field, entry, mode));
    if (checking.length === 0) continue;
    await rows.load(field.name, checking);
    const owned = Object.values(field.referencesWhere ?? {}).flatMap((condition) => (isOwnValue(condition) ? [condition.field] : []));
    await rows.loadPaths([...owned, ...placeholdersOf(field.referencesMessage ?? '')], checking);
    for (const entry of checking) {
      const problems = errors.get(entry)!;
      const value = own(entry, field.name);
      const ids = Array.isArray(value) ? value : [value];
      ids.forEach((id, index) => {
        const key = Array.isArray(value) ? `${field.name}.${index}` : field.name;
        if (problems[key]) return;
        const outcome = judge(def, field, rows, entry, rows.row(field.name, id));
        if (outcome === 'ok') return;
        if (outcome !== 'outside') {
          problems[outcome.field] ??= [outcome.message];
          return;
        }
        const label = Array.isArray(value) ? `${field.label}.${index}` : field.label;
        problems[key] = [field.referencesMessage ? rows.fill(field.referencesMessage.replace(/\{field\}/g, label), entry) : messages.notFound({ ...field, label })];
      });
    }
  }
}

/** ok, outside the domain, or an own value the domain needs left empty (its `missing` message, on that field). */
function judge(
  def: ResourceDef,
  field: FieldDef,
  rows: ReferencedRows,
  entry: Entry,
  target: Record<string, unknown> | undefined,
): 'ok' | 'outside' | { field: string; message: string } {
  // A reference that names no record is the body validator's to answer.
  if (!target) return 'ok';
  for (const [column, condition] of Object.entries(field.referencesWhere ?? {})) {
    const theirs = target[column] ?? null;
    if (!isOwnValue(condition)) {
      if (typeof condition === 'object' ? !satisfiesScope(condition, theirs) : !sameStored(theirs, condition)) return 'outside';
      continue;
    }
    const mine = rows.value(entry, condition.field);
    if (mine === null && condition.missing) return { field: ownField(def, condition.field), message: condition.missing };
    if (condition.orNull && (mine === null || theirs === null)) continue;
    if (!sameStored(theirs, mine)) return 'outside';
  }
  return 'ok';
}
