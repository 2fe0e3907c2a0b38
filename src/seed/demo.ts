// `npm run erp -- seed --demo`: a small, realistic data set for trying the API: customers and a
// vendor with addresses, products, sales orders and receipts. It goes through the API's own
// routes (in process), so names, prices and totals come from the same rules as for a client.
// Idempotent: nothing is added when the demo customer already exists.
import type { Knex } from 'knex';
import { issueToken } from '../auth/tokens.ts';
import type { Config } from '../app/config.ts';
import { API_PREFIX, buildServer } from '../app/build-app.ts';
import { today } from '../../engine/index.ts';

const DEMO_CUSTOMER = 'Deco Addict';

export async function seedDemo(knex: Knex, config: Config, jwtSecret: string): Promise<string[]> {
  if (await knex('partners_partners').where('name', DEMO_CUSTOMER).first('id')) return [];
  const admin = await knex('users').whereRaw('LOWER(email) = ?', [config.adminEmail.toLowerCase()]).first('id');
  if (!admin) throw new Error(`The administrator ${config.adminEmail} does not exist: run the seed first.`);
  const app = await buildServer({ config: { ...config, logLevel: 'silent', rateLimitMax: 1_000_000 }, knex, jwtSecret });
  const token = issueToken(app, Number(admin.id));
  const created: string[] = [];
  const post = async (path: string, payload: unknown) => {
    const response = await app.inject({ method: 'POST', url: `${API_PREFIX}${path}`, headers: { authorization: `Bearer ${token}` }, payload: payload as object });
    const body = response.json();
    if (response.statusCode !== 201) throw new Error(`Demo data: POST ${path} answered ${response.statusCode}: ${body.message}`);
    return body.data as Record<string, any>;
  };
  try {
    const us = await knex('countries').where('code', 'US').first('id');
    const category = (await knex('products_categories').where('name', 'Saleable').orderBy('id').first('id')) ?? (await knex('products_categories').orderBy('id').first('id'));
    const paymentTerm = await knex('accounts_payment_terms').whereNull('deleted_at').orderBy('id').first('id');
    const saleTax = await knex('accounts_taxes').where('type_tax_use', 'sale').orderBy('id').first('id');

    const customers: Array<Record<string, any>> = [];
    for (const [name, city] of [
      [DEMO_CUSTOMER, 'Pleasant Hill'],
      ['Gemini Furniture', 'Fairfield'],
      ['Ready Mat', 'Tracy'],
    ] as const) {
      const customer = await post('/partners/partners', {
        account_type: 'company',
        name,
        city,
        country_id: us?.id ?? null,
        email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
      });
      await post(`/partners/partners/${customer.id}/addresses`, { sub_type: 'invoice', name: `${name} (billing)`, street1: '1 Market Street', city, country_id: us?.id ?? null });
      customers.push(customer);
    }
    const vendor = await post('/partners/partners', { account_type: 'company', name: 'Wood Corner', city: 'Oakland', country_id: us?.id ?? null });
    created.push(`${customers.length + 1} partners with addresses`);

    const products: Array<Record<string, any>> = [];
    for (const [name, price, cost] of [
      ['Office Chair', 120, 70],
      ['Large Desk', 450, 260],
      ['Desk Lamp', 35, 14],
      ['Storage Box', 15.5, 6],
      ['Conference Table', 890, 540],
    ] as const) {
      products.push(await post('/inventories/products', { type: 'goods', name, price, cost, category_id: category.id, is_storable: true }));
    }
    created.push(`${products.length} products`);

    for (const [customer, lines] of [
      [
        customers[0],
        [
          [0, 4],
          [2, 4],
        ],
      ],
      [
        customers[1],
        [
          [1, 1],
          [4, 1],
        ],
      ],
      [customers[2], [[3, 20]]],
    ] as const) {
      await post('/sales/orders', {
        partner_id: customer!.id,
        payment_term_id: paymentTerm.id,
        date_order: today(),
        lines: lines.map(([product, quantity]) => ({
          product_id: products[product]!.id,
          product_qty: quantity,
          price_unit: products[product]!.price,
          taxes: saleTax ? [saleTax.id] : [],
        })),
      });
    }
    created.push('3 sales orders');
    for (const lines of [
      [
        [0, 10],
        [2, 25],
      ],
      [[1, 3]],
    ]) {
      await post('/inventories/receipts', {
        partner_id: vendor.id,
        origin: 'Demo purchase',
        moves: lines.map(([product, quantity]) => ({ product_id: products[product!]!.id, product_uom_qty: quantity })),
      });
    }
    created.push('2 receipts');
  } finally {
    await app.close();
  }
  return created;
}
