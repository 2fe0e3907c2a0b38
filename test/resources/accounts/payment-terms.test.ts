// Payment terms and their due terms: the due term every new term gets, the ten seeded terms of a
// fresh installation, the hidden sort order, and what deleting a term does to its due terms.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const TERMS = `${API}/accounts/payment-terms`;
const SEEDED = [
  'Immediate Payment',
  '15 Days',
  '21 Days',
  '30 Days',
  '45 Days',
  'End of Following Month',
  '10 Days after End of Next Month',
  '30% Now, Balance 60 Days',
  '2/7 Net 30',
  '90 Days, on the 10th',
];

for (const target of databaseTargets()) {
  const test = suite(`accounts payment terms [${target.name}]`);

  test('a new payment term gets one due term at once: 100 % after 0 days', async () => {
    const { client, token, knex } = await sharedApp(target);
    const admin = await knex('users').where('email', 'admin@example.com').first('id');
    const created = await client.post(TERMS, { token, body: { name: 'Net 10 (hand test)', note: '<p>Ten days</p>' } });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Payment term created successfully.');
    const term = created.body.data;
    assert.equal(Object.keys(term), [
      'id',
      'name',
      'note',
      'company_id',
      'early_discount',
      'discount_percentage',
      'discount_days',
      'early_pay_discount',
      'creator_id',
      'created_at',
      'updated_at',
      'deleted_at',
    ]);
    assert.equal([term.early_discount, term.discount_percentage, term.discount_days, term.early_pay_discount], [false, '2.0000', 10, 'included'], "Odoo's defaults, off");
    assert.not.ok('due_terms' in term, 'the create response loads nothing');
    assert.not.ok('sort' in term, 'sort orders the terms but is not part of the record');

    const shown = await client.get(`${TERMS}/${term.id}?include=dueTerms`, { token });
    assert.is(shown.status, 200);
    assert.is(shown.body.data.due_terms.length, 1);
    const [due] = shown.body.data.due_terms;
    assert.equal(
      {
        value: due.value,
        value_amount: due.value_amount,
        delay_type: due.delay_type,
        nb_days: due.nb_days,
        days_next_month: due.days_next_month,
        payment_id: due.payment_id,
        creator_id: due.creator_id,
      },
      { value: 'percent', value_amount: '100.0000', delay_type: 'days_after', nb_days: 0, days_next_month: 10, payment_id: term.id, creator_id: Number(admin.id) },
    );

    const nested = await client.get(`${TERMS}/${term.id}/due-terms`, { token });
    assert.equal(
      nested.body.data.map((row: any) => row.id),
      [due.id],
    );
    assert.is(nested.body.data[0].value_amount, '100.0000');
  });

  test('a refused payment term leaves no due term behind', async () => {
    const { client, token, knex } = await sharedApp(target);
    const before = Number((await knex('accounts_payment_due_terms').count({ n: '*' }).first())!.n);
    const refused = await client.post(TERMS, { token, body: { name: 'x'.repeat(256) } });
    assert.is(refused.status, 422);
    const unknownCompany = await client.post(TERMS, { token, body: { name: 'Bad company', company_id: 99999999 } });
    assert.is(unknownCompany.status, 422);
    assert.equal(unknownCompany.body.errors, { company_id: ['The selected company id is invalid.'] });
    assert.is(Number((await knex('accounts_payment_due_terms').count({ n: '*' }).first())!.n), before);
  });

  test('a fresh installation has the ten standard payment terms, in their order', async () => {
    const { client, token } = await sharedApp(target);
    const listed = await client.get(`${TERMS}?sort=sort&per_page=100&filter[trashed]=with`, { token });
    assert.is(listed.status, 200);
    assert.equal(
      listed.body.data.slice(0, 10).map((term: any) => term.name),
      SEEDED,
    );
    assert.equal(
      listed.body.data.slice(0, 10).map((term: any) => term.id),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      'ids 1–10 as in the original',
    );
    const immediate = await client.get(`${TERMS}/1?include=dueTerms,company`, { token });
    assert.is(immediate.body.data.name, 'Immediate Payment');
    assert.is(immediate.body.data.company.name, 'My Company');
    // The conformance suite adds due terms under the first term; the seeded one is the oldest.
    const [seeded] = immediate.body.data.due_terms;
    assert.equal([seeded.value, seeded.value_amount, seeded.nb_days, seeded.delay_type], ['percent', '100.0000', 0, 'days_after']);
    const thirty = await client.get(`${TERMS}/4?include=dueTerms`, { token });
    assert.is(thirty.body.data.name, '30 Days');
    assert.equal(
      thirty.body.data.due_terms.map((due: any) => [due.value, due.value_amount, due.nb_days, due.delay_type]),
      [['percent', '100.0000', 30, 'days_after']],
    );
  });

  test('"30% Now, Balance 60 Days" is due 30 % at once and 70 % after 60 days', async () => {
    const { client, token } = await sharedApp(target);
    const found = await client.get(`${TERMS}?filter[name]=${encodeURIComponent('30% now')}&include=dueTerms`, { token });
    assert.is(found.status, 200);
    assert.equal(
      found.body.data.map((term: any) => term.name),
      ['30% Now, Balance 60 Days'],
      'a % in the filter matches literally',
    );
    const dueTerms = found.body.data[0].due_terms.map((due: any) => [due.value, due.value_amount, due.nb_days, due.delay_type, due.days_next_month]);
    assert.equal(dueTerms, [
      ['percent', '30.0000', 0, 'days_after', 10],
      ['percent', '70.0000', 60, 'days_after', 10],
    ]);
    const byDays = await client.get(`${TERMS}/${found.body.data[0].id}/due-terms?sort=-nb_days`, { token });
    assert.equal(
      byDays.body.data.map((due: any) => due.nb_days),
      [60, 0],
    );
    const ninety = await client.get(`${TERMS}?filter[name]=${encodeURIComponent('on the 10th')}&include=dueTerms`, { token });
    assert.equal(
      ninety.body.data[0].due_terms.map((due: any) => [due.nb_days, due.delay_type]),
      [[90, 'days_end_of_month_no_the']],
    );
  });

  test('a new payment term goes last; a sort sent is ignored', async () => {
    const { client, token, knex } = await sharedApp(target);
    const highest = Number((await knex('accounts_payment_terms').max({ sort: 'sort' }).first())!.sort);
    const created = await client.post(TERMS, { token, body: { name: 'Last one', sort: 1 } });
    const row = await knex('accounts_payment_terms').where('id', created.body.data.id).first('sort');
    assert.is(Number(row.sort), highest + 1);
    const last = await client.get(`${TERMS}?sort=-sort&per_page=1`, { token });
    assert.is(last.body.data[0].id, created.body.data.id);
  });

  test('due terms: validated, kept under their own term, and written with the term of the path', async () => {
    const { client, token } = await sharedApp(target);
    const term = (await client.post(TERMS, { token, body: { name: 'Split (hand test)' } })).body.data;
    const base = `${TERMS}/${term.id}/due-terms`;
    const created = await client.post(base, {
      token,
      body: { value: 'fixed', value_amount: 12.5, delay_type: 'days_after_end_of_month', nb_days: 15, days_next_month: null, payment_id: 1 },
    });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Payment due term created successfully.');
    assert.is(created.body.data.payment_id, term.id, 'the path decides the term');
    assert.is(created.body.data.value_amount, '12.5000');
    assert.is(created.body.data.days_next_month, null);

    const invalid = await client.post(base, { token, body: { value: 'percent', value_amount: 100.5, delay_type: 'days_after', nb_days: -1, days_next_month: 32 } });
    assert.is(invalid.status, 422);
    assert.equal(invalid.body.errors, {
      value_amount: ['The value amount field must not be greater than 100.'],
      nb_days: ['The nb days field must be at least 0.'],
      days_next_month: ['The days next month field must not be greater than 31.'],
    });
    const missing = await client.post(base, { token, body: {} });
    assert.equal(Object.keys(missing.body.errors).sort(), ['delay_type', 'nb_days', 'value', 'value_amount']);

    const elsewhere = await client.get(`${TERMS}/1/due-terms/${created.body.data.id}`, { token });
    assert.is(elsewhere.status, 404, 'not under another payment term');
    const updated = await client.put(`${base}/${created.body.data.id}`, { token, body: { value_amount: 40 } });
    assert.is(updated.body.message, 'Payment due term updated successfully.');
    assert.is(updated.body.data.value_amount, '40.0000');
    const deleted = await client.delete(`${base}/${created.body.data.id}`, { token });
    assert.equal(deleted.body, { message: 'Payment due term deleted successfully.' });
  });

  test('soft delete keeps the due terms; a permanent delete takes them along', async () => {
    const { client, token, knex } = await sharedApp(target);
    const term = (await client.post(TERMS, { token, body: { name: 'Short-lived' } })).body.data;
    const dueTerms = () =>
      knex('accounts_payment_due_terms')
        .where('payment_id', term.id)
        .count({ n: '*' })
        .first()
        .then((row) => Number(row!.n));
    assert.equal((await client.delete(`${TERMS}/${term.id}`, { token })).body, { message: 'Payment term deleted successfully.' });
    assert.is(await dueTerms(), 1);
    assert.is((await client.get(`${TERMS}/${term.id}/due-terms`, { token })).status, 404, 'a trashed term hides its due terms');
    const restored = await client.post(`${TERMS}/${term.id}/restore`, { token });
    assert.is(restored.body.message, 'Payment term restored successfully.');
    assert.is(restored.body.data.deleted_at, null);
    const removed = await client.delete(`${TERMS}/${term.id}/force`, { token });
    assert.equal(removed.body, { message: 'Payment term permanently deleted.' });
    assert.is(await dueTerms(), 0);
  });

  test.run();
}
