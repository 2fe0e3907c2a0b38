// A document's lines through export and import (engine/transfer/export/export-lines.ts,
// engine/transfer/import/read-lines.ts): an invoice exported with its lines as a JSON column, each
// line's product and taxes named beside their ids, is imported into another installation whose
// products have other ids, and gives the same lines there; a lines cell that is not JSON, a line
// naming a product that is not there, or a line the create refuses is that row's error, and
// nothing is stored.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { parseCsv } from '../../../engine/transfer/import/parse-csv.ts';
import { API, secondApp, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

type Installation = TestApp & { token: string };
const INVOICES = `${API}/accounts/invoices`;
/** The columns a person moving invoices takes: what the invoice points at by name, and its lines. */
const FIELDS = 'partner,currency,journal,invoice_date,invoice_date_due,reference,invoice_lines';
const CSV = { 'content-type': 'text/csv' };
const JSONL = { 'content-type': 'application/x-ndjson' };

for (const target of databaseTargets()) {
  const test = suite(`a document's lines through export and import [${target.name}]`);
  const tag = `${target.name}-${Math.random().toString(36).slice(2, 7)}`;
  let here: Installation;
  let there: Installation;
  const products: Record<string, Record<string, number>> = { here: {}, there: {} };

  const post = (app: Installation, path: string, body: unknown) => app.client.post(path, { token: app.token, body });
  const importInto = (app: Installation, rawBody: string, headers = CSV, query: Record<string, string> = {}) =>
    app.client.post(`${INVOICES}/import`, { token: app.token, rawBody, headers, query });
  const exported = async (app: Installation, format: string, id: number) => {
    const url = new URL(`${INVOICES}/export?format=${format}&fields=${FIELDS}&filter[id]=${id}`, app.client.baseUrl);
    const response = await request(url, { headers: { authorization: `Bearer ${app.token}` } });
    const text = Buffer.from(await response.body.arrayBuffer()).toString('utf8');
    assert.is(response.statusCode, 200, text);
    return text;
  };
  const invoiceCount = async (app: Installation) => Number((await app.knex('accounts_account_moves').count({ n: '*' }).first())!.n);
  /** An invoice's lines as a person reads them: product, quantity, price, discount, taxes by name. */
  const linesOf = async (app: Installation, id: number) => {
    const shown = await app.client.get(`${INVOICES}/${id}?include=invoiceLines.product,invoiceLines.taxes`, { token: app.token });
    assert.is(shown.status, 200, shown.text);
    return {
      total: shown.body.data.amount_total,
      lines: shown.body.data.invoice_lines.map((line: any) => ({
        product: line.product.name,
        quantity: line.quantity,
        price_unit: line.price_unit,
        discount: line.discount,
        taxes: line.taxes.map((tax: any) => `${tax.name} ${tax.type_tax_use}`),
      })),
    };
  };

  test.before(async () => {
    here = await sharedApp(target);
    there = await secondApp(target);
    const category = async (app: Installation) => (await app.knex('products_categories').orderBy('id').first('id')).id;
    const product = async (app: Installation, name: string) => {
      const created = await post(app, `${API}/products/products`, { type: 'consu', name, price: 10, category_id: await category(app) });
      assert.is(created.status, 201, created.text);
      return created.body.data.id as number;
    };
    // There, the products are made in another order after one more: the same names, other ids.
    // Other files may have made products here before (the shared installation), so an id that
    // still came out the same there is renamed out of the way and the product made again.
    for (const name of ['Desk', 'Chair']) products.here![name] = await product(here, `${name} ${tag}`);
    await product(there, `Stool ${tag}`);
    for (const name of ['Chair', 'Desk']) {
      let id = await product(there, `${name} ${tag}`);
      for (let spare = 1; id === products.here![name]; spare++) {
        assert.is((await there.client.put(`${API}/products/products/${id}`, { token: there.token, body: { name: `Spare ${spare} ${tag}` } })).status, 200);
        id = await product(there, `${name} ${tag}`);
      }
      products.there![name] = id;
    }
    for (const app of [here, there]) assert.is((await post(app, `${API}/partners/partners`, { account_type: 'company', name: `Customer ${tag}` })).status, 201);
    assert.is.not(products.here!.Desk, products.there!.Desk, 'the products have other ids there');
    assert.is.not(products.here!.Chair, products.there!.Chair, 'the products have other ids there');
  });

  /** An invoice here with two lines: two desks with the sale tax, three chairs at a discount. */
  const invoiceHere = async () => {
    const partner = (await here.knex('partners_partners').where('name', `Customer ${tag}`).first('id')).id;
    const currency = (await here.knex('companies').orderBy('id').first('currency_id')).currency_id;
    const uom = async (id: number) => (await here.knex('products_products').where('id', id).first('uom_id')).uom_id;
    const tax = (await here.knex('accounts_taxes').where('type_tax_use', 'sale').orderBy('id').first('id')).id;
    const created = await post(here, INVOICES, {
      partner_id: partner,
      currency_id: currency,
      invoice_date: '2026-11-20',
      invoice_date_due: '2026-12-20',
      reference: `Lines ${tag}`,
      invoice_lines: [
        { product_id: products.here!.Desk, uom_id: await uom(products.here!.Desk!), quantity: 2, price_unit: 150, taxes: [tax] },
        { product_id: products.here!.Chair, uom_id: await uom(products.here!.Chair!), quantity: 3, price_unit: 45.5, discount: 10 },
      ],
    });
    assert.is(created.status, 201, created.text);
    return created.body.data.id as number;
  };

  test('CSV: the lines are one JSON cell, each line with its product and taxes by name; imported there, the invoice has the same lines', async () => {
    const id = await invoiceHere();
    const csv = await exported(here, 'csv', id);
    const [row] = parseCsv(csv);
    const lines = JSON.parse(row!.values.invoice_lines as string);
    assert.equal(
      lines.map((line: any) => [line.product_id, line.product, line.quantity, line.price_unit, line.taxes.map((tax: any) => tax.name)]),
      [
        [products.here!.Desk, `Desk ${tag}`, '2.0000', '150.0000', ['15%']],
        [products.here!.Chair, `Chair ${tag}`, '3.0000', '45.5000', []],
      ],
    );

    const before = await invoiceCount(there);
    const imported = await importInto(there, csv);
    assert.is(imported.status, 200, imported.text);
    assert.equal([imported.body.created, imported.body.rejected], [1, []]);
    assert.is(await invoiceCount(there), before + 1);
    const copy = (await there.knex('accounts_account_moves').where('reference', `Lines ${tag}`).first('id')).id;
    const original = await linesOf(here, id);
    assert.equal(await linesOf(there, copy), original, 'the same lines, products found by name');
    assert.equal(original.lines[0].taxes, ['15% sale'], 'of the two taxes named "15%", the sale one');
    const stored = await there.knex('accounts_account_move_lines').where({ move_id: copy, display_type: 'product' }).orderBy('sort').pluck('product_id');
    assert.equal(stored.map(Number), [products.there!.Desk, products.there!.Chair], 'the products there, not the ids of the file');
  });

  test('JSON Lines: the lines are a JSON list, imported the same way', async () => {
    const id = await invoiceHere();
    const jsonl = (await exported(here, 'jsonl', id)).replace(`Lines ${tag}`, `Lines JSON ${tag}`);
    assert.ok(Array.isArray(JSON.parse(jsonl).invoice_lines));
    const imported = await importInto(there, jsonl, JSONL);
    assert.is(imported.status, 200, imported.text);
    assert.is(imported.body.created, 1);
    const copy = (await there.knex('accounts_account_moves').where('reference', `Lines JSON ${tag}`).first('id')).id;
    assert.equal(await linesOf(there, copy), await linesOf(here, id));
  });

  test('a row with the invoice’s id updates it: a line with its id is kept and changed, a line left out is removed', async () => {
    const id = await invoiceHere();
    const url = new URL(`${INVOICES}/export?format=jsonl&fields=id,invoice_lines&filter[id]=${id}`, here.client.baseUrl);
    const row = JSON.parse(await (await request(url, { headers: { authorization: `Bearer ${here.token}` } })).body.text());
    const [desk, chair] = row.invoice_lines;
    const updated = await importInto(here, `${JSON.stringify({ id, invoice_lines: [{ ...chair, quantity: '5.0000' }] })}\n`, JSONL);
    assert.is(updated.status, 200, updated.text);
    assert.equal([updated.body.created, updated.body.updated], [0, 1]);
    const stored = await here.knex('accounts_account_move_lines').where({ move_id: id, display_type: 'product' });
    assert.equal(
      stored.map((line) => [Number(line.id), Number(line.quantity)]),
      [[chair.id, 5]],
      'the chairs’ line kept with its new quantity, the desks’ removed',
    );
    assert.ok(desk.id !== chair.id);
  });

  test('a lines cell that is not JSON, a product not there, a line the create refuses: the row’s error, nothing stored', async () => {
    const id = await invoiceHere();
    const csv = await exported(here, 'csv', id);
    const [header, good] = csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n') as [string, string];
    const lines = JSON.parse(parseCsv(csv)[0]!.values.invoice_lines as string);
    const cell = (value: unknown) => `"${JSON.stringify(value).replace(/"/g, '""')}"`;
    const withLines = (text: string) => good.replace(/"\[.*\]"$/, text);
    const file = [
      header,
      withLines('"[{""product"": ""Desk"",]"'), // row 2: not JSON
      good, // row 3: valid
      withLines(cell([lines[0], { ...lines[1], product: `Nowhere ${tag}` }])), // row 4: no such product there
      withLines(cell([{ ...lines[0], quantity: 'many' }])), // row 5: the create refuses the quantity
      withLines('{}'), // row 6: not a list
    ].join('\r\n');
    const before = await invoiceCount(there);
    const lineCount = async () => Number((await there.knex('accounts_account_move_lines').count({ n: '*' }).first())!.n);
    const linesBefore = await lineCount();

    const refused = await importInto(there, file);
    assert.is(refused.status, 422, refused.text);
    assert.equal(refused.body.rejected, [
      { row: 2, errors: { invoice_lines: ['The invoice lines field is not valid JSON: it holds a list of invoice lines, as an export writes it ([{…}, …]).'] } },
      { row: 4, errors: { 'invoice_lines.1.product': [`The invoice_lines.1.product "Nowhere ${tag}" matches no Product record by name.`] } },
      { row: 5, errors: { 'invoice_lines.0.quantity': ['The invoice_lines.0.quantity field must be a number.'] } },
      { row: 6, errors: { invoice_lines: ['The invoice lines field must be a JSON list of invoice lines, as an export writes it ([{…}, …]).'] } },
    ]);
    assert.is(await invoiceCount(there), before, 'nothing stored: not the valid row either');
    assert.is(await lineCount(), linesBefore, 'no line stored');

    const skipped = await importInto(there, file, CSV, { on_error: 'skip' });
    assert.is(skipped.status, 200, skipped.text);
    assert.equal([skipped.body.created, skipped.body.rejected.map((rejected: any) => rejected.row)], [1, [2, 4, 5, 6]]);
    assert.is(await invoiceCount(there), before + 1, 'on_error=skip: only the valid row');
  });

  test.run();
}
