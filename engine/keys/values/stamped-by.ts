// `stampedBy: <boolean field>`: a time set when the flag becomes true (an earlier stamp is kept),
// cleared when it becomes false, left alone when the flag is not written (a milestone's
// completed_at, stamped by is_completed).
// A date is the record's company's today (../company-today.ts).
import type { Knex } from 'knex';
import type { FieldDef, ResourceDef } from '../../definition/types.ts';
import { nowTimestamp } from '../../serialize/value-formats.ts';
import { todayFor } from '../company-today.ts';
import { companyOf, type Entry } from './record-values.ts';

export async function stamp(trx: Knex.Transaction, def: ResourceDef, field: FieldDef, entries: readonly Entry[]): Promise<void> {
  for (const entry of entries) {
    const { values, record } = entry;
    const flag = values[field.stampedBy!];
    if (flag === undefined) {
      if (!record) values[field.name] = null;
    } else if (!flag) values[field.name] = null;
    else if (!record?.[field.name]) values[field.name] = field.type === 'date' ? await todayFor(trx, companyOf(def, entry)) : nowTimestamp();
  }
}
