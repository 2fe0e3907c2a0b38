// Packagings: the quantity per package is required and never negative; a company is optional.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const BASE = `${API}/products/packagings`;

for (const target of databaseTargets()) {
  const test = suite(`product packagings [${target.name}]`);

  test('qty is required and at least 0; the company is optional and shown when included', async () => {
    const { client, token } = await sharedApp(target);
    const missing = await client.post(BASE, { token, body: { name: 'Crate' } });
    assert.is(missing.status, 422);
    assert.equal(missing.body.errors, { qty: ['The qty field is required.'] });
    const negative = await client.post(BASE, { token, body: { name: 'Crate', qty: -1 } });
    assert.is(negative.status, 422);

    const plain = await client.post(BASE, { token, body: { name: 'Crate', qty: 24, barcode: 'CRATE-24' } });
    assert.is(plain.status, 201, plain.text);
    assert.is(plain.body.message, 'Packaging created successfully.');
    assert.is(plain.body.data.qty, 24);
    assert.is(plain.body.data.company_id, null);

    const company = await client.post(`${BASE}?include=company`, { token, body: { name: 'Pallet', qty: 480, company_id: 1 } });
    assert.is(company.status, 201, company.text);
    assert.is(company.body.data.company.name, 'My Company');
    const byBarcode = await client.get(`${BASE}?filter[barcode]=CRATE-24`, { token });
    assert.ok(byBarcode.body.data.some((row: any) => row.id === plain.body.data.id));
  });

  test.run();
}
