// Before the product lines of a document are written (all of them at once): what each takes from
// its document and product — label, account, currency, partner, dates — and its place in the
// document. The documents, products and journals are read once for all the lines.
import { ValidationError, type BatchHook } from '../../../../engine/index.ts';
import { kindOf } from './kinds.ts';

export const prepareInvoiceLines: BatchHook = async (contexts) => {
  if (contexts.length === 0) return;
  const { trx } = contexts[0]!;
  const moveIds = [...new Set(contexts.map(({ values, record }) => Number(values.move_id ?? record?.move_id)))];
  const moves = new Map((await trx('accounts_account_moves').whereIn('id', moveIds)).map((row) => [Number(row.id), row]));
  const journals = new Map(
    (
      await trx('accounts_journals')
        .whereIn(
          'id',
          [...moves.values()].map((move) => move.journal_id),
        )
        .select('id', 'default_account_id')
    ).map((row) => [Number(row.id), row]),
  );
  const productIds = [...new Set(contexts.map(({ values, record }) => Number(values.product_id ?? record?.product_id)))];
  const products = new Map(
    (
      await trx('products_products')
        .whereIn('id', productIds)
        .select('id', 'name', 'description_sale', 'description_purchase', 'is_configurable', 'uom_id', 'category_id', 'property_account_income_id', 'property_account_expense_id')
    ).map((row) => [Number(row.id), row]),
  );
  // A product without its own account takes its category's, or the nearest ancestor's.
  const categories = new Map(
    (
      await trx('products_categories')
        .whereIn('id', [...new Set([...products.values()].map((product) => product.category_id).filter((id) => id != null))])
        .select('id', 'parent_path', 'property_account_income_id', 'property_account_expense_id')
    ).map((row) => [Number(row.id), row]),
  );
  const ancestorIds = [...categories.values()].flatMap((category) =>
    String(category.parent_path ?? '')
      .split('/')
      .filter(Boolean)
      .map(Number),
  );
  const ancestors = new Map(
    (ancestorIds.length === 0
      ? []
      : await trx('products_categories')
          .whereIn('id', [...new Set(ancestorIds)])
          .select('id', 'property_account_income_id', 'property_account_expense_id')
    ).map((row) => [Number(row.id), row]),
  );
  const categoryAccount = (categoryId: unknown, column: string): number | null => {
    const category = categories.get(Number(categoryId));
    if (!category) return null;
    if (category[column]) return category[column];
    const path = String(category.parent_path ?? '')
      .split('/')
      .filter(Boolean)
      .map(Number)
      .reverse();
    for (const id of path) if (ancestors.get(id)?.[column]) return ancestors.get(id)![column];
    return null;
  };
  const fiscalPositionIds = [...new Set([...moves.values()].map((move) => move.fiscal_position_id).filter((id) => id != null))];
  const accountMaps = fiscalPositionIds.length === 0 ? [] : await trx('accounts_fiscal_position_accounts').whereIn('fiscal_position_id', fiscalPositionIds);

  for (const { values, record, index } of contexts) {
    const move = moves.get(Number(values.move_id ?? record?.move_id))!;
    const kind = kindOf(move.move_type);
    if (values.product_id !== undefined) {
      const product = products.get(Number(values.product_id))!;
      if (Number(product.is_configurable)) {
        const documents = kind.journalType === 'sale' ? 'invoices' : 'bills';
        throw new ValidationError(
          { product_id: [`The product '${product.name}' is configurable and cannot be used in ${documents}. Please select a product variant instead.`] },
          index,
        );
      }
      const description = kind.journalType === 'sale' ? product.description_sale : product.description_purchase;
      // A label and account given by a system write (a reversal copies the original's) stay.
      values.name ??= description ? `${product.name}\n${description}` : product.name;
      const account =
        product[kind.productAccount] ?? categoryAccount(product.category_id, kind.productAccount) ?? journals.get(Number(move.journal_id))?.default_account_id ?? null;
      const mapped = accountMaps.find((row) => row.fiscal_position_id === move.fiscal_position_id && Number(row.account_source_id) === Number(account));
      values.account_id ??= mapped?.account_destination_id ?? account;
    }
    values.discount ??= record ? undefined : 0;
    Object.assign(values, {
      journal_id: move.journal_id,
      company_id: move.company_id,
      currency_id: move.currency_id,
      partner_id: move.commercial_partner_id ?? move.partner_id,
      date: move.date,
      invoice_date: move.invoice_date,
      parent_state: move.state,
      move_name: move.name,
    });
  }
};
