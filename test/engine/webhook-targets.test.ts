// Where webhooks may go (engine/webhooks/target-guard.ts): internal addresses are refused when a
// subscription is saved and again on the connection itself, where a name is resolved (a name
// that pointed outside when saved can point inside later).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTarget, guardedLookup, isInternalAddress, TargetRefused } from '../../engine/index.ts';

const test = suite('webhook targets');

test('internal addresses, IPv4 and IPv6, mapped or not; public ones pass', () => {
  for (const address of [
    '127.0.0.1',
    '10.0.0.8',
    '172.16.5.4',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.1.1',
    'not an address',
  ]) {
    assert.ok(isInternalAddress(address), address);
  }
  for (const address of ['93.184.215.14', '8.8.8.8', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:8.8.8.8']) assert.not.ok(isInternalAddress(address), address);
});

test('saving: the form and the addresses; allowed, only the form', async () => {
  for (const url of ['http://127.0.0.1/x', 'http://localhost:8080/x', 'http://[::1]/x', 'ftp://93.184.215.14/x', 'https://a:b@93.184.215.14/x', 'nonsense']) {
    await checkTarget(url, false).then(
      () => assert.unreachable(url),
      (error) => assert.instance(error, TargetRefused, url),
    );
  }
  await checkTarget('https://93.184.215.14/hooks', false);
  await checkTarget('http://127.0.0.1:8080/hooks', true);
  await checkTarget('ftp://127.0.0.1/x', true).then(
    () => assert.unreachable('ftp allowed'),
    (error) => assert.instance(error, TargetRefused),
  );
});

test('connecting: a name that resolves inside is refused unless allowed', async () => {
  const resolve = (allow: boolean, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) => guardedLookup(allow)('localhost', { all }, (error, address) => done({ error, address })));
  const refused = await resolve(false, false);
  assert.is(refused.error?.code, 'EWEBHOOKTARGET');
  const allowed = await resolve(true, false);
  assert.is(allowed.error, null);
  assert.ok(isInternalAddress(String(allowed.address)));
  const all = await resolve(true, true);
  assert.ok(Array.isArray(all.address) && all.address.length > 0);
});

test.run();
