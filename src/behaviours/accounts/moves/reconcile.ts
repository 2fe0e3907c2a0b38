// Settling receivable and payable lines against each other (reference-o2c-p2p §2.10, §2.11): a
// payment's line against a document's instalments, a credit note's against its invoice's. Each
// match is a partial reconciliation of an amount; a line with nothing left to settle is
// reconciled. A document's residual and payment state follow its lines. A fixed number of
// statements, however many lines are matched.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../../../engine/index.ts';
import { roundTo } from '../money.ts';
import { updateRows } from '../../support/update-rows.ts';
import { kindOf } from './kinds.ts';

type Row = Record<string, any>;

/** The receivable/payable lines of these moves that still have something to settle, earliest due first. */
export async function openLines(trx: Knex.Transaction, moveIds: number[]): Promise<Row[]> {
  return trx('accounts_account_move_lines')
    .whereIn('move_id', moveIds)
    .where('display_type', 'payment_term')
    .whereNot('amount_residual_currency', 0)
    .orderBy('date_maturity')
    .orderBy('id');
}

/**
 * Matches `lines` (a document's, earliest due first) with `against` (of the other sign) for at
 * most `limit` in the document currency; returns what was matched.
 */
export async function reconcile(trx: Knex.Transaction, lines: Row[], against: Row[], options: { companyId: number; userId: number; limit?: number }): Promise<number> {
  const now = nowTimestamp();
  const partials: Row[] = [];
  const touched = new Map<number, Row>();
  let left = options.limit ?? Number.POSITIVE_INFINITY;
  for (const line of lines) {
    for (const other of against) {
      if (left <= 0) break;
      const lineResidual = Number(line.amount_residual_currency);
      const otherResidual = Number(other.amount_residual_currency);
      if (lineResidual === 0 || otherResidual === 0 || Math.sign(lineResidual) === Math.sign(otherResidual)) continue;
      const amountCurrency = roundTo(Math.min(Math.abs(lineResidual), Math.abs(otherResidual), left), 4);
      // In the company currency: all that is left when the line is settled, else its share.
      const share = (row: Row) =>
        amountCurrency === Math.abs(Number(row.amount_residual_currency))
          ? Math.abs(Number(row.amount_residual))
          : roundTo((Math.abs(Number(row.amount_residual)) * amountCurrency) / Math.abs(Number(row.amount_residual_currency)), 4);
      const amount = Math.min(share(line), share(other));
      for (const row of [line, other]) {
        const sign = Math.sign(Number(row.amount_residual_currency));
        row.amount_residual_currency = roundTo(Number(row.amount_residual_currency) - sign * amountCurrency, 4);
        row.amount_residual = roundTo(Number(row.amount_residual) - sign * amount, 4);
        if (row.amount_residual_currency === 0) row.amount_residual = 0;
        touched.set(Number(row.id), row);
      }
      const [debit, credit] = lineResidual > 0 ? [line, other] : [other, line];
      partials.push({
        debit_move_id: debit.id,
        credit_move_id: credit.id,
        amount,
        debit_amount_currency: amountCurrency,
        credit_amount_currency: amountCurrency,
        max_date: [line.date_maturity ?? line.date, other.date_maturity ?? other.date].filter(Boolean).sort().pop() ?? null,
        company_id: options.companyId,
        creator_id: options.userId,
        created_at: now,
        updated_at: now,
      });
      left = roundTo(left - amountCurrency, 4);
    }
  }
  if (partials.length === 0) return 0;
  // Raw: partial reconciliations are the ledger's own rows; no resource shows them.
  await trx('accounts_partial_reconciles').insert(partials);
  await updateRows(
    trx,
    'accounts_account_move_lines',
    [...touched.values()].map((row) => ({
      id: Number(row.id),
      values: {
        amount_residual: row.amount_residual,
        amount_residual_currency: row.amount_residual_currency,
        reconciled: row.amount_residual_currency === 0 ? 1 : 0,
        updated_at: now,
      },
    })),
  );
  return partials.reduce((sum, partial) => sum + partial.debit_amount_currency, 0);
}

/**
 * Undoes every settlement of these moves' lines: the amounts go back to both sides (a payment
 * becomes unmatched). Returns the other moves whose lines changed.
 */
