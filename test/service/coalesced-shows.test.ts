// Shows of one resource that arrive together are read as one statement on a database server
// (engine/sql/coalesced-reads.ts). Each request must still get exactly what it would get alone:
// its own record, a 404 for a record under another parent, deleted or missing, a 401 for a token
// revoked since the process last checked it; and the batch must not cost a statement per request.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, API, sharedApp, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/statements.ts';
import { databaseTargets } from '../helpers/targets.ts';

const CATEGORIES = `${API}/support/uom-categories`;

for (const target of databaseTargets()) {
  const test = suite(`shows that arrive together [${target.name}]`);
  // On SQLite a statement is a call in the process: shows are read one by one there.
  const batched = target.name === 'mysql';
  let app: TestApp & { token: string };
  let first: number;
  let second: number;
  const uoms: number[] = [];
  let deleted: number;
  let elsewhere: number;

  /** Sends every GET in the same turn of the event loop (inject dispatches them before any I/O). */
  const together = (paths: string[], token = app.token) => Promise.all(paths.map((url) => app.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })));
  const answer = (response: { statusCode: number; body: string }) => ({ status: response.statusCode, body: JSON.parse(response.body) });
  const login = async () => (await app.client.post(`${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password } })).body.token as string;
  const uom = async (category: number, name: string) => {
    const created = await app.client.post(`${CATEGORIES}/${category}/uoms`, {
      token: app.token,
      body: { type: 'bigger', name, factor: 10, rounding: 0.01, category_id: category },
    });
    assert.is(created.status, 201, created.text);
    return created.body.data.id as number;
  };

  test.before(async () => {
    app = await sharedApp(target);
    const category = async (name: string) => (await app.client.post(CATEGORIES, { token: app.token, body: { name } })).body.data.id as number;
    first = await category(`Together ${target.name} A ${Date.now()}`);
    second = await category(`Together ${target.name} B ${Date.now()}`);
    for (let i = 0; i < 40; i++) uoms.push(await uom(first, `together ${i}`));
    deleted = await uom(first, 'together deleted');
    assert.is((await app.client.delete(`${CATEGORIES}/${first}/uoms/${deleted}`, { token: app.token })).status, 200);
    elsewhere = await uom(second, 'together elsewhere');
  });

  test('each show gets what it gets alone: its record, or 404 under another parent, deleted or missing', async () => {
    const paths = [
      `${CATEGORIES}/${first}/uoms/${uoms[0]}`,
      `${CATEGORIES}/${first}/uoms/${uoms[1]}`,
      `${CATEGORIES}/${first}/uoms/${uoms[0]}`,
      // A record of the other category, asked under this one, while another request asks for it under its own.
      `${CATEGORIES}/${first}/uoms/${elsewhere}`,
      `${CATEGORIES}/${second}/uoms/${elsewhere}`,
      `${CATEGORIES}/${first}/uoms/${deleted}`,
      `${CATEGORIES}/${first}/uoms/999999999`,
      `${CATEGORIES}/${first}/uoms/${uoms[2]}?include=category`,
    ];
    const alone: unknown[] = [];
    for (const path of paths) alone.push(answer((await together([path]))[0]!));
    assert.equal(
      alone.map((one: any) => one.status),
      [200, 200, 200, 404, 200, 404, 404, 200],
    );
    assert.is((alone[7] as any).body.data.category.id, first);

    let responses: Awaited<ReturnType<typeof together>> = [];
    const sqls: string[] = [];
    const statements = await countStatements(app.knex, async () => (responses = await together(paths)), sqls);
    assert.equal(responses.map(answer), alone);
    // The eight shows' reads (with the token's check), then the one include's category.
    assert.is(statements, batched ? 2 : paths.length + 1, sqls.join('\n'));
  });

  test('many at once: a statement per 32 shows, each its own record', async () => {
    const paths = uoms.map((id) => `${CATEGORIES}/${first}/uoms/${id}`);
    let responses: Awaited<ReturnType<typeof together>> = [];
    const statements = await countStatements(app.knex, async () => (responses = await together(paths)));
    assert.equal(
      responses.map((response) => [response.statusCode, JSON.parse(response.body).data.id]),
      uoms.map((id) => [200, id]),
    );
    assert.is(statements, batched ? 2 : paths.length);
  });

  test('a token revoked since its last request is refused, and the show beside it answered', async () => {
    const [revoked, kept] = [await login(), await login()];
    const path = `${CATEGORIES}/${first}/uoms/${uoms[3]}`;
    // Each token once alone: the process now knows both, and checks them with their reads.
    for (const token of [revoked, kept]) assert.is((await together([path], token))[0]!.statusCode, 200);
    assert.is((await app.client.post(`${API}/logout`, { token: revoked })).status, 200);

    const responses = await Promise.all([revoked, kept, revoked, kept].map(async (token) => (await together([path], token))[0]!));
    assert.equal(
      responses.map((response) => response.statusCode),
      [401, 200, 401, 200],
    );
    assert.equal(JSON.parse(responses[0]!.body), { message: 'Unauthenticated.' });
    assert.is(JSON.parse(responses[1]!.body).data.id, uoms[3]);
  });

  test.run();
}
