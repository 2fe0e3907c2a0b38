// Where webhooks may go (engine/webhooks/target-guard.ts): internal addresses are refused when a
// subscription is saved and again on the connection itself, where a name is resolved (a name
// that pointed outside when saved can point inside later). An operator may open loopback, or
// private networks and loopback; link-local and cloud metadata addresses stay closed, in every form.
import type { LookupAddress } from 'node:dns';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addressKind, checkTarget, guardedLookup, mayReach, TargetRefused, type TargetScope } from '../../engine/index.ts';

const test = suite('webhook targets');

const KINDS = {
  loopback: ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1'],
  private: ['10.0.0.8', '172.16.5.4', '192.168.0.1', '100.64.0.1', 'fd00::1', '::ffff:10.1.1.1', '::ffff:a01:101', '64:ff9b::a01:101'],
  // Link-local (cloud metadata services answer there) and metadata addresses, as IPv4, IPv6,
  // IPv4-mapped (dotted or not, as the URL parser writes them), NAT64 and IPv4-compatible forms.
  never: [
    '169.254.169.254',
    '169.254.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::169.254.169.254',
    '::169.254.169.254',
    'fe80::1',
    'FE80::a9fe:a9fe',
    'febf::1',
    'fe80::1%eth0',
    'fd00:ec2::254',
    '100.100.100.200',
    '0.0.0.0',
    '::',
    '224.0.0.1',
    'ff02::1',
    '255.255.255.255',
    'not an address',
  ],
  public: ['93.184.215.14', '8.8.8.8', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:8.8.8.8', '64:ff9b::808:808', '2001:4860:4860::8888'],
} as const;

test('each address is what it is, in every form', () => {
  for (const [kind, addresses] of Object.entries(KINDS)) {
    for (const address of addresses) assert.is(addressKind(address), kind, address);
  }
});

test('what each setting opens: loopback, then private networks; link-local and metadata never', () => {
  const opens: Record<TargetScope, string[]> = { public: ['public'], loopback: ['public', 'loopback'], private: ['public', 'loopback', 'private'] };
  for (const [scope, kinds] of Object.entries(opens) as Array<[TargetScope, string[]]>) {
    for (const [kind, addresses] of Object.entries(KINDS)) {
      for (const address of addresses) assert.is(mayReach(address, scope), kinds.includes(kind), `${address} with ${scope}`);
    }
  }
});

async function refused(url: string, scope: TargetScope): Promise<string> {
  return checkTarget(url, scope).then(
    () => assert.unreachable(`${url} accepted with ${scope}`) as never,
    (error) => {
      assert.instance(error, TargetRefused, url);
      return (error as Error).message;
    },
  );
}

test('saving: the form and the addresses, as each setting opens them', async () => {
  for (const url of [
    'http://127.0.0.1/x',
    'http://localhost:8080/x',
    'http://[::1]/x',
    'ftp://93.184.215.14/x',
    'https://a:b@93.184.215.14/x',
    'nonsense',
    'https://nowhere.invalid/x',
  ]) {
    await refused(url, 'public');
  }
  await checkTarget('https://93.184.215.14/hooks', 'public');
  await checkTarget('http://127.0.0.1:8080/hooks', 'loopback');
  await checkTarget('http://localhost:8080/hooks', 'loopback');
  await checkTarget('http://[::ffff:127.0.0.1]:8080/hooks', 'loopback');
  await refused('http://10.1.2.3/hooks', 'loopback');
  await checkTarget('http://10.1.2.3/hooks', 'private');
  await checkTarget('http://127.0.0.1:8080/hooks', 'private');
  // Opened for development, a name that does not resolve yet is checked when connecting.
  await checkTarget('https://nowhere.invalid/hooks', 'private');
  await refused('ftp://127.0.0.1/x', 'private');
});

test('saving: link-local and metadata targets are refused whatever the setting, however written', async () => {
  for (const scope of ['public', 'loopback', 'private'] as const) {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://0xa9fea9fe/latest/meta-data/',
      'http://169.254.43518/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
      'http://0.0.0.0:8080/',
    ]) {
      const message = await refused(url, scope);
      if (scope !== 'public') assert.match(message, /link-local, cloud metadata or reserved/, url);
    }
  }
});

/** What the guarded lookup answers for `hostname`, resolved by a resolver that says `addresses`. */
function connect(scope: TargetScope, addresses: LookupAddress[], all: boolean) {
  const resolver = (_hostname: string, _options: { all: true }, callback: (error: NodeJS.ErrnoException | null, found: LookupAddress[]) => void) => callback(null, addresses);
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
    guardedLookup(scope, resolver)('hooks.example.com', { all }, (error, address) => done({ error, address })),
  );
}

test('connecting: a name that resolves inside is refused unless opened, and to link-local or metadata always', async () => {
  const loopback = [{ address: '127.0.0.1', family: 4 }];
  assert.is((await connect('public', loopback, false)).error?.code, 'EWEBHOOKTARGET');
  assert.equal(await connect('loopback', loopback, false), { error: null, address: '127.0.0.1' });
  assert.is((await connect('loopback', [{ address: '10.0.0.1', family: 4 }], false)).error?.code, 'EWEBHOOKTARGET');
  for (const metadata of [
    [{ address: '169.254.169.254', family: 4 }],
    [{ address: '::ffff:a9fe:a9fe', family: 6 }],
    [{ address: 'fe80::1', family: 6 }],
    [{ address: 'fd00:ec2::254', family: 6 }],
  ]) {
    assert.is((await connect('private', metadata, false)).error?.code, 'EWEBHOOKTARGET', metadata[0]!.address);
  }
  // A name with a link-local and a reachable address: only the reachable one is connected to.
  const mixed = [
    { address: '169.254.169.254', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ];
  assert.equal(await connect('private', mixed, false), { error: null, address: '10.0.0.1' });
  assert.equal(await connect('private', mixed, true), { error: null, address: [{ address: '10.0.0.1', family: 4 }] });
});

test('connecting: the system resolver is the default', async () => {
  const resolve = (scope: TargetScope) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
      guardedLookup(scope)('localhost', { all: true }, (error, address) => done({ error, address })),
    );
  assert.is((await resolve('public')).error?.code, 'EWEBHOOKTARGET');
  const allowed = await resolve('loopback');
  assert.is(allowed.error, null);
  assert.ok(Array.isArray(allowed.address) && allowed.address.length > 0);
});

test.run();
