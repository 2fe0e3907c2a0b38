// Issue 31's accounting master data, where the definition-driven suite cannot see the rule:
// customers and vendors are partners of a rank (set on create, never from the body, and the other
// view does not find them), the seeded incoterms, tax groups and categories that refuse a delete
// with 409 instead of the original's 500 or cascade, and the accounts a category falls back from.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STANDARD_INCOTERMS } from '../../../src/seed/accounts.ts';
import { userWith } from '../../helpers/access.ts';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const NOT_FOUND = { message: 'The requested resource was not found.' };

for (const target of databaseTargets()) {
  const test = suite(`accounts master data extras [${target.name}]`);

  test('the eleven incoterms are seeded, names in capitals, with the trashed filter and restore', async () => {
    const { client, token } = await sharedApp(target);
    const listed = await client.get(`${API}/accounts/incoterms?per_page=50&sort=id`, { token });
    assert.is(listed.status, 200, listed.text);
    const seeded = listed.body.data.slice(0, 11).map((i: any) => [i.code, i.name]);
    assert.equal(seeded, STANDARD_INCOTERMS);
    assert.equal(
      seeded.map(([code]: string[]) => code),
      ['EXW', 'FCA', 'FAS', 'FOB', 'CFR', 'CIF', 'CPT', 'CIP', 'DPU', 'DAP', 'DDP'],
    );
    const fob = listed.body.data.find((i: any) => i.code === 'FOB');
    assert.is(fob.name, 'FREE ON BOARD');

    const tooLong = await client.post(`${API}/accounts/incoterms`, { token, body: { code: 'FOBX', name: 'Too long' } });
    assert.is(tooLong.status, 422);
    assert.equal(Object.keys(tooLong.body.errors), ['code']);
    const created = await client.post(`${API}/accounts/incoterms`, { token, body: { code: 'XYZ', name: 'TEST TERM' } });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Incoterm created successfully.');
    const id = created.body.data.id;
    assert.equal((await client.delete(`${API}/accounts/incoterms/${id}`, { token })).body, { message: 'Incoterm deleted successfully.' });
    assert.equal((await client.get(`${API}/accounts/incoterms/${id}`, { token })).body, NOT_FOUND);
    const trashed = await client.get(`${API}/accounts/incoterms?filter[trashed]=only`, { token });
    assert.ok(trashed.body.data.some((i: any) => i.id === id));
    const restored = await client.post(`${API}/accounts/incoterms/${id}/restore`, { token });
    assert.is(restored.body.message, 'Incoterm restored successfully.');
    assert.is(restored.body.data.code, 'XYZ');
    assert.equal((await client.delete(`${API}/accounts/incoterms/${id}/force`, { token })).body, { message: 'Incoterm permanently deleted.' });
  });

  test('a customer is created with customer_rank 1 whatever the body says; a vendor with supplier_rank 1', async () => {
    const { client, token, knex } = await sharedApp(target);
    const customer = await client.post(`${API}/accounts/customers`, {
      token,
      body: { account_type: 'company', name: 'Rank probe customer', customer_rank: 9, supplier_rank: 4, autopost_bills: true, comment: 'Pays late' },
    });
    assert.is(customer.status, 201, customer.text);
    assert.is(customer.body.message, 'Customer created successfully.');
    assert.is(customer.body.data.customer_rank, 1);
    assert.is(customer.body.data.supplier_rank, null);
    assert.is(customer.body.data.autopost_bills, true);
    assert.is(customer.body.data.comment, 'Pays late');
    const stored = await knex('partners_partners').where('id', customer.body.data.id).first('customer_rank', 'supplier_rank');
    assert.equal([Number(stored.customer_rank), stored.supplier_rank], [1, null]);

    const vendor = await client.post(`${API}/accounts/vendors`, { token, body: { account_type: 'company', name: 'Rank probe vendor', customer_rank: 3 } });
    assert.is(vendor.status, 201, vendor.text);
    assert.is(vendor.body.message, 'Vendor created successfully.');
    assert.equal([vendor.body.data.supplier_rank, vendor.body.data.customer_rank], [1, null]);
  });

  test('customers and vendors find only partners of their rank: 404 for show, update, delete, restore and force', async () => {
    const { client, token } = await sharedApp(target);
    const vendor = (await client.post(`${API}/accounts/vendors`, { token, body: { account_type: 'individual', name: 'Only a vendor' } })).body.data;
    const customer = (await client.post(`${API}/accounts/customers`, { token, body: { account_type: 'individual', name: 'Only a customer' } })).body.data;
    const partner = (await client.post(`${API}/partners/partners`, { token, body: { account_type: 'individual', name: 'Neither' } })).body.data;

    for (const [view, foreign] of [
      ['customers', vendor.id],
      ['customers', partner.id],
      ['vendors', customer.id],
      ['vendors', partner.id],
    ] as const) {
      const at = `${API}/accounts/${view}/${foreign}`;
      for (const [method, path] of [
        ['GET', at],
        ['PATCH', at],
        ['DELETE', at],
        ['POST', `${at}/restore`],
        ['DELETE', `${at}/force`],
      ] as const) {
        const response = await client.send(method, path, { token, body: method === 'PATCH' ? { name: 'Renamed' } : undefined });
        assert.is(response.status, 404, `${method} ${path}`);
        assert.equal(response.body, NOT_FOUND);
      }
      const listed = await client.get(`${API}/accounts/${view}?filter[id]=${foreign}`, { token });
      assert.equal(listed.body.data, [], `${view} does not list partner ${foreign}`);
    }
    assert.is((await client.get(`${API}/partners/partners/${vendor.id}`, { token })).body.data.name, 'Only a vendor', 'the rows are still partners');
    assert.is((await client.get(`${API}/partners/partners/${partner.id}`, { token })).body.data.name, 'Neither', 'untouched by the refused calls');
  });

  test('a partner of both ranks is a customer and a vendor; a soft-deleted customer can be restored', async () => {
    const { client, token, knex } = await sharedApp(target);
    const created = (await client.post(`${API}/accounts/customers`, { token, body: { account_type: 'company', name: 'Both ranks' } })).body.data;
    await knex('partners_partners').where('id', created.id).update({ supplier_rank: 2 });
    const asVendor = await client.get(`${API}/accounts/vendors/${created.id}`, { token });
    assert.is(asVendor.status, 200);
    assert.equal([asVendor.body.data.customer_rank, asVendor.body.data.supplier_rank], [1, 2]);
    const updated = await client.send('PATCH', `${API}/accounts/vendors/${created.id}`, { token, body: { peppol_eas: '0088' } });
    assert.is(updated.body.message, 'Vendor updated successfully.');
    assert.is((await client.get(`${API}/accounts/customers/${created.id}`, { token })).body.data.peppol_eas, '0088');

    assert.equal((await client.delete(`${API}/accounts/customers/${created.id}`, { token })).body, { message: 'Customer deleted successfully.' });
    assert.is((await client.get(`${API}/accounts/customers/${created.id}`, { token })).status, 404, 'trashed');
    assert.ok((await knex('partners_partners').where('id', created.id).first('deleted_at')).deleted_at, 'kept, soft-deleted');
    const restored = await client.post(`${API}/accounts/customers/${created.id}/restore`, { token });
    assert.is(restored.body.message, 'Customer restored successfully.');
    assert.equal((await client.delete(`${API}/accounts/vendors/${created.id}/force`, { token })).body, { message: 'Vendor permanently deleted.' });
    assert.is(await knex('partners_partners').where('id', created.id).first('id'), undefined);
  });

  test("a customer's accounting properties must exist, come back camelCase when included, and need *_account_partner", async () => {
    const app = await sharedApp(target);
    const { client, token, knex } = app;
    const receivable = await knex('accounts_accounts').where('code', '121000').first('id');
    const term = await knex('accounts_payment_terms').orderBy('id').first('id');
    const bad = await client.post(`${API}/accounts/customers`, {
      token,
      body: { account_type: 'company', name: 'Bad properties', property_account_receivable_id: 99999999, property_payment_term_id: 99999999, autopost_bills: 'maybe' },
    });
    assert.is(bad.status, 422);
    assert.equal(Object.keys(bad.body.errors).sort(), ['autopost_bills', 'property_account_receivable_id', 'property_payment_term_id']);
    const created = await client.post(`${API}/accounts/customers`, {
      token,
      body: { account_type: 'company', name: 'With properties', property_account_receivable_id: receivable.id, property_payment_term_id: term.id },
    });
    assert.is(created.status, 201, created.text);
    const shown = await client.get(`${API}/accounts/customers/${created.body.data.id}?include=propertyAccountReceivable,propertyPaymentTerm`, { token });
    assert.is(shown.body.data.propertyAccountReceivable.code, '121000');
    assert.is(shown.body.data.propertyPaymentTerm.id, Number(term.id));

    const reader = await userWith(app, { only: ['view_any_account_partner', 'view_account_partner'] });
    assert.is((await client.get(`${API}/accounts/vendors`, { token: reader.token })).status, 200, 'one permission pair for both views');
    assert.is((await client.get(`${API}/accounts/customers/${created.body.data.id}`, { token: reader.token })).status, 200);
    const refused = await client.post(`${API}/accounts/customers`, { token: reader.token, body: { account_type: 'company', name: 'Not allowed' } });
    assert.is(refused.status, 403);
    const customerOnly = await userWith(app, { only: ['view_any_account_customer'] });
    assert.is((await client.get(`${API}/accounts/customers`, { token: customerOnly.token })).status, 403, 'only *_account_partner opens the customers');
  });

  test('a tax group goes last, gets the default company, and cannot be deleted while a tax uses it (409)', async () => {
    const { client, token, knex } = await sharedApp(target);
    const highest = Number((await knex('accounts_tax_groups').max({ sort: 'sort' }).first())!.sort);
    const group = await client.post(`${API}/accounts/tax-groups`, { token, body: { name: 'VAT 7%', preceding_subtotal: 'Untaxed', sort: 1 } });
    assert.is(group.status, 201, group.text);
    assert.is(group.body.message, 'Tax group created successfully.');
    assert.is(group.body.data.sort, highest + 1, 'sort is not taken from the body');
    const company = await knex('companies').orderBy('id').first('id');
    assert.is(group.body.data.company_id, Number(company.id));

    const tax = await client.post(`${API}/accounts/taxes`, {
      token,
      body: { name: '7%', type_tax_use: 'sale', amount_type: 'percent', amount: 7, tax_group_id: group.body.data.id },
    });
    assert.is(tax.status, 201, tax.text);
    assert.is(tax.body.data.tax_group_id, group.body.data.id);
    const withGroup = await client.get(`${API}/accounts/taxes/${tax.body.data.id}?include=taxGroup`, { token });
    assert.is(withGroup.body.data.tax_group.name, 'VAT 7%');
    const unknownGroup = await client.post(`${API}/accounts/taxes`, {
      token,
      body: { name: 'x', type_tax_use: 'sale', amount_type: 'percent', amount: 1, tax_group_id: 99999999 },
    });
    assert.equal(Object.keys(unknownGroup.body.errors), ['tax_group_id']);

    const refused = await client.delete(`${API}/accounts/tax-groups/${group.body.data.id}`, { token });
    assert.is(refused.status, 409, refused.text);
    assert.equal(refused.body, { message: 'The Tax group cannot be deleted because it still has Tax records (soft-deleted ones included). Remove them first.' });
    assert.ok(await knex('accounts_tax_groups').where('id', group.body.data.id).first('id'), 'still stored');
    await client.delete(`${API}/accounts/taxes/${tax.body.data.id}`, { token });
    assert.equal((await client.delete(`${API}/accounts/tax-groups/${group.body.data.id}`, { token })).body, { message: 'Tax group deleted successfully.' });
  });

  test('a cash rounding keeps its step as a 4-place decimal and refuses a negative one', async () => {
    const { client, token } = await sharedApp(target);
    const bad = await client.post(`${API}/accounts/cash-roundings`, { token, body: { name: 'Bad', strategy: 'nearest', rounding_method: 'half-up', rounding: -0.05 } });
    assert.is(bad.status, 422);
    assert.equal(Object.keys(bad.body.errors).sort(), ['rounding', 'rounding_method', 'strategy']);
    const created = await client.post(`${API}/accounts/cash-roundings`, { token, body: { name: '0.05', strategy: 'biggest_tax', rounding_method: 'HALF-UP', rounding: 0.05 } });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Cash rounding created successfully.');
    assert.is(created.body.data.rounding, '0.0500');
  });

  test('a category with subcategories or products is refused (409), not cascaded; a deleted account empties its properties', async () => {
    const { client, token, knex } = await sharedApp(target);
    const account = (await client.post(`${API}/accounts/accounts`, { token, body: { code: '700900', name: 'Down payments', account_type: 'income' } })).body.data;
    const root = await client.post(`${API}/accounts/categories`, { token, body: { name: 'Accounting root', property_account_down_payment_id: account.id } });
    assert.is(root.status, 201, root.text);
    assert.is(root.body.data.full_name, 'Accounting root');
    assert.is(root.body.data.property_account_down_payment_id, account.id);
    const child = (await client.post(`${API}/accounts/categories`, { token, body: { name: 'Leaf', parent_id: root.body.data.id } })).body.data;
    assert.is(child.full_name, 'Accounting root / Leaf');

    const withChild = await client.delete(`${API}/accounts/categories/${root.body.data.id}`, { token });
    assert.is(withChild.status, 409, withChild.text);
    assert.match(withChild.body.message, /still has Category records/);
    const [productId] = await knex('products_products').insert({ name: 'Categorised', category_id: child.id });
    const withProduct = await client.delete(`${API}/accounts/categories/${child.id}`, { token });
    assert.is(withProduct.status, 409, withProduct.text);
    assert.match(withProduct.body.message, /still has Product records/);
    assert.ok(await knex('products_products').where('id', productId).first('id'), 'the product is kept');

    const shown = await client.get(`${API}/accounts/categories/${root.body.data.id}?include=propertyAccountDownPayment`, { token });
    assert.is(shown.body.data.propertyAccountDownPayment.code, '700900');
    assert.is((await client.delete(`${API}/accounts/accounts/${account.id}`, { token })).status, 200);
    assert.is((await client.get(`${API}/accounts/categories/${root.body.data.id}`, { token })).body.data.property_account_down_payment_id, null);

    await knex('products_products').where('id', productId).delete();
    assert.is((await client.delete(`${API}/accounts/categories/${child.id}`, { token })).status, 200);
    assert.equal((await client.delete(`${API}/accounts/categories/${root.body.data.id}`, { token })).body, { message: 'Category deleted successfully.' });
  });

  test.run();
}
