// The sales module's standard data (public price list, team, tags, UTM mediums and sources), price
// list rules shown through their price list, unique names, and a seed that never adds twice.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { seedSales, STANDARD_UTM_MEDIUMS, STANDARD_UTM_SOURCES } from '../../../src/seed/sales.ts';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`sales master data [${target.name}]`);

  test('"Public Pricelist" in USD, active, without rules', async () => {
    const { client, token } = await sharedApp(target);
    const listed = await client.get(`${API}/sales/price-lists?filter[name]=public&include=rules,currency,company`, { token });
    assert.is(listed.status, 200, listed.text);
    const [priceList] = listed.body.data;
    assert.is(priceList.id, 1);
    assert.is(priceList.name, 'Public Pricelist');
    assert.is(priceList.active, true);
    assert.is(priceList.currency.name, 'USD');
    assert.is(priceList.company.name, 'My Company');
    assert.equal(priceList.rules, []);
  });

  test("a price list's rules appear under `rules`, with their decimals", async () => {
    const { client, token, knex } = await sharedApp(target);
    const created = await client.post(`${API}/sales/price-lists`, { token, body: { name: 'Wholesale (hand test)', currency_id: 1 } });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Price list created successfully.');
    assert.is(created.body.data.active, true);
    const id = created.body.data.id;
    await knex('sales_price_list_rules').insert({ price_list_id: id, compute_price: 'percentage', percent_price: 10, min_quantity: 5 });
    await knex('sales_price_list_rules').insert({ price_list_id: id, compute_price: 'fixed', fixed_price: 9.5 });
    const shown = await client.get(`${API}/sales/price-lists/${id}?include=rules`, { token });
    const rules = shown.body.data.rules.map((rule: any) => [rule.compute_price, rule.min_quantity, rule.percent_price, rule.fixed_price, rule.base, rule.price_list_id]);
    assert.equal(rules, [
      ['percentage', '5.0000', '10.0000', null, 'list_price', id],
      ['fixed', '0.0000', null, '9.5000', 'list_price', id],
    ]);
    assert.is((await client.get(`${API}/sales/price-lists/${id}/rules`, { token })).status, 404, 'rules have no routes of their own');
    const deleted = await client.delete(`${API}/sales/price-lists/${id}`, { token });
    assert.equal(deleted.body, { message: 'Price list deleted successfully.' });
    assert.is(Number((await knex('sales_price_list_rules').where('price_list_id', id).count({ n: '*' }).first())!.n), 0, 'the rules go with it');
  });

  test('the "Sales" team, led by the administrator', async () => {
    const { client, token } = await sharedApp(target);
    const listed = await client.get(`${API}/sales/teams?filter[name]=sales&include=user,company`, { token });
    const team = listed.body.data.find((t: any) => t.name === 'Sales');
    assert.ok(team, 'the Sales team');
    assert.is(team.user.email, 'admin@example.com');
    assert.is(team.company.name, 'My Company');
    assert.is(team.is_active, true);
    assert.is(team.invoiced_target, '0.0000');
  });

  test('UTM mediums and sources, and a campaign and order tags to point at', async () => {
    const { client, token } = await sharedApp(target);
    const mediums = await client.get(`${API}/sales/utm-mediums?filter[id]=1,2,3,4,5&sort=id`, { token });
    assert.equal(
      mediums.body.data.map((m: any) => m.name),
      STANDARD_UTM_MEDIUMS,
    );
    const sources = await client.get(`${API}/sales/utm-sources?filter[id]=1,2,3,4,5&sort=id`, { token });
    assert.equal(
      sources.body.data.map((s: any) => s.name),
      STANDARD_UTM_SOURCES,
    );
    assert.is((await client.get(`${API}/sales/utm-campaigns/1`, { token })).status, 200);
    assert.is((await client.get(`${API}/sales/tags/1`, { token })).body.data.name, 'Product');
  });

  test('tag, medium and source names are unique (422)', async () => {
    const { client, token } = await sharedApp(target);
    for (const [path, name] of [
      ['tags', 'Product'],
      ['utm-mediums', 'Email'],
      ['utm-sources', 'Newsletter'],
    ]) {
      const response = await client.post(`${API}/sales/${path}`, { token, body: { name } });
      assert.is(response.status, 422, `${path}: ${response.text}`);
      assert.equal(response.body.errors, { name: ['The name has already been taken.'] });
    }
    const tag = await client.post(`${API}/sales/tags`, { token, body: { name: 'Urgent (hand test)', color: '#ff0000' } });
    assert.is(tag.body.message, 'Tag created successfully.');
  });

  test('seeding again adds nothing', async () => {
    const { knex } = await sharedApp(target);
    const tables = ['sales_price_lists', 'sales_teams', 'sales_tags', 'utm_mediums', 'utm_sources', 'utm_campaigns'];
    const count = async (table: string) => Number((await knex(table).count({ n: '*' }).first())!.n);
    const before = await Promise.all(tables.map(count));
    assert.is(await seedSales(knex, null), 0);
    assert.equal(await Promise.all(tables.map(count)), before);
  });

  test.run();
}
