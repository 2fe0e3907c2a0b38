// Configuration from environment variables: defaults, and a bad value stops the boot with a
// message naming the variable. No database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig, parseDatabaseUrl } from '../../src/app/config.ts';
import { createKnex } from '../../src/database/connection.ts';

const test = suite('config');

const SECRET = 'a-jwt-secret-of-at-least-32-characters';

/** The ConfigError loadConfig throws for `env`. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new assert.Assertion({ message: `${JSON.stringify(env)} was accepted`, operator: 'throws', expects: 'ConfigError', actual: 'accepted' });
}

test('defaults when nothing is set', () => {
  const config = loadConfig({});
  assert.is(config.port, 3000);
  assert.is(config.host, '127.0.0.1');
  assert.equal(config.database, { client: 'sqlite', filename: 'data/erp.sqlite' });
  assert.is(config.rateLimitMax, 300);
  assert.is(config.rateLimitWindowMs, 60_000);
  assert.is(config.loginRateLimitMax, 10);
  assert.is(config.tokenTtlSeconds, 24 * 3600);
  assert.is(config.logLevel, 'info');
  assert.is(config.trustProxy, false);
  assert.is(config.listCountAhead, 10_000);
  assert.is(config.reportTimeLimitSeconds, 10);
  assert.is(config.reportConcurrency, 2);
  assert.is(config.adminEmail, 'admin@example.com');
  assert.is(config.adminName, 'Administrator');
  assert.is(config.adminPassword, undefined);
  assert.is(config.jwtSecret, undefined, 'on SQLite the secret is created beside the database file');
});

test('empty and blank values count as unset', () => {
  const config = loadConfig({ PORT: '', HOST: '  ', DATABASE_URL: '', TOKEN_TTL: ' ', ADMIN_PASSWORD: '' });
  assert.is(config.port, 3000);
  assert.is(config.host, '127.0.0.1');
  assert.is(config.tokenTtlSeconds, 86400);
  assert.is(config.adminPassword, undefined);
});

test('values that are set are used', () => {
  const config = loadConfig({
    PORT: ' 8080 ',
    HOST: '0.0.0.0',
    DATABASE_URL: 'sqlite::memory:',
    JWT_SECRET: SECRET,
    TOKEN_TTL: '15m',
    ADMIN_EMAIL: 'boss@example.org',
    ADMIN_NAME: 'The Boss',
    ADMIN_PASSWORD: 'long-enough',
    RATE_LIMIT_MAX: '50',
    RATE_LIMIT_WINDOW: '30s',
    LOGIN_RATE_LIMIT_MAX: '3',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'yes',
    REDIS_URL: 'redis://127.0.0.1:6379',
    LIST_COUNT_AHEAD: '500',
    AGGREGATE_TIME_LIMIT: '30s',
    AGGREGATE_CONCURRENCY: '1',
    IMPORT_MAX_BYTES: '65536',
    IMPORT_MAX_ROWS: '100',
    MIGRATE_ON_START: 'false',
    STARTUP_WAIT: '90s',
    CLEANUP_INTERVAL: '1h',
    CHANGES_RETENTION: '7d',
    WEBHOOKS_WORKER: 'false',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOKS_TIMEOUT: '5s',
    WEBHOOKS_RETRY_DELAYS: '10s, 1m,1h',
  });
  assert.equal(config, {
    port: 8080,
    host: '0.0.0.0',
    database: { client: 'sqlite', filename: ':memory:' },
    jwtSecret: SECRET,
    tokenTtlSeconds: 900,
    adminEmail: 'boss@example.org',
    adminName: 'The Boss',
    adminPassword: 'long-enough',
    rateLimitMax: 50,
    rateLimitWindowMs: 30_000,
    loginRateLimitMax: 3,
    redisUrl: 'redis://127.0.0.1:6379',
    metricsToken: undefined,
    maxEventLoopDelayMs: 1000,
    maxHeapUsedMb: 0,
    maxRssMb: 0,
    logLevel: 'warn',
    listCountAhead: 500,
    reportTimeLimitSeconds: 30,
    reportConcurrency: 1,
    importMaxBytes: 65536,
    importMaxRows: 100,
    trustProxy: true,
    migrateOnStart: false,
    startupWaitSeconds: 90,
    cleanupIntervalSeconds: 3600,
    changesRetentionSeconds: 7 * 86400,
    webhooksWorker: false,
    webhookTargets: 'private',
    webhooksTimeoutSeconds: 5,
    webhooksRetryDelaysSeconds: [10, 60, 3600],
  });
});

test('webhook targets: public by default; loopback, or private networks and loopback, when opened', () => {
  assert.is(loadConfig({}).webhookTargets, 'public');
  assert.is(loadConfig({ WEBHOOKS_ALLOW_LOOPBACK_TARGETS: 'true' }).webhookTargets, 'loopback');
  assert.is(loadConfig({ WEBHOOKS_ALLOW_LOOPBACK_TARGETS: 'true', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }).webhookTargets, 'private');
  assert.throws(() => loadConfig({ WEBHOOKS_ALLOW_LOOPBACK_TARGETS: 'maybe' }), /WEBHOOKS_ALLOW_LOOPBACK_TARGETS/);
});

test('webhook retry delays: a list of durations; a bad one names the variable', () => {
  assert.equal(loadConfig({}).webhooksRetryDelaysSeconds, [5, 300, 1800, 7200, 18000, 36000, 36000]);
  assert.throws(() => loadConfig({ WEBHOOKS_RETRY_DELAYS: '5s,soon' }), /WEBHOOKS_RETRY_DELAYS must be a duration/);
});

test('AGGREGATE_CONCURRENCY: at least 1, and fewer than the pool’s connections, so that requests keep one', () => {
  const mysql = { DATABASE_URL: 'mysql://root@127.0.0.1:3306/erp', JWT_SECRET: 'x'.repeat(32), DB_POOL_MAX: '4' };
  assert.is(loadConfig({ ...mysql, AGGREGATE_CONCURRENCY: '3' }).reportConcurrency, 3);
  assert.throws(() => loadConfig({ ...mysql, AGGREGATE_CONCURRENCY: '4' }), /AGGREGATE_CONCURRENCY/);
  assert.throws(() => loadConfig({ AGGREGATE_CONCURRENCY: '0' }), /AGGREGATE_CONCURRENCY/);
});

test('durations: plain seconds, s, m, h and d', () => {
  assert.is(loadConfig({ TOKEN_TTL: '90' }).tokenTtlSeconds, 90);
  assert.is(loadConfig({ TOKEN_TTL: '30s' }).tokenTtlSeconds, 30);
  assert.is(loadConfig({ TOKEN_TTL: '12h' }).tokenTtlSeconds, 12 * 3600);
  assert.is(loadConfig({ TOKEN_TTL: '7d' }).tokenTtlSeconds, 7 * 86400);
  assert.is(loadConfig({ RATE_LIMIT_WINDOW: '2m' }).rateLimitWindowMs, 120_000);
});

test('TRUST_PROXY takes true/false, a hop count, or proxy addresses and CIDR ranges', () => {
  for (const value of ['true', 'TRUE', 'yes']) assert.is(loadConfig({ TRUST_PROXY: value }).trustProxy, true, value);
  for (const value of ['false', 'no', '0']) assert.is(loadConfig({ TRUST_PROXY: value }).trustProxy, false, value);
  assert.is(loadConfig({ TRUST_PROXY: '1' }).trustProxy, 1);
  assert.equal(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1' }).trustProxy, ['10.0.0.0/8', '192.168.1.7', '::1']);
  for (const value of ['10.0.0.0/33', 'proxy.local', '1.2.3.4/8/9']) assert.throws(() => loadConfig({ TRUST_PROXY: value }), /TRUST_PROXY/, value);
});

const BAD: Array<[env: Record<string, string>, variable: string, shows?: RegExp]> = [
  [{ PORT: 'abc' }, 'PORT', /"abc"/],
  [{ PORT: '70000' }, 'PORT', /0 to 65535/],
  [{ PORT: '-1' }, 'PORT'],
  [{ PORT: '80.5' }, 'PORT'],
  [{ DATABASE_URL: 'postgres://x' }, 'DATABASE_URL', /sqlite: or mysql:\/\//],
  [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
  [{ DATABASE_URL: 'mysql://root@localhost:3306/' }, 'DATABASE_URL', /database name/],
  [{ DATABASE_URL: 'mysql://root@localhost:3306/erp' }, 'JWT_SECRET', /required/],
  [{ JWT_SECRET: 'too-short' }, 'JWT_SECRET', /32 characters/],
  [{ DATABASE_URL: 'mysql://root@localhost:3306/erp', JWT_SECRET: 'too-short' }, 'JWT_SECRET', /32 characters/],
  [{ TOKEN_TTL: 'soon' }, 'TOKEN_TTL', /"soon"/],
  [{ TOKEN_TTL: '0' }, 'TOKEN_TTL'],
  [{ TOKEN_TTL: '5w' }, 'TOKEN_TTL'],
  [{ RATE_LIMIT_MAX: '0' }, 'RATE_LIMIT_MAX', /"0"/],
  [{ RATE_LIMIT_WINDOW: 'later' }, 'RATE_LIMIT_WINDOW'],
  [{ LOGIN_RATE_LIMIT_MAX: '-1' }, 'LOGIN_RATE_LIMIT_MAX', /"-1"/],
  [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /fatal, error, warn, info, debug, trace, silent/],
  [{ ADMIN_EMAIL: 'nope' }, 'ADMIN_EMAIL', /"nope"/],
  [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD', /8 characters/],
  [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY', /"maybe"/],
  [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL', /redis:\/\//],
];

for (const [env, variable, shows] of BAD) {
  test(`${JSON.stringify(env)} is refused naming ${variable}`, () => {
    const error = configError(env);
    assert.is(error.name, 'ConfigError');
    assert.ok(error.message.startsWith(`Invalid configuration: ${variable} `), error.message);
    if (shows) assert.match(error.message, shows);
  });
}

test('a password being refused is not shown in the message', () => {
  assert.not.match(configError({ ADMIN_PASSWORD: 'hunter2' }).message, /hunter2/);
  assert.not.match(configError({ JWT_SECRET: 'sekrit-value' }).message, /sekrit-value/);
  const error = configError({ DATABASE_URL: 'mysql://erp:topsecret@db.example.com:notaport/erp', JWT_SECRET: SECRET });
  assert.ok(error.message.startsWith('Invalid configuration: DATABASE_URL '), error.message);
  assert.not.match(error.message, /topsecret/);
});

test('mysql:// URLs: user, encoded password, host, port and database', () => {
  const config = loadConfig({ DATABASE_URL: 'mysql://erp%2Badmin:p%40ss%3Aw%2Frd%23%25@db.example.com:3307/erp_prod', JWT_SECRET: SECRET });
  assert.equal(config.database, {
    client: 'mysql',
    host: 'db.example.com',
    port: 3307,
    user: 'erp+admin',
    password: 'p@ss:w/rd#%',
    database: 'erp_prod',
    poolMax: 12,
    causalReads: true,
  });
  assert.is(config.jwtSecret, SECRET);
});

test('DB_CAUSAL_READS=off leaves Galera sessions without causal reads; anything but auto or off is refused', () => {
  const config = loadConfig({ DATABASE_URL: 'mysql://erp@db.example.com/erp', JWT_SECRET: SECRET, DB_CAUSAL_READS: 'off' });
  assert.is(config.database.client === 'mysql' && config.database.causalReads, false);
  assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://erp@db.example.com/erp', JWT_SECRET: SECRET, DB_CAUSAL_READS: 'sometimes' }), /DB_CAUSAL_READS must be one of auto, off/);
});

test('CLEANUP_INTERVAL=0 turns the periodic clean-up off; MIGRATE_ON_START takes true or false only', () => {
  assert.is(loadConfig({ CLEANUP_INTERVAL: '0' }).cleanupIntervalSeconds, 0);
  assert.throws(() => loadConfig({ MIGRATE_ON_START: 'later' }), /MIGRATE_ON_START must be true or false/);
});

test('DB_POOL_MAX sizes the MySQL pool of each process', async () => {
  const config = loadConfig({ DATABASE_URL: 'mysql://erp@db.example.com/erp', JWT_SECRET: SECRET, DB_POOL_MAX: '20' });
  assert.is(config.database.client === 'mysql' && config.database.poolMax, 20);
  const knex = createKnex(config.database); // connects only when asked for a connection
  try {
    assert.is((knex.client.pool as { max: number }).max, 20);
  } finally {
    await knex.destroy();
  }
  // Fewer than 3 would leave the engine's statements no connection beside the two kept for transactions.
  assert.match(
    configError({ DATABASE_URL: 'mysql://erp@db/erp', JWT_SECRET: SECRET, DB_POOL_MAX: '2' }).message,
    /^Invalid configuration: DB_POOL_MAX must be a whole number from 3 to 1000/,
  );
  assert.equal(loadConfig({ DB_POOL_MAX: '20' }).database, { client: 'sqlite', filename: 'data/erp.sqlite' }, 'SQLite has its two connections');
});

test('mysql:// URLs default to port 3306 and an empty password', () => {
  assert.equal(parseDatabaseUrl('mysql://root@127.0.0.1/erp'), {
    client: 'mysql',
    host: '127.0.0.1',
    port: 3306,
    user: 'root',
    password: '',
    database: 'erp',
  });
});

test('mariadb:// is the same as mysql://', () => {
  assert.equal(parseDatabaseUrl('mariadb://app:secret@db:3308/shop'), {
    client: 'mysql',
    host: 'db',
    port: 3308,
    user: 'app',
    password: 'secret',
    database: 'shop',
  });
});

test('sqlite: URLs: relative, absolute and in memory', () => {
  assert.equal(parseDatabaseUrl('sqlite:data/erp.sqlite'), { client: 'sqlite', filename: 'data/erp.sqlite' });
  assert.equal(parseDatabaseUrl('sqlite:/var/lib/erp/erp.sqlite'), { client: 'sqlite', filename: '/var/lib/erp/erp.sqlite' });
  assert.equal(parseDatabaseUrl('sqlite:///var/lib/erp/erp.sqlite'), { client: 'sqlite', filename: '/var/lib/erp/erp.sqlite' });
  assert.equal(parseDatabaseUrl('sqlite::memory:'), { client: 'sqlite', filename: ':memory:' });
});

test.run();
