// A client typed from the served document (openapi-typescript, the usual generator) knows the
// bodies actions take: a call to `pay` with its body type-checks, one with a wrong body does not,
// and the answers are typed too (a reversal's 201). So are a list's search and a grouped total's
// dimensions and measures.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const run = promisify(execFile);

// Written as a client would: the generated `paths`, and a small typed `post` over them.
const CLIENT = `import type { paths } from './schema';

type Operation<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;
type Body<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Answer<O, S extends number> = O extends { responses: { [K in S]: { content: { 'application/json': infer A } } } } ? A : never;
declare function post<P extends keyof paths, S extends number>(path: P, id: number, body: Body<Operation<P>>, status: S): Promise<Answer<Operation<P>, S>>;

export async function payHalf(invoice: number): Promise<string | null> {
  const paid = await post('/admin/api/v1/accounts/invoices/{id}/pay', invoice, { amount: 115, payment_date: '2026-11-20', journal_id: 7, communication: 'Half now' }, 200);
  return paid.data.payment_state;
}

export async function payWhatIsDue(invoice: number) {
  return post('/admin/api/v1/accounts/invoices/{id}/pay', invoice, {}, 200);
}

export async function reverse(invoice: number): Promise<string | null> {
  const note = await post('/admin/api/v1/accounts/invoices/{id}/reverse', invoice, { reason: 'Damaged goods' }, 201);
  return note.data.move_type;
}

export async function returnOne(receipt: number, move: number) {
  return post('/admin/api/v1/inventories/receipts/{id}/return', receipt, { moves: [{ id: move, quantity: 1 }] }, 200);
}

// Lists and grouped totals: the query a GET takes, and its answer.
type Read<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
type Ok<O> = O extends { responses: { 200: { content: { 'application/json': infer A } } } } ? A : never;
declare function get<P extends keyof paths>(path: P, query: Query<Read<P>>): Promise<Ok<Read<P>>>;

export async function zurichPartners(): Promise<string | undefined> {
  const found = await get('/admin/api/v1/partners/partners', { search: 'zurich', 'filter[account_type]': ['company'] });
  return found.data[0]?.name;
}

export async function salesByMonth(): Promise<number> {
  const totals = await get('/admin/api/v1/sales/orders/aggregate', { group_by: ['date_order:month', 'partner'], measures: ['count', 'amount_total:sum'], search: 'azure' });
  return totals.meta.total_groups;
}

// @ts-expect-error: a search is text
get('/admin/api/v1/partners/partners', { search: 5 });
// @ts-expect-error: grouped by what the resource offers
get('/admin/api/v1/sales/orders/aggregate', { group_by: ['no_such_field:month'] });
// @ts-expect-error: a currency's rates have no text to search
get('/admin/api/v1/support/currencies/{currency_id}/rates', { search: 'rate' });
// @ts-expect-error: an amount is a number
post('/admin/api/v1/accounts/invoices/{id}/pay', 1, { amount: 'all' }, 200);
// @ts-expect-error: a return's entry needs its quantity
post('/admin/api/v1/inventories/receipts/{id}/return', 1, { moves: [{ id: 3 }] }, 200);
`;

for (const target of databaseTargets().filter((t) => t.name === 'sqlite')) {
  const test = suite('typed client');

  test('openapi-typescript types from the served document: a call to pay with its body type-checks; a wrong one does not', async () => {
    const { client } = await sharedApp(target);
    const served = await client.get('/api/docs/openapi.json');
    assert.is(served.status, 200);
    const dir = mkdtempSync(join(tmpdir(), 'erp-typed-client-'));
    try {
      writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(served.body)));
      writeFileSync(join(dir, 'client.ts'), CLIENT);
      const options = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--lib', 'es2022'];
      const checked = await run(process.execPath, [TSC, ...options, join(dir, 'client.ts')], { cwd: dir }).catch((error) => error);
      assert.is(checked.code ?? 0, 0, `tsc: ${checked.stdout}${checked.stderr}`);
      // The check can fail: the same client without its expectations of errors does not compile.
      writeFileSync(join(dir, 'client.ts'), CLIENT.replace(/\/\/ @ts-expect-error.*\n/g, ''));
      const refused = await run(process.execPath, [TSC, ...options, join(dir, 'client.ts')], { cwd: dir }).catch((error) => error);
      assert.is(refused.code, 2, 'tsc refuses the wrong bodies');
      assert.match(refused.stdout, /client\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number/);
      assert.match(refused.stdout, /Property 'quantity' is missing/);
      assert.match(refused.stdout, /"no_such_field:month"/, 'an unknown group');
      assert.match(refused.stdout, /'search' does not exist/, 'no search where none is offered');
      assert.is((refused.stdout.match(/error TS/g) ?? []).length, 5, refused.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.run();
}
