// `checkCompany` (Odoo's check_company): the record a reference names is of the record's company,
// or of none (shared by every company). Judged on the values the record will have, when the
// reference or the company is written; the answer is the original's CrossCompanyException, a 422
// on the reference.
import type { FieldDef } from '../../definition/types.ts';
import type { FieldErrors } from '../../errors/http-errors.ts';
import { type Entry, own, type ReferencedRows } from './record-values.ts';

export function crossCompanyMessage(names: string): string {
  return `These records belong to a different company: ${names}. Change them or switch the company back.`;
}

export async function checkCompanies(fields: readonly FieldDef[], rows: ReferencedRows, entries: readonly Entry[], errors: Map<Entry, FieldErrors>, mode: 'create' | 'update') {
  for (const field of fields) {
    const checking = entries.filter(
      (entry) => own(entry, field.name) !== null && (mode === 'create' || entry.values[field.name] !== undefined || entry.values.company_id !== undefined),
    );
    if (checking.length === 0) continue;
    await rows.load(field.name, checking);
    for (const entry of checking) {
      const company = own(entry, 'company_id');
      const target = rows.row(field.name, own(entry, field.name));
      const theirs = target?.company_id ?? null;
      if (company === null || theirs === null || Number(company) === Number(theirs)) continue;
      errors.get(entry)![field.name] ??= [crossCompanyMessage(String(target?.name ?? `#${target?.id}`))];
    }
  }
}
