// How test/helpers/guide.ts reads a guide and judges an answer: what it accepts must be exactly
// what the guide shows, so a guide that drifts from the service fails (test/docs/guides.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { difference, type Exchange, GuideError, parseGuide, parseShown, type Program, replayExchange, runProgram } from '../helpers/guide.ts';
import type { Client, Response } from '../helpers/http.ts';

const test = suite('guide reader');

const GUIDE = [
  '# A guide',
  '',
  '```http',
  'POST /sales/orders/1/confirm?include=deliveries',
  'Idempotency-Key: abc',
  '',
  'HTTP/1.1 200 OK',
  'ETag: "<ETAG>"',
  '{"data": {"id": 1, "state": "sale", ...}, "message": "Order confirmed successfully."}',
  '',
  'POST /login',
  '{',
  '  "email": "carl@example.com", "password": "carl-password"',
  '}',
  '',
  'HTTP/1.1 200 OK',
  '{"token": "<CARL_TOKEN>", ...}',
  '```',
  '',
  '```js',
  "console.log('hello');",
  '```',
  '',
  '```text',
  'hello',
  '```',
].join('\n');

test('reads the exchanges and programs of a guide, with their line numbers', () => {
  const steps = parseGuide(GUIDE, 'docs/x.md');
  assert.is(steps.length, 3);
  const [confirm, login, program] = steps as [Exchange, Exchange, any];
  assert.equal(
    [confirm.at, confirm.method, confirm.path, confirm.headers, confirm.body, confirm.status],
    ['docs/x.md:4', 'POST', '/sales/orders/1/confirm?include=deliveries', { 'idempotency-key': 'abc' }, undefined, 200],
  );
  assert.equal(confirm.responseHeaders, { etag: '"<ETAG>"' });
  assert.equal([login.at, login.path, JSON.parse(login.body!), login.status], ['docs/x.md:11', '/login', { email: 'carl@example.com', password: 'carl-password' }, 200]);
  assert.equal([program.kind, program.source, program.prints], ['program', "console.log('hello');", ['hello']]);
});

test('a malformed block is an error naming its line', () => {
  const bad = (block: string) => () => parseGuide(`text\n\n\`\`\`http\n${block}\n\`\`\`\n`, 'docs/y.md');
  assert.throws(bad('FETCH /x'), (error: Error) => error instanceof GuideError && error.message.startsWith('docs/y.md:4: expected a request line'));
  assert.throws(bad('GET /x'), /docs\/y.md:4: the request has no answer/);
  assert.throws(bad('POST /x\n{"a": }\n\nHTTP/1.1 200 OK'), /the request body is not JSON/);
  assert.throws(bad('GET /x\n\nHTTP/1.1 200 OK\n{"a": 1,,}'), /the answer shown is not JSON/);
  assert.throws(() => parseGuide('```js\nx()\n```\n', 'docs/z.md'), /docs\/z.md:2: a js block must be followed by a text block/);
});

test('an object shows every field unless it has ..., a list every entry unless it ends with ...', () => {
  const vars = new Map<string, unknown>();
  const check = (shown: string, actual: unknown) => difference(parseShown(shown), actual, vars);
  assert.is(check('{"a": 1, ...}', { a: 1, b: 2 }), undefined);
  assert.is(check('{"a": 1}', { a: 1, b: 2 }), 'body: the answer also has b (the guide shows no `...` there)');
  assert.is(check('{"a": 1, "b": 3, ...}', { a: 1, b: 2 }), 'body.b: the guide shows 3, the answer has 2');
  assert.is(check('{"c": null, ...}', { a: 1 }), 'body.c: the guide shows null, the answer has no such field');
  assert.is(check('[1, ...]', [1, 2]), undefined);
  assert.is(check('[1]', [1, 2]), 'body: the guide shows 1 entries, the answer has 2');
  assert.is(check('[{"a": 1, ...}, {"a": 2, ...}]', [{ a: 1 }, { a: 3 }]), 'body[1].a: the guide shows 2, the answer has 3');
  assert.is(check('{"amount": "510.0000", ...}', { amount: 510 }), 'body.amount: the guide shows "510.0000", the answer has 510', 'a string is not a number');
  assert.is(check('{"s": "whsec_...", ...}', { s: 'whsec_abc' }), undefined);
  assert.is(check('{"s": "whsec_...", ...}', { s: 'sk_abc' }), 'body.s: the guide shows a string starting "whsec_", the answer has "sk_abc"');
  assert.is(check('{"text": "wait...", ...}', { text: 'wait... and see' }), undefined, '... inside a string is text');
});

