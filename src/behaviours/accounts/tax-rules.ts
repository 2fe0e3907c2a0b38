// What the tax computation (compute-taxes.ts) needs from the database, read in a fixed number of
// statements however many lines: the taxes of the lines (through their pivot), the children of the
// group taxes among them, the repartition lines of kind tax of all of them; and a document's
// rounding: its currency's step and its company's rounding mode.
import type { Knex } from 'knex';
import type { RepartitionShare, RoundingMode, TaxRule } from './compute-taxes.ts';
import { stepOf } from './money.ts';

type Row = Record<string, any>;

function ruleOf(row: Row): TaxRule {
  return {
    id: Number(row.id),
    amountType: row.amount_type,
    amount: Number(row.amount),
    priceInclude: Boolean(Number(row.price_include)),
    includeBaseAmount: Boolean(Number(row.include_base_amount)),
    isBaseAffected: row.is_base_affected === undefined || row.is_base_affected === null ? true : Boolean(Number(row.is_base_affected)),
    sort: Number(row.sort ?? 0),
    label: row.invoice_label ?? row.name,
    taxGroupId: row.tax_group_id == null ? null : Number(row.tax_group_id),
  };
}

/**
 * Each line's taxes, by line id: `pivot` links a line (`lineColumn`) to a tax (`tax_id`). A group
 * tax comes with its children; every tax with its repartition lines of kind tax (a tax without any
 * at all books 100 % on its own account, else on the line's).
 */
export async function taxesOfLines(trx: Knex.Transaction, pivot: string, lineColumn: string, lineIds: number[]): Promise<Map<number, TaxRule[]>> {
  const byLine = new Map<number, TaxRule[]>();
  if (lineIds.length === 0) return byLine;
  const links: Row[] = await trx(pivot)
    .join('accounts_taxes', 'accounts_taxes.id', `${pivot}.tax_id`)
    .whereIn(`${pivot}.${lineColumn}`, lineIds)
    .select(`${pivot}.${lineColumn} as line_id`, 'accounts_taxes.*');
  if (links.length === 0) return byLine;
  const rows = new Map<number, Row>(links.map((row) => [Number(row.id), row]));
  const groupIds = [...rows.values()].filter((row) => row.amount_type === 'group').map((row) => Number(row.id));
  const children: Row[] =
    groupIds.length === 0
      ? []
      : await trx('accounts_tax_taxes')
          .join('accounts_taxes', 'accounts_taxes.id', 'accounts_tax_taxes.child_tax_id')
          .whereIn('accounts_tax_taxes.parent_tax_id', groupIds)
          .select('accounts_tax_taxes.parent_tax_id', 'accounts_taxes.*');
  for (const row of children) if (!rows.has(Number(row.id))) rows.set(Number(row.id), row);
  const repartition: Row[] = await trx('accounts_tax_partition_lines')
    .whereIn('tax_id', [...rows.keys()])
    .orderBy('sort')
    .orderBy('id')
    .select('id', 'tax_id', 'document_type', 'repartition_type', 'factor_percent', 'account_id');

  const rules = new Map<number, TaxRule>();
  for (const [id, row] of rows) {
    const own = repartition.filter((line) => Number(line.tax_id) === id);
    const shares = (documentType: string): RepartitionShare[] =>
      own
        .filter((line) => line.document_type === documentType && line.repartition_type === 'tax')
        .map((line) => ({ id: Number(line.id), factor: Number(line.factor_percent) / 100, accountId: line.account_id == null ? null : Number(line.account_id) }));
    const rule = ruleOf(row);
    if (own.length > 0) {
      rule.invoiceShares = shares('invoice');
      rule.refundShares = shares('refund');
    } else {
      const fallback = [{ id: null, factor: 1, accountId: row.account_id == null ? null : Number(row.account_id) }];
      rule.invoiceShares = fallback;
      rule.refundShares = fallback;
    }
    rules.set(id, rule);
  }
  for (const id of groupIds) {
    rules.get(id)!.children = children.filter((row) => Number(row.parent_tax_id) === id).map((row) => rules.get(Number(row.id))!);
  }
  for (const link of links) {
    const lineId = Number(link.line_id);
    byLine.set(lineId, [...(byLine.get(lineId) ?? []), rules.get(Number(link.id))!]);
  }
  return byLine;
}

/** The rounding of a document of `currencyId` in `companyId`: the currency's step and the company's mode. */
export async function roundingOf(trx: Knex.Transaction, companyId: number | null | undefined, currencyId: number): Promise<{ step: number; mode: RoundingMode }> {
  const currency = await trx('currencies').where('id', currencyId).first('rounding', 'decimal_places');
  const company = companyId == null ? undefined : await trx('companies').where('id', companyId).first('tax_calculation_rounding_method');
  return { step: stepOf(currency), mode: company?.tax_calculation_rounding_method === 'round_globally' ? 'round_globally' : 'round_per_line' };
}
