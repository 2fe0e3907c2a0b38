// The number of statements a request runs does not grow with the number of lines it carries or
// lists: a 50-line order, a 50-move receipt and a page of orders with their lines take as many
// as a 5-line one (every statement counted: knex's and the engine's prepared ones).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';
import { newestCursor, supportsInsertReturning } from '../../engine/index.ts';
import { countStatements } from '../helpers/statements.ts';

for (const target of databaseTargets()) {
  const test = suite(`query counts [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};

  /** Statements run while `work` runs (the app's only traffic in the meantime). */
  const counted = (work: () => Promise<unknown>, sqls: string[] = []) => countStatements(app.knex, work, sqls);

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const product = async (name: string) =>
      (await app.client.post(`${API}/inventories/products`, { token: app.token, body: { type: 'goods', name: `${name} ${target.name}`, price: 10, category_id: category } })).body
        .data.id as number;
    ids.chair = await product('Counted chair');
    ids.desk = await product('Counted desk');
    ids.partner = (
      await app.client.post(`${API}/partners/partners`, { token: app.token, body: { account_type: 'company', name: `Counted customer ${target.name}` } })
    ).body.data.id;
    ids.term = (await app.knex('accounts_payment_terms').whereNull('deleted_at').orderBy('id').first('id')).id;
    ids.tax = (
      await app.client.post(`${API}/accounts/taxes`, { token: app.token, body: { name: `Counted VAT ${target.name}`, type_tax_use: 'sale', amount_type: 'percent', amount: 10 } })
    ).body.data.id;
  });

  const order = (lines: number) => ({
    partner_id: ids.partner,
    payment_term_id: ids.term,
    date_order: '2026-11-23',
    lines: Array.from({ length: lines }, (_, i) => ({ product_id: i % 2 ? ids.chair : ids.desk, product_qty: 1 + i, price_unit: 10, discount: i % 3, taxes: [ids.tax] })),
  });
  const createOrder = (lines: number) => async () => {
    const response = await app.client.post(`${API}/sales/orders`, { token: app.token, body: order(lines) });
    assert.is(response.status, 201, response.text);
  };

  /**
   * Asserts that the counted step takes as many statements for 50 lines as for 5. `prepare(n)`
   * writes what the step needs (not counted) and returns the step; a first run warms sequences and caches.
   */
  async function sameForFiveAndFifty(prepare: (lines: number) => Promise<() => Promise<unknown>>, unit = 'lines'): Promise<void> {
    await (await prepare(5))();
    const five = await counted(await prepare(5));
    const fifty = await counted(await prepare(50));
    assert.is(fifty, five, `5 ${unit}: ${five} statements, 50 ${unit}: ${fifty}`);
  }

  const receiptBody = (moves: number) => ({
    moves: Array.from({ length: moves }, (_, i) => ({ product_id: i % 2 ? ids.chair : ids.desk, product_uom_qty: 1 + i })),
  });

  test('creating a sales order: 50 lines take as many statements as 5', async () => {
    await sameForFiveAndFifty(async (lines) => createOrder(lines));
  });

  test('confirming an order with lines in dozens: 50 lines take as many statements as 5', async () => {
    const unit = await app.knex('unit_of_measures').where('name', 'Units').first('category_id');
    const dozens = (await app.knex('unit_of_measures').where({ name: 'Dozens', category_id: unit.category_id }).first('id')).id;
    const confirm = async (lines: number) => {
      const body = order(lines);
      body.lines = body.lines.map((line) => ({ ...line, product_uom_id: dozens }));
      const created = await app.client.post(`${API}/sales/orders`, { token: app.token, body });
      assert.is(created.status, 201, created.text);
      return async () => {
        const confirmed = await app.client.post(`${API}/sales/orders/${created.body.data.id}/confirm`, { token: app.token });
        assert.is(confirmed.status, 200, confirmed.text);
      };
    };
    await sameForFiveAndFifty(confirm);
  });

  test('listing orders with include=lines.product,partner: a page of big orders takes as many statements as one of small ones', async () => {
    const list = () => app.client.get(`${API}/sales/orders?include=lines.product,partner&per_page=5&sort=-id`, { token: app.token });
    for (let i = 0; i < 5; i++) await createOrder(2)();
    const small = await counted(list);
    for (let i = 0; i < 5; i++) await createOrder(20)();
    const big = await counted(list);
    assert.is(big, small);
  });

  test('creating a receipt: 50 moves take as many statements as 5', async () => {
    await sameForFiveAndFifty(
      async (moves) => async () => {
        const response = await app.client.post(`${API}/inventories/receipts`, { token: app.token, body: receiptBody(moves) });
        assert.is(response.status, 201, response.text);
      },
      'moves',
    );
  });

  test('receiving stock: todo and validate of 50 moves take as many statements as of 5', async () => {
    await sameForFiveAndFifty(async (moves) => {
      const created = await app.client.post(`${API}/inventories/receipts`, { token: app.token, body: receiptBody(moves) });
      assert.is(created.status, 201, created.text);
      return async () => {
        for (const action of ['todo', 'validate']) {
          const response = await app.client.post(`${API}/inventories/receipts/${created.body.data.id}/${action}`, { token: app.token });
          assert.is(response.status, 200, response.text);
        }
      };
    }, 'moves');
  });

  test('creating and confirming a purchase order, then validating its receipt: 50 lines take as many statements as 5', async () => {
    const company = await app.knex('companies').orderBy('id').first('id', 'currency_id');
    const vendor = (await app.client.post(`${API}/partners/partners`, { token: app.token, body: { account_type: 'company', name: `Counted vendor ${target.name}` } })).body.data.id;
    // One line in four priced from the vendor price lists.
    for (const product of [ids.chair, ids.desk]) {
      const price = await app.client.post(`${API}/purchases/vendor-price-lists`, {
        token: app.token,
        body: { partner_id: vendor, product_id: product, currency_id: company.currency_id, price: 7, min_qty: 2 },
      });
      assert.is(price.status, 201, price.text);
    }
    const purchase = (lines: number) => ({
      partner_id: vendor,
      currency_id: company.currency_id,
      company_id: company.id,
      ordered_at: '2026-11-23T09:00:00Z',
      lines: Array.from({ length: lines }, (_, i) => ({
        product_id: i % 2 ? ids.chair : ids.desk,
        product_qty: 1 + i,
        ...(i % 4 === 0 ? {} : { price_unit: 10 }),
        discount: i % 3,
        taxes: [ids.tax],
      })),
    });
    // The company's zone (for the vendor prices' day and the currency rate's) is read once for the write.
    const sqls: string[] = [];
    await counted(async () => assert.is((await app.client.post(`${API}/purchases/purchase-orders`, { token: app.token, body: purchase(5) })).status, 201), sqls);
    assert.is(sqls.filter((sql) => /timezone/.test(sql)).length, 1, sqls.filter((sql) => /timezone/.test(sql)).join('\n'));
    await sameForFiveAndFifty(async (lines) => async () => {
      const created = await app.client.post(`${API}/purchases/purchase-orders`, { token: app.token, body: purchase(lines) });
      assert.is(created.status, 201, created.text);
      const confirmed = await app.client.post(`${API}/purchases/purchase-orders/${created.body.data.id}/confirm`, { token: app.token });
      assert.is(confirmed.status, 200, confirmed.text);
      assert.is(confirmed.body.data.receipt_status, 'pending');
      const [receipt] = (await app.client.get(`${API}/purchases/purchase-orders/${created.body.data.id}/receipts`, { token: app.token })).body.data;
      const validated = await app.client.post(`${API}/inventories/receipts/${receipt.id}/validate`, { token: app.token });
      assert.is(validated.status, 200, validated.text);
    });
  });

  test('creating, confirming and paying an invoice in two payments, and reversing it: 50 lines take as many statements as 5', async () => {
    const uom = (await app.knex('products_products').where('id', ids.chair).first('uom_id')).uom_id;
    const currency = (await app.knex('companies').orderBy('id').first('currency_id')).currency_id;
    const term = (await app.knex('accounts_payment_terms').where('name', '30% Now, Balance 60 Days').first('id')).id;
    await sameForFiveAndFifty(async (lines) => async () => {
      const created = await app.client.post(`${API}/accounts/invoices`, {
        token: app.token,
        body: {
          partner_id: ids.partner,
          currency_id: currency,
          invoice_date: '2026-11-20',
          invoice_payment_term_id: term,
          invoice_lines: Array.from({ length: lines }, (_, i) => ({
            product_id: i % 2 ? ids.chair : ids.desk,
            uom_id: uom,
            quantity: 1 + i,
            price_unit: 10,
            discount: i % 3,
            taxes: [ids.tax],
          })),
        },
      });
      assert.is(created.status, 201, created.text);
      const path = `${API}/accounts/invoices/${created.body.data.id}`;
      for (const [action, body, status] of [
        ['confirm', {}, 200],
        ['pay', { amount: 10 }, 200],
        ['pay', {}, 200],
        ['reverse', {}, 201],
      ] as const) {
        const response = await app.client.post(`${path}/${action}`, { token: app.token, body });
        assert.is(response.status, status, `${action}: ${response.text}`);
      }
    });
  });

  test('billing a purchase order and confirming the bill: 50 lines take as many statements as 5', async () => {
    const company = await app.knex('companies').orderBy('id').first('currency_id');
    const vendor = (await app.client.post(`${API}/partners/partners`, { token: app.token, body: { account_type: 'company', name: `Billing vendor ${target.name}` } })).body.data.id;
    await sameForFiveAndFifty(async (lines) => {
      const created = await app.client.post(`${API}/purchases/purchase-orders`, {
        token: app.token,
        body: {
          partner_id: vendor,
          currency_id: company.currency_id,
          ordered_at: '2026-11-23T09:00:00Z',
          lines: Array.from({ length: lines }, (_, i) => ({ product_id: i % 2 ? ids.chair : ids.desk, product_qty: 1 + i, price_unit: 10, taxes: [ids.tax] })),
        },
      });
      assert.is(created.status, 201, created.text);
      const order = `${API}/purchases/purchase-orders/${created.body.data.id}`;
      assert.is((await app.client.post(`${order}/confirm`, { token: app.token })).status, 200);
      const [receipt] = (await app.client.get(`${order}/receipts`, { token: app.token })).body.data;
      assert.is((await app.client.post(`${API}/inventories/receipts/${receipt.id}/validate`, { token: app.token })).status, 200);
      return async () => {
        const bill = await app.client.post(`${order}/create-bill`, { token: app.token });
        assert.is(bill.status, 201, bill.text);
        const confirmed = await app.client.post(`${API}/accounts/bills/${bill.body.data.id}/confirm`, { token: app.token });
        assert.is(confirmed.status, 200, confirmed.text);
      };
    });
  });

  test('creating a UOM under its category: the category the body names is the path’s, looked up once', async () => {
    const category = (await app.knex('unit_of_measure_categories').orderBy('id').first('id')).id;
    const sqls: string[] = [];
    const created = await counted(async () => {
      const response = await app.client.post(`${API}/support/uom-categories/${category}/uoms`, {
        token: app.token,
        body: { type: 'bigger', name: `Counted box ${target.name}`, factor: 10, rounding: 0.01, category_id: category },
      });
      assert.is(response.status, 201, response.text);
    }, sqls);
    const categoryReads = sqls.filter((sql) => /^SELECT/.test(sql) && /`unit_of_measure_categories`/.test(sql));
    assert.is(categoryReads.length, 1, sqls.join('\n'));
    // The token check with the category (the app has checked this token before: only the
    // counters of access_state), then the insert and its change for the feed in one transaction;
    // the insert returns the new row where the server can (else it is read back, for the change
    // and for the answer).
    assert.match(sqls[0]!, /FROM `access_state` a.*JOIN `unit_of_measure_categories`/s);
    assert.ok(
      sqls.some((sql) => /^insert into `change_log`/i.test(sql)),
      'the change goes with the insert',
    );
    // The UOM's words go in beside it, one INSERT of its (word, id) pairs (engine/sql/search-index.ts).
    const pairs = sqls.filter((sql) => /^INSERT INTO `unit_of_measures_search`/i.test(sql)).length;
    assert.is(pairs, 1, sqls.join('\n'));
    assert.is(created, ((await supportsInsertReturning(app.knex)) ? 5 : 7) + pairs, sqls.join('\n'));
  });

  test('a source changed through the API: its copies follow (related) in as many statements for 50 records as for 5, and the feed shows each', async () => {
    const feed = async (after: string, resources: string) => {
      const changes: Array<Record<string, any>> = [];
      let cursor = after;
      for (;;) {
        const page = await app.client.get(`${API}/changes`, { token: app.token, query: { after: cursor, resources, limit: 500 } });
        assert.is(page.status, 200, page.text);
        changes.push(...page.body.data);
        cursor = page.body.next_cursor;
        if (!page.body.has_more) return { changes, cursor };
      }
    };
    let bank: number | undefined;
    let round = 0;
    await sameForFiveAndFifty(async (accounts) => {
      bank ??= (await app.client.post(`${API}/support/banks`, { token: app.token, body: { name: `Counted bank ${target.name}` } })).body.data.id;
      const name = `Holder ${target.name} ${++round}`;
      const partner = (await app.client.post(`${API}/partners/partners`, { token: app.token, body: { account_type: 'company', name } })).body.data.id;
      const ids: number[] = [];
      for (let i = 0; i < accounts; i++) {
        const account = await app.client.post(`${API}/partners/partners/${partner}/bank-accounts`, {
          token: app.token,
          body: { account_number: `CNT-${target.name}-${round}-${i}`, bank_id: bank, can_send_money: true },
        });
        assert.is(account.status, 201, account.text);
        ids.push(account.body.data.id);
      }
      // The feed's newest change (what came before may be gone to retention: another suite purges the shared feed).
      const cursor = await newestCursor({ knex: app.knex });
      return async () => {
        const renamed = await app.client.put(`${API}/partners/partners/${partner}`, { token: app.token, body: { name: `${name} renamed` } });
        assert.is(renamed.status, 200, renamed.text);
        const holders = await app.knex('partners_bank_accounts').whereIn('id', ids).pluck('account_holder_name');
        assert.equal(new Set(holders), new Set([`${name} renamed`]), 'every account follows');
        const { changes } = await feed(cursor, 'partners/bank-accounts');
        assert.equal(
          changes.map((change) => [change.record_id, change.kind, change.changed, change.record.account_holder_name]).sort(),
          ids.map((id) => [id, 'updated', ['account_holder_name'], `${name} renamed`]).sort(),
          'the feed shows each account, as it now is',
        );
      };
    }, 'bank accounts');
  });

  test("updating a sales order's customer: its 50 lines follow (order_partner_id) in as many statements as 5", async () => {
    const other = (await app.client.post(`${API}/partners/partners`, { token: app.token, body: { account_type: 'company', name: `Counted other customer ${target.name}` } })).body
      .data.id;
    await sameForFiveAndFifty(async (lines) => {
      const created = await app.client.post(`${API}/sales/orders`, { token: app.token, body: order(lines) });
      assert.is(created.status, 201, created.text);
      return async () => {
        const updated = await app.client.put(`${API}/sales/orders/${created.body.data.id}`, { token: app.token, body: { partner_id: other } });
        assert.is(updated.status, 200, updated.text);
        const partners = await app.knex('sales_order_lines').where('order_id', created.body.data.id).pluck('order_partner_id');
        assert.equal(new Set(partners.map(Number)), new Set([other]));
      };
    });
  });

  test('a written order is answered as its write read it back before the commit: not read again after it, unless an include asks for more', async () => {
    /** The statements after the write's COMMIT that read the order's table. */
    const readAfterCommit = async (send: () => Promise<{ status: number; text: string; body: any }>, status: number) => {
      const sqls: string[] = [];
      let answer: { status: number; text: string; body: any } | undefined;
      await counted(async () => {
        answer = await send();
      }, sqls);
      assert.is(answer!.status, status, answer!.text);
      const commit = sqls.map((sql) => /^COMMIT/i.test(sql)).lastIndexOf(true);
      assert.ok(commit >= 0, sqls.join('\n'));
      return { answer: answer!, reads: sqls.slice(commit + 1).filter((sql) => /`sales_orders`/.test(sql)) };
    };
    const created = await readAfterCommit(() => app.client.post(`${API}/sales/orders`, { token: app.token, body: order(3) }), 201);
    assert.equal(created.reads, [], 'create');
    const id = created.answer.body.data.id;
    const updated = await readAfterCommit(() => app.client.put(`${API}/sales/orders/${id}`, { token: app.token, body: { note: 'Read back' } }), 200);
    assert.equal(updated.reads, [], 'update');
    const confirmed = await readAfterCommit(() => app.client.post(`${API}/sales/orders/${id}/confirm`, { token: app.token }), 200);
    assert.equal(confirmed.reads, [], 'action');
    // What each answered is what a show reads now.
    const shown = (await app.client.get(`${API}/sales/orders/${id}`, { token: app.token })).body.data;
    assert.equal(confirmed.answer.body.data, shown);
    assert.is(updated.answer.body.data.note, 'Read back');
    const included = await readAfterCommit(() => app.client.put(`${API}/sales/orders/${id}?include=partner`, { token: app.token, body: { note: 'Read again' } }), 200);
    assert.ok(included.reads.length > 0, 'an include reads the record again, with what it asks for');
    assert.is(included.answer.body.data.partner.id, ids.partner);
  });

  test('creating a partner (a resource that embeds its country and state): the row the INSERT returned is its change and its answer, not read again', async () => {
    const country = await app.knex('countries').orderBy('id').first('id');
    const state = await app.knex('states').where('country_id', country.id).orderBy('id').first('id');
    const sqls: string[] = [];
    let response: { status: number; text: string; body: any } | undefined;
    await counted(async () => {
      response = await app.client.post(`${API}/partners/partners`, {
        token: app.token,
        body: { account_type: 'company', name: `Counted embed ${target.name}`, country_id: country.id, ...(state && { state_id: state.id }) },
      });
    }, sqls);
    assert.is(response!.status, 201, response!.text);
    const partnerReads = sqls.filter((sql) => /^SELECT/i.test(sql) && /FROM `partners_partners`/.test(sql));
    if (await supportsInsertReturning(app.knex)) assert.equal(partnerReads, [], sqls.join('\n'));
    else assert.is(partnerReads.length, 1, `without RETURNING the row is read back once, for the change and the answer:\n${sqls.join('\n')}`);
    // The country embedded once, in the write's transaction, before its COMMIT (the other read of
    // countries is the body's check that the country exists).
    const countryReads = sqls.map((sql, index) => ({ sql, index })).filter(({ sql }) => /^SELECT `countries`\.\*/i.test(sql));
    assert.is(countryReads.length, 1, sqls.join('\n'));
    assert.ok(countryReads[0]!.index < sqls.findIndex((sql) => /^COMMIT/i.test(sql)), sqls.join('\n'));
    // The answer, the change in the feed and a show agree.
    const id = response!.body.data.id;
    assert.is(response!.body.data.country.id, country.id);
    const shown = (await app.client.get(`${API}/partners/partners/${id}`, { token: app.token })).body.data;
    assert.equal(response!.body.data, shown);
    const change = await app.knex('change_log').where({ resource: 'partners/partners', record_id: id, kind: 'created' }).first('record');
    assert.equal(JSON.parse(change.record), shown);
  });

  test('showing a UOM: the token check and the record (with its category’s existence) are one statement', async () => {
    const uom = await app.knex('unit_of_measures').whereNull('deleted_at').orderBy('id').first('id', 'category_id');
    const url = `${API}/support/uom-categories/${uom.category_id}/uoms/${uom.id}`;
    const sqls: string[] = [];
    const shown = await counted(async () => {
      const response = await app.client.get(url, { token: app.token });
      assert.is(response.status, 200, response.text);
      assert.is(response.body.data.id, uom.id);
    }, sqls);
    assert.is(shown, 1, sqls.join('\n'));
    // With an include, one more statement for the included category.
    assert.is(await counted(() => app.client.get(`${url}?include=category`, { token: app.token })), 2);
  });

  test('listing UOMs of a category: the token check goes with the count, beside the page query', async () => {
    const category = (await app.knex('unit_of_measures').whereNull('deleted_at').orderBy('id').first('category_id')).category_id;
    const url = `${API}/support/uom-categories/${category}/uoms?sort=-name&include=category`;
    assert.is((await app.client.get(url, { token: app.token })).status, 200);
    const sqls: string[] = [];
    const listed = await counted(async () => {
      const response = await app.client.get(url, { token: app.token });
      assert.is(response.status, 200, response.text);
      assert.ok(response.body.data.length > 0);
    }, sqls);
    // The check with the count (which also finds the category), the page, the included categories.
    assert.is(listed, 3, sqls.join('\n'));
    assert.match(sqls.find((sql) => sql.includes('COUNT(*)'))!, /FROM `access_state` a/);
  });

  test.run();
}
