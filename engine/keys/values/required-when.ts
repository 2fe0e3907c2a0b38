// `requiredWhen: {when: {type: [blanket_order]}}`: a field the record may not be without while it
// has those values (Odoo's `required` on a state), judged on the values it will have: those sent,
// else the stored ones. A 422 on the field, on create and on update.
import type { FieldDef, ResourceDef } from '../../definition/types.ts';
import type { FieldErrors } from '../../errors/http-errors.ts';
import { matches } from '../../definition/match.ts';
import { own, type Entry } from './record-values.ts';

export function checkRequiredWhen(def: ResourceDef, fields: readonly FieldDef[], entries: readonly Entry[], errors: Map<Entry, FieldErrors>): void {
  for (const entry of entries) {
    for (const field of fields) {
      const { when, message } = field.requiredWhen!;
      const row = Object.fromEntries(Object.keys(when).map((column) => [column, own(entry, column)]));
      if (own(entry, field.name) == null && matches(def, when, row)) errors.get(entry)![field.name] = [message ?? requiredMessage(def, field)];
    }
  }
}

/** As the original's `required_if`: "The starts at field is required when type is blanket order." */
export function requiredMessage(def: ResourceDef, field: FieldDef): string {
  const [column, values] = Object.entries(field.requiredWhen!.when)[0]!;
  const label = def.fields.get(column)?.label ?? column.replace(/_/g, ' ');
  return `The ${field.label} field is required when ${label} is ${values.map((value) => String(value).replace(/_/g, ' ')).join(' or ')}.`;
}
