// Addresses are partner rows with account_type "address" under their partner: the scope keeps
// the two apart, and the partner shows them through its includes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`partner addresses [${target.name}]`);

  test('an address is stored as a partner row of its parent, shown by the parent, never as a contact', async () => {
    const { client, token, knex } = await sharedApp(target);
    const partner = await client.post(`${API}/partners/partners`, { token, body: { account_type: 'company', name: 'Address Owner Ltd' } });
    assert.is(partner.status, 201, partner.text);
    const partnerId = partner.body.data.id;
    const contact = await client.post(`${API}/partners/partners`, { token, body: { account_type: 'individual', name: 'Jane Contact', parent_id: partnerId } });
    assert.is(contact.status, 201, contact.text);

    const address = await client.post(`${API}/partners/partners/${partnerId}/addresses`, {
      token,
      body: { sub_type: 'invoice', name: 'Billing', city: 'Springfield', account_type: 'individual', parent_id: 1 },
    });
    assert.is(address.status, 201, address.text);
    assert.is(address.body.message, 'Address created successfully.');
    assert.is(address.body.data.parent_id, partnerId, 'the path decides the parent, not the body');
    assert.ok('country' in address.body.data && 'state' in address.body.data, 'country and state are always shown');
    const row = await knex('partners_partners').where('id', address.body.data.id).first();
    assert.is(row.account_type, 'address', 'the scope is written, whatever the body says');

    const shown = await client.get(`${API}/partners/partners/${partnerId}?include=addresses,contacts`, { token });
    assert.equal(
      shown.body.data.addresses.map((a: any) => a.id),
      [address.body.data.id],
    );
    assert.equal(
      shown.body.data.contacts.map((c: any) => c.id),
      [contact.body.data.id],
    );

    // The contact is a partner, not an address: the addresses routes do not see it.
    const asAddress = await client.get(`${API}/partners/partners/${partnerId}/addresses/${contact.body.data.id}`, { token });
    assert.is(asAddress.status, 404);
    const listed = await client.get(`${API}/partners/partners/${partnerId}/addresses`, { token });
    assert.equal(
      listed.body.data.map((a: any) => a.id),
      [address.body.data.id],
    );
  });

  test('a soft-deleted address disappears from its partner until restored', async () => {
    const { client, token } = await sharedApp(target);
    const partner = await client.post(`${API}/partners/partners`, { token, body: { account_type: 'company', name: 'Moving Co' } });
    const base = `${API}/partners/partners/${partner.body.data.id}/addresses`;
    const address = await client.post(base, { token, body: { sub_type: 'delivery', name: 'Warehouse dock' } });
    await client.delete(`${base}/${address.body.data.id}`, { token });
    const hidden = await client.get(`${API}/partners/partners/${partner.body.data.id}?include=addresses`, { token });
    assert.equal(hidden.body.data.addresses, []);
    const restored = await client.post(`${base}/${address.body.data.id}/restore`, { token });
    assert.is(restored.body.message, 'Address restored successfully.');
    const back = await client.get(`${API}/partners/partners/${partner.body.data.id}?include=addresses`, { token });
    assert.is(back.body.data.addresses.length, 1);
  });

  test.run();
}
