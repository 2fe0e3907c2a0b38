// A partner's bank accounts (reference-projects-extras §5): the holder is always the partner, an
// account number is unique across every account (archived ones too) with a 422, an account is
// reached under its own partner only, and the partner's permissions decide who reads and writes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { userWith } from '../../helpers/access.ts';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`partner bank accounts [${target.name}]`);
  let app: TestApp & { token: string };
  let bankId = 0;
  const tag = Math.random().toString(36).slice(2, 8);

  async function partner(name: string): Promise<number> {
    const response = await app.client.post(`${API}/partners/partners`, { token: app.token, body: { account_type: 'company', name } });
    assert.is(response.status, 201, response.text);
    return response.body.data.id;
  }
  const accounts = (partnerId: number) => `${API}/partners/partners/${partnerId}/bank-accounts`;

  test.before(async () => {
    app = await sharedApp(target);
    const bank = await app.client.post(`${API}/support/banks`, { token: app.token, body: { name: `Bank ${tag}` } });
    assert.is(bank.status, 201, bank.text);
    bankId = bank.body.data.id;
  });

  test("the holder is the partner's name, whatever is sent, and follows a renamed partner", async () => {
    const owner = await partner(`Holder ${tag}`);
    const created = await app.client.post(accounts(owner), {
      token: app.token,
      body: { account_number: `NL-${tag}-1`, bank_id: bankId, can_send_money: true, account_holder_name: 'Someone Else', partner_id: 1 },
    });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Bank account created successfully.');
    assert.is(created.body.data.account_holder_name, `Holder ${tag}`);
    assert.is(created.body.data.partner_id, owner, 'the path decides the partner');
    assert.is(created.body.data.can_send_money, true);
    assert.is(created.body.data.is_active, true);
    const path = `${accounts(owner)}/${created.body.data.id}`;

    await app.client.put(`${API}/partners/partners/${owner}`, { token: app.token, body: { name: `Renamed ${tag}` } });
    const shown = await app.client.get(`${path}?include=bank`, { token: app.token });
    assert.is(shown.body.data.account_holder_name, `Renamed ${tag}`);
    assert.is(shown.body.data.bank.id, bankId);

    const updated = await app.client.put(path, { token: app.token, body: { can_send_money: false, account_holder_name: 'Nope' } });
    assert.is(updated.status, 200, updated.text);
    assert.is(updated.body.message, 'Bank account updated successfully.');
    assert.is(updated.body.data.account_holder_name, `Renamed ${tag}`);
    assert.is(updated.body.data.can_send_money, false);
  });

  test('bad input is a 422: required fields, a missing bank, a number already taken (archived too)', async () => {
    const owner = await partner(`Numbers ${tag}`);
    const empty = await app.client.post(accounts(owner), { token: app.token, body: {} });
    assert.is(empty.status, 422);
    assert.ok(empty.body.errors.account_number && empty.body.errors.bank_id && empty.body.errors.can_send_money);
    const noBank = await app.client.post(accounts(owner), { token: app.token, body: { account_number: `X-${tag}`, bank_id: 99999999, can_send_money: true } });
    assert.is(noBank.status, 422);
    assert.ok(noBank.body.errors.bank_id);

    const first = await app.client.post(accounts(owner), { token: app.token, body: { account_number: `DUP-${tag}`, bank_id: bankId, can_send_money: false } });
    assert.is(first.status, 201, first.text);
    const other = await partner(`Other numbers ${tag}`);
    const taken = await app.client.post(accounts(other), { token: app.token, body: { account_number: `DUP-${tag}`, bank_id: bankId, can_send_money: false } });
    assert.is(taken.status, 422, taken.text);
    assert.ok(taken.body.errors.account_number);

    assert.equal((await app.client.delete(`${accounts(owner)}/${first.body.data.id}`, { token: app.token })).body, { message: 'Bank account deleted successfully.' });
    const takenByArchived = await app.client.post(accounts(other), { token: app.token, body: { account_number: `DUP-${tag}`, bank_id: bankId, can_send_money: false } });
    assert.is(takenByArchived.status, 422, takenByArchived.text);
    assert.ok(takenByArchived.body.errors.account_number);
    const second = await app.client.post(accounts(other), { token: app.token, body: { account_number: `DUP2-${tag}`, bank_id: bankId, can_send_money: false } });
    const renumbered = await app.client.put(`${accounts(other)}/${second.body.data.id}`, { token: app.token, body: { account_number: `DUP-${tag}` } });
    assert.is(renumbered.status, 422, renumbered.text);
    assert.is(
      await app
        .knex('partners_bank_accounts')
        .where('account_number', `DUP-${tag}`)
        .count({ n: '*' })
        .first()
        .then((row) => Number(row!.n)),
      1,
    );
  });

  test("another partner's account is 404 on every route; archived, restored, removed for good", async () => {
    const owner = await partner(`Owner ${tag}`);
    const stranger = await partner(`Stranger ${tag}`);
    const created = await app.client.post(accounts(owner), { token: app.token, body: { account_number: `OWN-${tag}`, bank_id: bankId, can_send_money: true } });
    const id = created.body.data.id;
    const elsewhere = `${accounts(stranger)}/${id}`;
    assert.is((await app.client.get(elsewhere, { token: app.token })).status, 404);
    assert.is((await app.client.put(elsewhere, { token: app.token, body: { can_send_money: false } })).status, 404);
    assert.is((await app.client.delete(elsewhere, { token: app.token })).status, 404);
    assert.is((await app.client.post(`${elsewhere}/restore`, { token: app.token })).status, 404);
    assert.is((await app.client.delete(`${elsewhere}/force`, { token: app.token })).status, 404);
    assert.equal((await app.client.get(accounts(stranger), { token: app.token })).body.data, []);

    const path = `${accounts(owner)}/${id}`;
    await app.client.delete(path, { token: app.token });
    assert.is((await app.client.get(path, { token: app.token })).status, 404);
    const trashed = await app.client.get(`${accounts(owner)}?filter[trashed]=only`, { token: app.token });
    assert.equal(
      trashed.body.data.map((row: { id: number }) => row.id),
      [id],
    );
    const restored = await app.client.post(`${path}/restore`, { token: app.token });
    assert.is(restored.status, 200, restored.text);
    assert.is(restored.body.message, 'Bank account restored successfully.');
    assert.is(restored.body.data.id, id, 'unlike the original, the restore answers with the account');
    assert.equal((await app.client.delete(`${path}/force`, { token: app.token })).body, { message: 'Bank account permanently deleted.' });
    assert.is(await app.knex('partners_bank_accounts').where('id', id).first(), undefined);
  });

  test("the partner's permissions decide: view_partner_partner reads, update_partner_partner writes", async () => {
    const owner = await partner(`Guarded ${tag}`);
    const created = await app.client.post(accounts(owner), { token: app.token, body: { account_number: `PERM-${tag}`, bank_id: bankId, can_send_money: true } });
    const path = `${accounts(owner)}/${created.body.data.id}`;

    const reader = await userWith(app, { only: ['view_partner_partner'] });
    assert.is((await app.client.get(accounts(owner), { token: reader.token })).status, 200);
    assert.is((await app.client.get(path, { token: reader.token })).status, 200);
    const body = { account_number: `PERM2-${tag}`, bank_id: bankId, can_send_money: true };
    assert.is((await app.client.post(accounts(owner), { token: reader.token, body })).status, 403);
    assert.is((await app.client.put(path, { token: reader.token, body: { can_send_money: false } })).status, 403);
    assert.is((await app.client.delete(path, { token: reader.token })).status, 403);

    const writer = await userWith(app, { only: ['update_partner_partner'] });
    assert.is((await app.client.get(path, { token: writer.token })).status, 403);
    const written = await app.client.post(accounts(owner), { token: writer.token, body });
    assert.is(written.status, 201, written.text);
    assert.is((await app.client.delete(`${accounts(owner)}/${written.body.data.id}`, { token: writer.token })).status, 200);
    assert.is((await app.client.post(`${accounts(owner)}/${written.body.data.id}/restore`, { token: writer.token })).status, 200);
    assert.is((await app.client.delete(`${accounts(owner)}/${written.body.data.id}/force`, { token: writer.token })).status, 200);

    // The parent is looked up before the policy: a missing partner is a 404 for anyone.
    assert.is((await app.client.get(accounts(99999999), { token: reader.token })).status, 404);
  });

  test.run();
}
