// Starts the real service (migrated, seeded) on a free port for a database target.
// The default app of a target is shared by every suite of the run; tests that need other
// settings (low rate limits, short token lifetimes) start their own with `startApp`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { loadConfig, parseDatabaseUrl, type Config } from '../../src/app/config.ts';
import { createKnex } from '../../src/database/connection.ts';
import { migrateLatest } from '../../src/database/migrations.ts';
import { seed } from '../../src/seed/index.ts';
import { syncPermissions } from '../../src/access/permissions.ts';
import { buildServer, loadResources } from '../../src/app/build-app.ts';
import { Client } from './http.ts';
import { copyMysqlTemplate, copySqliteTemplate, memoryFromTemplate } from './migrated-template.ts';
import { freshDatabase, type Target } from './targets.ts';

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1', name: 'Administrator' };
export const API = '/admin/api/v1';
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123';

export interface TestApp {
  target: Target;
  app: FastifyInstance;
  knex: Knex;
  config: Config;
  client: Client;
  /** Everything the app logged, for tests that check what reaches the logs. */
  logs: string[];
  /** A fresh token for the administrator. */
  login(): Promise<string>;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse an existing database connection (a second process on the same database). */
  knex?: Knex;
  /** Seed only the administrator (fast), not the reference data. */
  minimalSeed?: boolean;
  jwtSecret?: string;
  /** Definitions from another folder (a test's own copy). */
  resourcesDir?: string;
  /** Runs on the migrated, seeded database before the server is built. */
  prepare?: (knex: Knex) => Promise<void>;
}

export async function startApp(target: Target, options: StartOptions = {}): Promise<TestApp> {
  const config = loadConfig({
    DATABASE_URL: target.databaseUrl,
    JWT_SECRET: options.jwtSecret ?? TEST_JWT_SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'info',
    RATE_LIMIT_MAX: '1000000',
    LOGIN_RATE_LIMIT_MAX: '1000000',
    // Every suite's apps share one process, whose event loop the others block: no load shedding
    // unless a test asks for it.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    // Webhook targets the suites create (https://example.com/...) do not resolve (the tests run
    // offline), which a service opened for private targets accepts. test/service/webhooks.test.ts
    // checks the refusals on services that are not opened and that are.
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    // Nothing here waits for deliveries: test/service/webhooks.test.ts runs real processes for that.
    WEBHOOKS_WORKER: 'false',
    // The periodic clean-up would run its statements in the middle of tests that count them.
    CLEANUP_INTERVAL: '0',
    ...options.env,
  });
  const knex = options.knex ?? createKnex(config.database);
  // In memory: a copy of the migrated template (the migrations then find nothing to do).
  if (!options.knex && config.database.client === 'sqlite' && config.database.filename === ':memory:') await memoryFromTemplate(knex);
  await migrateLatest(knex);
  if (options.minimalSeed) {
    const { seedAdmin } = await import('../../src/seed/users.ts');
    await syncPermissions(knex, loadResources(options.resourcesDir));
    await seedAdmin(knex, { email: ADMIN.email, name: ADMIN.name, password: ADMIN.password });
  } else {
    await seed(knex, { adminEmail: ADMIN.email, adminName: ADMIN.name, adminPassword: ADMIN.password }, loadResources(options.resourcesDir));
  }
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  await options.prepare?.(knex);
  const app = await buildServer({ config, knex, jwtSecret: options.jwtSecret ?? TEST_JWT_SECRET, logStream, resourcesDir: options.resourcesDir });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const client = new Client(`http://127.0.0.1:${port}`);
  return {
    target,
    app,
    knex,
    config,
    client,
    logs,
    async login() {
      const response = await client.post(`${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password } });
      if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
      return response.body.token as string;
    },
    async close() {
      await app.close();
      if (!options.knex) await knex.destroy();
    },
  };
}

const shared = new Map<string, Promise<TestApp>>();
const sharedFiles: string[] = [];

/**
 * The app shared by all suites for this target, with an admin token. On SQLite it uses a file, as
 * an installation does (reads then take their own connection); apps started alone use memory.
 */
export async function sharedApp(target: Target): Promise<TestApp & { token: string }> {
  if (!shared.has(target.name)) {
    shared.set(
      target.name,
      (async () => {
        let databaseTarget = target;
        if (target.name === 'sqlite') {
          const dir = mkdtempSync(join(tmpdir(), 'erp-shared-'));
          sharedFiles.push(dir);
          databaseTarget = { ...target, databaseUrl: `sqlite:${join(dir, 'erp.sqlite')}` };
          await copySqliteTemplate(join(dir, 'erp.sqlite'));
        } else {
          // The run's database (test/run.ts made it, empty): the migrated template's copy.
          const config = parseDatabaseUrl(target.databaseUrl);
          if (config.client === 'mysql') await copyMysqlTemplate(config, config.database);
        }
        return startApp(databaseTarget);
      })(),
    );
  }
  const testApp = await shared.get(target.name)!;
  return Object.assign(testApp, { token: (testApp as any).token ?? ((testApp as any).token = await testApp.login()) });
}

const drops: Array<() => Promise<void>> = [];

/**
 * A second installation for this target, shared like the first: a fresh database of the same
 * seed, for tests that carry data from one installation to another (an export imported elsewhere).
 */
export function secondApp(target: Target): Promise<TestApp & { token: string }> {
  return appOfItsOwn(target, 'second');
}

/**
 * An installation of its own, on a fresh copy of the migrated, seeded database (`name` tells it
 * apart; one per name and target in a run): for a suite whose writes would be other suites'
 * surprises (hostile input sets any value a field takes).
 */
export async function appOfItsOwn(target: Target, name: string): Promise<TestApp & { token: string }> {
  const key = `${target.name}:${name}`;
  if (!shared.has(key)) {
    shared.set(
      key,
      freshDatabase(target, name, { migrated: true }).then(({ target: databaseTarget, drop }) => {
        drops.push(drop);
        return startApp(databaseTarget);
      }),
    );
  }
  const testApp = await shared.get(key)!;
  return Object.assign(testApp, { token: (testApp as any).token ?? ((testApp as any).token = await testApp.login()) });
}

/** Closes the shared apps; test/run.ts's uvu process calls it once all suites ran. */
export async function closeSharedApps(): Promise<void> {
  for (const app of shared.values()) await (await app).close();
  shared.clear();
  for (const drop of drops.splice(0)) await drop();
  for (const dir of sharedFiles.splice(0)) rmSync(dir, { recursive: true, force: true });
}
