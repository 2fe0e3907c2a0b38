// Configuration from environment variables. A bad value stops the boot with a message naming
// the variable; every variable and its default is documented in the README.
import { isIP } from 'node:net';
import type { TargetScope } from '../../engine/index.ts';

export type DatabaseConfig =
  | { client: 'sqlite'; filename: string }
  | {
      client: 'mysql';
      host: string;
      port: number;
      user: string;
      password: string;
      database: string;
      poolMax?: number;
      /** On a Galera node, every session waits for causal reads (wsrep_sync_wait = 1); false: never. */
      causalReads?: boolean;
    };

/**
 * MySQL/MariaDB connections per process. The engine's statements may use all but two of them
 * (engine/sql/statements.ts), so 12 gives them the 10 connections of knex's default pool.
 */
export const DEFAULT_DB_POOL_MAX = 12;

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Unset on SQLite until resolveJwtSecret() reads or creates the secret file. */
  jwtSecret?: string;
  tokenTtlSeconds: number;
  adminEmail: string;
  adminName: string;
  adminPassword?: string;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  loginRateLimitMax: number;
  /** Rate-limit counters shared by every process (redis://host:6379); none: each process counts alone. */
  redisUrl?: string;
  /** Bearer token /metrics asks for; none: /metrics is open (keep it off the public network). */
  metricsToken?: string;
  /** Load shedding: past these, new requests get 503 instead of queueing (0: that measure is off). */
  maxEventLoopDelayMs: number;
  maxHeapUsedMb: number;
  maxRssMb: number;
  logLevel: string;
  /** false: the process does not migrate or seed, it waits for the release step (npm run erp -- migrate). */
  migrateOnStart: boolean;
  /** How long a starting process waits for another one's migrations, or for the release step, in seconds. */
  startupWaitSeconds: number;
  /** How long the change feed keeps a change, in seconds; an older cursor answers 410. */
  changesRetentionSeconds: number;
  /** Webhook deliveries run in this process (false: only in `npm run erp -- webhooks:work`). */
  webhooksWorker: boolean;
  /**
   * What webhook targets may be besides public addresses (against SSRF): `loopback`
   * (WEBHOOKS_ALLOW_LOOPBACK_TARGETS), `private` networks and loopback (WEBHOOKS_ALLOW_PRIVATE_TARGETS).
   * Link-local and cloud metadata addresses never.
   */
  webhookTargets: TargetScope;
  /** How long a webhook receiver has to answer, in seconds. */
  webhooksTimeoutSeconds: number;
  /** The delays before each new attempt at a failed delivery, in seconds; after the last, it fails and its webhook is disabled. */
  webhooksRetryDelaysSeconds: number[];
  /** Expired idempotency keys and token revocations are deleted this often, in seconds (0: only by `erp cleanup`). */
  cleanupIntervalSeconds: number;
  /** A list's count stops this many rows past the requested page; beyond, meta.total is a lower bound (0: always exact). */
  listCountAhead: number;
  /** How long a grouped total may read before it answers 503 (AGGREGATE_TIME_LIMIT). */
  reportTimeLimitSeconds: number;
  /** MySQL/MariaDB: how many grouped totals read at once (AGGREGATE_CONCURRENCY); the others wait their turn. */
  reportConcurrency: number;
  /** One import request's bounds: its body in bytes (413 beyond) and its rows (422 beyond). */
  importMaxBytes: number;
  importMaxRows: number;
  /** Fastify's trustProxy: false, true (any proxy: a client can pick its address), a hop count, or proxy addresses/CIDR ranges. */
  trustProxy: boolean | number | string[];
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const database = parseDatabaseUrl(read(env, 'DATABASE_URL') ?? 'sqlite:data/erp.sqlite');
  // SQLite has one writing connection and one reading connection whatever this says.
  const poolMax = integer(env, 'DB_POOL_MAX', DEFAULT_DB_POOL_MAX, 3, 1000);
  if (database.client === 'mysql') {
    database.poolMax = poolMax;
    database.causalReads = choice(env, 'DB_CAUSAL_READS', ['auto', 'off'], 'auto') === 'auto';
  }
  const jwtSecret = read(env, 'JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters long');
  if (database.client === 'mysql' && jwtSecret === undefined) {
    throw new ConfigError('JWT_SECRET', 'is required when DATABASE_URL points at MySQL/MariaDB (every API process must share it)');
  }
  const adminEmail = read(env, 'ADMIN_EMAIL') ?? 'admin@example.com';
  if (!/^[^\s@]+@[^\s@]+$/.test(adminEmail)) throw new ConfigError('ADMIN_EMAIL', `is not an e-mail address: "${adminEmail}"`);
  const adminPassword = read(env, 'ADMIN_PASSWORD');
  if (adminPassword !== undefined && adminPassword.length < 8) throw new ConfigError('ADMIN_PASSWORD', 'must be at least 8 characters long');
  const logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '127.0.0.1',
    database,
    jwtSecret,
    tokenTtlSeconds: duration(env, 'TOKEN_TTL', '24h'),
    adminEmail,
    adminName: read(env, 'ADMIN_NAME') ?? 'Administrator',
    adminPassword,
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 300, 1),
    rateLimitWindowMs: duration(env, 'RATE_LIMIT_WINDOW', '1m') * 1000,
    loginRateLimitMax: integer(env, 'LOGIN_RATE_LIMIT_MAX', 10, 1),
    redisUrl: redisUrl(env),
    metricsToken: read(env, 'METRICS_TOKEN'),
    maxEventLoopDelayMs: integer(env, 'MAX_EVENT_LOOP_DELAY_MS', 1000, 0),
    maxHeapUsedMb: integer(env, 'MAX_HEAP_USED_MB', 0, 0),
    maxRssMb: integer(env, 'MAX_RSS_MB', 0, 0),
    logLevel,
    listCountAhead: integer(env, 'LIST_COUNT_AHEAD', 10_000, 0),
    reportTimeLimitSeconds: duration(env, 'AGGREGATE_TIME_LIMIT', '10s'),
    // Fewer than the pool's connections, so that requests always keep one.
    reportConcurrency: integer(env, 'AGGREGATE_CONCURRENCY', 2, 1, poolMax - 1),
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', 10 * 1024 * 1024, 1024),
    importMaxRows: integer(env, 'IMPORT_MAX_ROWS', 5000, 1),
    migrateOnStart: boolean(env, 'MIGRATE_ON_START', true),
    startupWaitSeconds: duration(env, 'STARTUP_WAIT', '5m'),
    changesRetentionSeconds: duration(env, 'CHANGES_RETENTION', '30d'),
    webhooksWorker: boolean(env, 'WEBHOOKS_WORKER', true),
    webhookTargets: webhookTargets(env),
    webhooksTimeoutSeconds: duration(env, 'WEBHOOKS_TIMEOUT', '10s'),
    webhooksRetryDelaysSeconds: durations(env, 'WEBHOOKS_RETRY_DELAYS', '5s,5m,30m,2h,5h,10h,10h'),
    cleanupIntervalSeconds: read(env, 'CLEANUP_INTERVAL') === '0' ? 0 : duration(env, 'CLEANUP_INTERVAL', '10m'),
    trustProxy: trustProxy(env),
  };
}

