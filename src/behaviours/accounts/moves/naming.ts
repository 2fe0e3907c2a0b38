// Document numbers (reference-o2c-p2p §2.8): `<flag><journal code>/<year>/<number>`, one gap-free
// sequence per journal, kind and year — INV/2026/00001, RINV/2026/00001 for credit notes,
// PBANK/2026/00001 for payments — taken inside the confirming transaction, so a rolled-back
// confirmation gives its number back and concurrent confirmations queue on the sequence row.
import type { Knex } from 'knex';
import { nextInSequence } from '../../../../engine/index.ts';

/** '' for invoices and bills, R for credit notes and refunds, P for payments. */
export type NumberingFlag = '' | 'R' | 'P';

export async function nextMoveName(
  trx: Knex.Transaction,
  journal: { id: number; code: string },
  companyId: number,
  date: string,
  flag: NumberingFlag,
): Promise<{ name: string; prefix: string }> {
  const year = String(date).slice(0, 4);
  const prefix = `${flag}${journal.code}/${year}`;
  const name = await nextInSequence(trx, {
    code: `accounts.journal.${journal.id}${flag ? `.${flag}` : ''}.${year}`,
    companyId,
    prefix: `${prefix}/`,
    padding: 5,
  });
  return { name, prefix };
}