test('<NAME> takes the value answered, and later requests use it', async () => {
  const vars = new Map<string, unknown>([['TOKEN', 'admin-token']]);
  assert.is(difference(parseShown('{"data": {"id": <COUNT>, "secret": "<SECRET>"}}'), { data: { id: 7, secret: 's3' } }, vars), undefined);
  assert.equal([vars.get('COUNT'), vars.get('SECRET')], [7, 's3']);
  assert.match(difference(parseShown('{"id": <MISSING>}'), { id: null }, vars)!, /the guide shows a value \(<MISSING>\)/);

  const sent: Array<{ method: string; path: string; headers: Record<string, string>; body?: string }> = [];
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Response => ({ status, headers, body, text: JSON.stringify(body) });
  let next = answer(200, { data: { quantity: 6 } }, { etag: '"abc"' });
  const client = {
    send: async (method: string, path: string, options: any) => {
      sent.push({ method, path, headers: options.headers, body: options.rawBody });
      return next;
    },
  } as unknown as Client;
  const [apply] = parseGuide(
    '```http\nPOST /inventories/quantities/<COUNT>/apply\n{"note": "<SECRET>"}\n\nHTTP/1.1 200 OK\nETag: "<ETAG>"\n{"data": {"quantity": 6}}\n```',
    'docs/g.md',
  ) as Exchange[];
  await replayExchange(client, apply!, vars);
  assert.equal(sent[0], {
    method: 'POST',
    path: '/admin/api/v1/inventories/quantities/7/apply',
    headers: { authorization: 'Bearer admin-token', 'content-type': 'application/json' },
    body: '{"note": "s3"}',
  });
  assert.is(vars.get('ETAG'), 'abc');

  next = answer(422, { message: 'Quantity is locked.' });
  try {
    await replayExchange(client, apply!, vars);
    assert.unreachable('a 422 where the guide shows 200 fails');
  } catch (error) {
    assert.instance(error, GuideError);
    assert.match((error as Error).message, /^docs\/g.md:2 POST \/inventories\/quantities\/7\/apply: the guide shows 200, the service answered 422/);
  }
  next = answer(200, { data: { quantity: 5 } }, { etag: '"abc"' });
  await replayExchange(client, apply!, vars).then(
    () => assert.unreachable('another quantity fails'),
    (error: Error) => assert.match(error.message, /body.data.quantity: the guide shows 6, the answer has 5/),
  );
  const [unbound] = parseGuide('```http\nGET /x/<NOBODY>\n\nHTTP/1.1 200 OK\n```', 'docs/g.md') as Exchange[];
  await replayExchange(client, unbound!, vars).then(
    () => assert.unreachable('an unbound name fails'),
    (error: Error) => assert.match(error.message, /docs\/g.md:2: <NOBODY> is used before an answer shows it/),
  );
});

test('a program must print what the guide shows, against the installation it is pointed at', async () => {
  const program = (source: string, prints: string[]): Program => ({ kind: 'program', at: 'docs/p.md:3', source, prints });
  const source = "console.log('http://127.0.0.1:3000/admin', process.env.TOKEN); setInterval(() => {}, 1000);";
  await runProgram(program(source, ['http://127.0.0.1:4000/admin t0k']), 'http://127.0.0.1:4000', 't0k', 10_000);
  await runProgram(program(source, ['http://127.0.0.1:4000/admin other']), 'http://127.0.0.1:4000', 't0k', 10_000).then(
    () => assert.unreachable('other output fails'),
    (error: Error) => assert.match(error.message, /^docs\/p.md:3: the program printed\n {2}http:\/\/127.0.0.1:4000\/admin t0k\nwhere the guide shows/),
  );
});

test.run();
