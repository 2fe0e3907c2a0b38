// beforeCreate/beforeUpdate of a sales order: defaults from the context, the price list's
// currency, the order number, and the rule that lines without a price need a price list.
import { randomBytes } from 'node:crypto';
import { ActionRefusedError, ValidationError, type Hook } from '../../../engine/index.ts';
import { nextDocumentName } from '../support/next-document-name.ts';

export const ORDER_SEQUENCE = { code: 'sales.order', prefix: 'S', padding: 5 };

export const prepareOrder: Hook = async ({ trx, values, record, user }) => {
  const creating = record === undefined;
  // A confirmed order is locked when its salesperson says so; unlock it to change it.
  if (record?.locked && Number(record.locked)) throw new ActionRefusedError('A locked order cannot be changed. Unlock it first (toggle-lock).');
  const priceListId = (values.price_list_id ?? record?.price_list_id ?? null) as number | null;
  requirePricesWithoutPriceList(values.lines as Array<{ values: Record<string, unknown>; id?: number }> | undefined, priceListId);

  if (priceListId !== null && values.price_list_id !== undefined) {
    const priceList = await trx('sales_price_lists').where('id', priceListId).first('currency_id');
    values.currency_id = priceList.currency_id; // the price list decides the currency
  }
  if (values.partner_id !== undefined) {
    values.partner_invoice_id = values.partner_id;
    values.partner_shipping_id = values.partner_id;
  }
  if (!creating) return;

  const company = values.company_id
    ? await trx('companies').where('id', values.company_id).first('id', 'currency_id')
    : await trx('companies').orderBy('id').first('id', 'currency_id');
  values.company_id = company.id;
  values.currency_id ??= company.currency_id;
  values.user_id ??= user.id;
  values.state = 'draft';
  values.invoice_status = 'no';
  values.access_token = randomBytes(16).toString('hex');
  const warehouse = await trx('inventories_warehouses').where('company_id', company.id).whereNull('deleted_at').orderBy('id').first('id');
  values.warehouse_id ??= warehouse?.id ?? null;
  const team = await trx('sales_teams').where('is_active', true).orderBy('sort').orderBy('id').first('id');
  values.team_id ??= team?.id ?? null;
  values.name = await nextDocumentName(trx, { ...ORDER_SEQUENCE, companyId: company.id });
};

function requirePricesWithoutPriceList(lines: Array<{ values: Record<string, unknown>; id?: number }> | undefined, priceListId: number | null) {
  if (!lines || priceListId !== null) return;
  const errors: Record<string, string[]> = {};
  lines.forEach((line, index) => {
    if (line.id === undefined && (line.values.price_unit === undefined || line.values.price_unit === null)) {
      errors[`lines.${index}.price_unit`] = [`The lines.${index}.price unit field is required when price list id is not present.`];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}