export function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (filename === '') throw new ConfigError('DATABASE_URL', 'needs a file after "sqlite:" (e.g. sqlite:data/erp.sqlite or sqlite::memory:)');
    return { client: 'sqlite', filename };
  }
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) {
    let parsed: URL;
    try {
      parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    } catch {
      throw new ConfigError('DATABASE_URL', `is not a valid URL: "${url.replace(/:[^:@/]*@/, ':***@')}"`);
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (!database) throw new ConfigError('DATABASE_URL', 'needs a database name (mysql://user:pass@host:3306/erp)');
    return {
      client: 'mysql',
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : 3306,
      user: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
      database,
    };
  }
  throw new ConfigError('DATABASE_URL', 'must start with sqlite: or mysql://');
}

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function webhookTargets(env: Env): TargetScope {
  if (boolean(env, 'WEBHOOKS_ALLOW_PRIVATE_TARGETS', false)) return 'private';
  return boolean(env, 'WEBHOOKS_ALLOW_LOOPBACK_TARGETS', false) ? 'loopback' : 'public';
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', 'yes', '1'].includes(raw)) return true;
  if (['false', 'no', '0'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function choice<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!allowed.includes(raw as T)) throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
  return raw as T;
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''} (got "${raw}")`);
  }
  return Number(raw);
}

function redisUrl(env: Env): string | undefined {
  const raw = read(env, 'REDIS_URL');
  if (raw === undefined) return undefined;
  if (!/^rediss?:\/\/[^/\s]+/.test(raw)) throw new ConfigError('REDIS_URL', `must be a redis:// or rediss:// URL (got "${raw.replace(/:[^:@/]*@/, ':***@')}")`);
  return raw;
}

/** TRUST_PROXY: true/false, a hop count (1 behind one load balancer), or addresses and CIDR ranges, comma-separated. */
function trustProxy(env: Env): Config['trustProxy'] {
  const raw = read(env, 'TRUST_PROXY')?.toLowerCase();
  if (raw === undefined || ['false', 'no', '0'].includes(raw)) return false;
  if (['true', 'yes'].includes(raw)) return true;
  if (/^[0-9]{1,2}$/.test(raw)) return Number(raw);
  const proxies = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const address = (part: string) => {
    const [ip, bits, extra] = part.split('/');
    if (extra !== undefined || !ip || isIP(ip) === 0) return false;
    return bits === undefined || (/^[0-9]{1,3}$/.test(bits) && Number(bits) <= (isIP(ip) === 4 ? 32 : 128));
  };
  if (proxies.length > 0 && proxies.every(address)) return proxies;
  throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count (e.g. 1) or proxy addresses/CIDR ranges such as 10.0.0.0/8 (got "${raw}")`);
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** "90" (seconds), "30s", "15m", "12h", "7d" → seconds. */
/** A comma-separated list of durations, each as `duration` reads it. */
function durations(env: Env, name: string, fallback: string): number[] {
  const raw = read(env, name) ?? fallback;
  return raw.split(',').map((part) => duration({ [name]: part.trim() }, name, part.trim()));
}

function duration(env: Env, name: string, fallback: string): number {
  const raw = read(env, name) ?? fallback;
  const match = /^([0-9]+)\s*([smhd]?)$/.exec(raw);
  if (!match || Number(match[1]) === 0) throw new ConfigError(name, `must be a duration such as 90, 30s, 15m, 12h or 7d (got "${raw}")`);
  return Number(match[1]) * UNITS[match[2] || 's']!;
}
