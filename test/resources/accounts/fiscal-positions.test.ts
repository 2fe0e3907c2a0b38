// Fiscal positions carry their tax and account mappings: created with the position, updated by
// id, added without one, removed when left out; absent keys leave them alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`fiscal positions [${target.name}]`);

  test('mappings are created, upserted by id and removed when left out, in one request', async () => {
    const { client, token, knex } = await sharedApp(target);
    const taxes = (await knex('accounts_taxes').orderBy('id').limit(2).pluck('id')).map(Number);
    const accounts = (await knex('accounts_accounts').orderBy('id').limit(3).pluck('id')).map(Number);
    const company = (await knex('companies').orderBy('id').first('id')).id;
    assert.ok(taxes.length === 2 && accounts.length === 3, 'the seed has taxes and accounts');

    const created = await client.post(`${API}/accounts/fiscal-positions?include=taxes,accounts`, {
      token,
      body: {
        name: `Export ${target.name}`,
        company_id: company,
        vat_required: true,
        taxes: [{ tax_source_id: taxes[0], tax_destination_id: taxes[1] }, { tax_source_id: taxes[1] }],
        accounts: [{ account_source_id: accounts[0], account_destination_id: accounts[1] }],
      },
    });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Fiscal position created successfully.');
    const position = created.body.data;
    assert.equal(
      position.taxes.map((t: any) => [t.tax_source_id, t.tax_destination_id]),
      [
        [taxes[0], taxes[1]],
        [taxes[1], null],
      ],
    );
    assert.equal(
      position.accounts.map((a: any) => [a.account_source_id, a.account_destination_id]),
      [[accounts[0], accounts[1]]],
    );

    const [kept] = position.taxes;
    const updated = await client.put(`${API}/accounts/fiscal-positions/${position.id}?include=taxes,accounts`, {
      token,
      body: { taxes: [{ id: kept.id, tax_source_id: taxes[1], tax_destination_id: null }], accounts: [{ account_source_id: accounts[2], account_destination_id: accounts[0] }] },
    });
    assert.is(updated.status, 200, updated.text);
    assert.equal(
      updated.body.data.taxes.map((t: any) => [t.id, t.tax_source_id, t.tax_destination_id]),
      [[kept.id, taxes[1], null]],
    );
    assert.equal(
      updated.body.data.accounts.map((a: any) => [a.account_source_id, a.account_destination_id]),
      [[accounts[2], accounts[0]]],
    );

    const renamed = await client.put(`${API}/accounts/fiscal-positions/${position.id}?include=taxes`, { token, body: { name: 'Export (renamed)' } });
    assert.is(renamed.body.data.taxes.length, 1, 'a body without taxes leaves them');
    const cleared = await client.put(`${API}/accounts/fiscal-positions/${position.id}?include=taxes`, { token, body: { taxes: [] } });
    assert.equal(cleared.body.data.taxes, [], 'an empty list removes them all');
  });

  test('a mapping without its required source names its place and writes nothing', async () => {
    const { client, token, knex } = await sharedApp(target);
    const before = await knex('accounts_fiscal_positions').count({ count: '*' }).first();
    const response = await client.post(`${API}/accounts/fiscal-positions`, {
      token,
      body: { name: 'Broken', company_id: 1, accounts: [{ account_destination_id: 99999999 }] },
    });
    assert.is(response.status, 422);
    assert.equal(response.body.errors, {
      'accounts.0.account_source_id': ['The accounts.0.account source id field is required.'],
      'accounts.0.account_destination_id': ['The selected accounts.0.account destination id is invalid.'],
    });
    assert.is(Number((await knex('accounts_fiscal_positions').count({ count: '*' }).first())!.count), Number(before!.count));
  });

  test.run();
}