export async function unreconcile(trx: Knex.Transaction, moveIds: number[]): Promise<number[]> {
  const own = trx('accounts_account_move_lines').whereIn('move_id', moveIds).select('id');
  const partials: Row[] = await trx('accounts_partial_reconciles').whereIn('debit_move_id', own.clone()).orWhereIn('credit_move_id', own.clone());
  if (partials.length === 0) return [];
  const lineIds = [...new Set(partials.flatMap((partial) => [Number(partial.debit_move_id), Number(partial.credit_move_id)]))];
  const lines = new Map<number, Row>((await trx('accounts_account_move_lines').whereIn('id', lineIds)).map((row) => [Number(row.id), row]));
  for (const partial of partials) {
    const debit = lines.get(Number(partial.debit_move_id))!;
    const credit = lines.get(Number(partial.credit_move_id))!;
    debit.amount_residual = roundTo(Number(debit.amount_residual) + Number(partial.amount), 4);
    debit.amount_residual_currency = roundTo(Number(debit.amount_residual_currency) + Number(partial.debit_amount_currency), 4);
    credit.amount_residual = roundTo(Number(credit.amount_residual) - Number(partial.amount), 4);
    credit.amount_residual_currency = roundTo(Number(credit.amount_residual_currency) - Number(partial.credit_amount_currency), 4);
  }
  const now = nowTimestamp();
  await trx('accounts_partial_reconciles')
    .whereIn(
      'id',
      partials.map((partial) => partial.id),
    )
    .delete();
  await updateRows(
    trx,
    'accounts_account_move_lines',
    [...lines.values()].map((row) => ({
      id: Number(row.id),
      values: {
        amount_residual: row.amount_residual,
        amount_residual_currency: row.amount_residual_currency,
        reconciled: Number(row.amount_residual_currency) === 0 ? 1 : 0,
        updated_at: now,
      },
    })),
  );
  const acted = new Set(moveIds);
  return [...new Set([...lines.values()].map((row) => Number(row.move_id)))].filter((id) => !acted.has(id));
}

/**
 * The residual and payment state of these moves from their receivable/payable lines: paid when
 * nothing is left, reversed when what settled it is only the document reversing it, partial when
 * some is settled.
 */
export async function refreshResiduals(trx: Knex.Transaction, moveIds: number[]): Promise<void> {
  if (moveIds.length === 0) return;
  const moves: Row[] = await trx('accounts_account_moves').whereIn('id', moveIds);
  const terms: Row[] = await trx('accounts_account_move_lines').whereIn('move_id', moveIds).where('display_type', 'payment_term');
  // Which moves settled which: a document settled only by its reversal is `reversed`.
  const partners: Row[] = await trx('accounts_partial_reconciles as p')
    .join('accounts_account_move_lines as d', 'd.id', 'p.debit_move_id')
    .join('accounts_account_move_lines as c', 'c.id', 'p.credit_move_id')
    .whereIn('d.move_id', moveIds)
    .orWhereIn('c.move_id', moveIds)
    .select('d.move_id as debit_move', 'c.move_id as credit_move');
  const counterparts = await trx('accounts_account_moves')
    .whereIn('id', [...new Set(partners.flatMap((row) => [Number(row.debit_move), Number(row.credit_move)]))])
    .select('id', 'reversed_entry_id');
  const reversalOf = new Map(counterparts.map((row) => [Number(row.id), row.reversed_entry_id == null ? null : Number(row.reversed_entry_id)]));
  const now = nowTimestamp();
  const updates = moves.map((move) => {
    const own = terms.filter((line) => Number(line.move_id) === Number(move.id));
    const residualCurrency = roundTo(
      own.reduce((sum, line) => sum + Number(line.amount_residual_currency), 0),
      4,
    );
    const residual = own.reduce((sum, line) => sum + Number(line.amount_residual), 0);
    // A payment's journal entry keeps what is left unmatched as its residual.
    const values: Row = { amount_residual_signed: roundTo(residual, 4), amount_residual: Math.abs(residualCurrency), payment_state: 'not_paid', updated_at: now };
    if (move.move_type !== 'entry') {
      const kind = kindOf(move.move_type);
      values.amount_residual = roundTo(-kind.direction * residualCurrency, 4);
      const involving = partners.filter((row) => Number(row.debit_move) === Number(move.id) || Number(row.credit_move) === Number(move.id));
      const settledBy = involving.map((row) => (Number(row.debit_move) === Number(move.id) ? Number(row.credit_move) : Number(row.debit_move)));
      const matched = involving.length > 0;
      const onlyReversal = matched && settledBy.every((id) => reversalOf.get(id) === Number(move.id));
      values.payment_state = residualCurrency === 0 && matched ? (onlyReversal ? 'reversed' : 'paid') : matched ? 'partial' : 'not_paid';
    }
    return { id: Number(move.id), values };
  });
  await updateRows(trx, 'accounts_account_moves', updates);
}
