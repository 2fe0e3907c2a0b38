// `stampedBy: <boolean field>`: a time set when the flag becomes true (an earlier stamp is kept),
// cleared when it becomes false, left alone when the flag is not written (a milestone's
// completed_at, stamped by is_completed).
import type { FieldDef } from '../../definition/types.ts';
import { nowTimestamp, today } from '../../serialize/value-formats.ts';
import type { Entry } from './record-values.ts';

export function stamp(field: FieldDef, entries: readonly Entry[]): void {
  for (const { values, record } of entries) {
    const flag = values[field.stampedBy!];
    if (flag === undefined) {
      if (!record) values[field.name] = null;
    } else if (!flag) values[field.name] = null;
    else if (!record?.[field.name]) values[field.name] = field.type === 'date' ? today() : nowTimestamp();
  }
}
