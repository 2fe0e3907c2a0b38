// The accounts module's standard data (chart of accounts, journals, default taxes) and the rules
// around it: unique account codes, accounts in use that cannot be deleted, product accounts that
// must exist, and a seed that never adds twice.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { seedAccounts, STANDARD_ACCOUNTS, STANDARD_JOURNALS } from '../../../src/seed/accounts.ts';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`accounts master data [${target.name}]`);

  test('the chart of accounts of My Company, listed by code', async () => {
    const { client, token } = await sharedApp(target);
    const listed = await client.get(`${API}/accounts/accounts?per_page=100&filter[id]=${STANDARD_ACCOUNTS.map((_, i) => i + 1).join(',')}&include=company`, { token });
    assert.is(listed.status, 200, listed.text);
    assert.equal(
      listed.body.data.map((a: any) => a.code),
      STANDARD_ACCOUNTS.map(([code]) => code).sort(),
      'the default sort is the code',
    );
    const receivable = listed.body.data.find((a: any) => a.code === '121000');
    assert.is(receivable.name, 'Account Receivable');
    assert.is(receivable.account_type, 'asset_receivable');
    assert.is(receivable.reconcile, true);
    assert.is(receivable.company.name, 'My Company');
    const income = await client.get(`${API}/accounts/accounts?filter[account_type]=income&filter[code]=400000`, { token });
    assert.equal(
      income.body.data.map((a: any) => a.name),
      ['Product Sales'],
    );
  });

  test('the five journals, each with its default account', async () => {
    const { client, token } = await sharedApp(target);
    const listed = await client.get(`${API}/accounts/journals?sort=sort&include=defaultAccount`, { token });
    assert.is(listed.status, 200);
    assert.equal(
      listed.body.data.map((j: any) => [j.name, j.code, j.type, j.default_account?.code ?? null]),
      STANDARD_JOURNALS.map(([name, code, type, account]) => [name, code, type, account]),
    );
    const bank = await client.get(`${API}/accounts/journals?filter[type]=bank`, { token });
    assert.equal(
      bank.body.data.map((j: any) => j.code),
      ['BANK'],
    );
    assert.is((await client.post(`${API}/accounts/journals`, { token, body: { name: 'x' } })).status, 405, 'journals are read-only');
  });

  test('the default 15 % taxes on sales and on purchases', async () => {
    const { client, token } = await sharedApp(target);
    const sale = await client.get(`${API}/accounts/taxes?filter[type_tax_use]=sale&filter[id]=1,2`, { token });
    assert.is(sale.body.data.length, 1);
    const tax = sale.body.data[0];
    assert.equal(
      { name: tax.name, amount_type: tax.amount_type, amount: tax.amount, price_include: tax.price_include, is_active: tax.is_active },
      { name: '15%', amount_type: 'percent', amount: '15.0000', price_include: false, is_active: true },
    );
    assert.type(tax.tax_group_id, 'number');
    const purchase = await client.get(`${API}/accounts/taxes?filter[type_tax_use]=purchase&filter[id]=1,2`, { token });
    assert.equal(
      purchase.body.data.map((t: any) => [t.name, t.amount]),
      [['15%', '15.0000']],
    );
  });

  test('a new tax goes last unless it says its sort; its amount is a decimal string', async () => {
    const { client, token, knex } = await sharedApp(target);
    const highest = Number((await knex('accounts_taxes').max({ sort: 'sort' }).first())!.sort);
    const created = await client.post(`${API}/accounts/taxes`, { token, body: { name: 'Eco fee', type_tax_use: 'sale', amount_type: 'fixed', amount: 0.5 } });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Tax created successfully.');
    assert.is(created.body.data.sort, highest + 1);
    assert.is(created.body.data.amount, '0.5000');
    assert.is(created.body.data.price_include, false, 'the default');
    const bad = await client.post(`${API}/accounts/taxes`, { token, body: { name: 'Bad', type_tax_use: 'both', amount_type: 'code', amount: 1 } });
    assert.equal(Object.keys(bad.body.errors).sort(), ['amount_type', 'type_tax_use']);
  });

  test('account codes are unique (422), and an account a journal uses cannot be deleted (409)', async () => {
    const { client, token } = await sharedApp(target);
    const duplicate = await client.post(`${API}/accounts/accounts`, { token, body: { code: '400000', name: 'Sales again', account_type: 'income' } });
    assert.is(duplicate.status, 422);
    assert.equal(duplicate.body.errors, { code: ['The code has already been taken.'] });
    const sales = (await client.get(`${API}/accounts/accounts?filter[code]=400000`, { token })).body.data[0];
    const refused = await client.delete(`${API}/accounts/accounts/${sales.id}`, { token });
    assert.is(refused.status, 409, refused.text);
    assert.is((await client.get(`${API}/accounts/accounts/${sales.id}`, { token })).status, 200, 'still there');
    const spare = await client.post(`${API}/accounts/accounts`, { token, body: { code: '999001', name: 'Spare', account_type: 'expense' } });
    assert.is(spare.status, 201, spare.text);
    assert.equal(spare.body.data.reconcile, false);
    assert.equal((await client.delete(`${API}/accounts/accounts/${spare.body.data.id}`, { token })).body, { message: 'Account deleted successfully.' });
  });

  test("a product's income and expense accounts must exist (foreign keys)", async () => {
    const { knex } = await sharedApp(target);
    const [categoryId] = await knex('products_categories').insert({ name: 'FK probe category' });
    const account = await knex('accounts_accounts').where('code', '400000').first('id');
    const [id] = await knex('products_products').insert({ name: 'FK probe', category_id: categoryId, property_account_income_id: account.id });
    let refused = false;
    try {
      await knex('products_products').where('id', id).update({ property_account_expense_id: 99999999 });
    } catch {
      refused = true;
    }
    assert.ok(refused, 'an unknown expense account is refused by the database');
    await knex('products_products').where('id', id).delete();
    await knex('products_categories').where('id', categoryId).delete();
  });

  test('a tax or an account a product still uses cannot be deleted (409 on both databases)', async () => {
    const { client, token, knex } = await sharedApp(target);
    const tax = (await client.post(`${API}/accounts/taxes`, { token, body: { name: 'In use', type_tax_use: 'sale', amount_type: 'percent', amount: 5 } })).body.data;
    const account = (await client.post(`${API}/accounts/accounts`, { token, body: { code: '700100', name: 'In use', account_type: 'income' } })).body.data;
    const [categoryId] = await knex('products_categories').insert({ name: 'In-use probe category' });
    const [productId] = await knex('products_products').insert({ name: 'In-use probe', category_id: categoryId, property_account_income_id: account.id });
    await knex('products_product_taxes').insert({ product_id: productId, tax_id: tax.id, type: 'sale' });
    for (const path of [`taxes/${tax.id}`, `accounts/${account.id}`]) {
      const refused = await client.delete(`${API}/accounts/${path}`, { token });
      assert.is(refused.status, 409, `${path}: ${refused.text}`);
      assert.match(refused.body.message, /cannot be deleted because other records still refer to it/);
    }
    await knex('products_products').where('id', productId).delete();
    await knex('products_categories').where('id', categoryId).delete();
    assert.is((await client.delete(`${API}/accounts/taxes/${tax.id}`, { token })).status, 200, 'free once the product is gone');
    assert.is((await client.delete(`${API}/accounts/accounts/${account.id}`, { token })).status, 200);
  });

  test('seeding again adds nothing', async () => {
    const { knex } = await sharedApp(target);
    const count = async (table: string) => Number((await knex(table).count({ n: '*' }).first())!.n);
    const tables = ['accounts_accounts', 'accounts_journals', 'accounts_tax_groups', 'accounts_taxes', 'accounts_payment_terms', 'accounts_payment_due_terms'];
    const before = await Promise.all(tables.map(count));
    assert.is(await seedAccounts(knex, null), 0);
    assert.equal(await Promise.all(tables.map(count)), before);
  });

  test.run();
}
