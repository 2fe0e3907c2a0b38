// The operators' command line: `npm run erp -- <command> [options]`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { DefinitionError } from '../../engine/definition/definition-error.ts';
import { ConfigError, loadConfig, type Config } from '../app/config.ts';
import type { SeedResult } from '../seed/index.ts';
import { IMPORT_USAGE } from './import-usage.ts';

// Each command loads what it uses when it runs (the engine, the app, the database drivers take
// seconds to load): a usage error or `import`, which only talks to a service, starts at once.
const app = () => import('../app/build-app.ts');
const engine = () => import('../../engine/index.ts');

const USAGE = `Usage: npm run erp -- <command> [options]

Commands:
  migrate                                   the release step: apply pending database migrations, then add the
                                            missing reference data, permissions and administrator (what
                                            npm start does first unless MIGRATE_ON_START=false)
  seed [--demo]                             add the reference data and the administrator (idempotent);
                                            --demo also adds demo partners, products, orders and receipts
  cleanup                                   delete expired idempotency keys and token revocations (every
                                            process also does it every CLEANUP_INTERVAL)
  user:create --email E --name N [--password P] [--role NAME ...]
                                            create a user; prints a generated password when none is given.
                                            The first user of an installation gets the Admin role by default
  webhooks:work                             deliver webhooks in this process until stopped (SIGTERM, SIGINT);
                                            for a deployment that sets WEBHOOKS_WORKER=false on the API processes
  role:list                                 list the roles, with how many permissions and users each has
  check [--database]                        load and check every resource definition; with --database also
                                            against the migrated schema of DATABASE_URL (every column there)
  make:migration [module/name]              write the knex migration that gives the database what the definitions
                                            need and it lacks (tables, columns, indexes); never drops anything
  ${IMPORT_USAGE}
  export <module/name> [--format csv|jsonl|xlsx] [--output FILE] [--parent ID] [--fields a,b]
         [--filter name=value ...] [--sort=-name]
                                            write every row of a resource to a file (default <module>-<name>.<format>),
                                            with a progress bar: for files too large for one request. All companies;
                                            a nested resource without --parent exports the rows of every parent
  aggregate <module/name> [--group-by a,b:month] [--measures count,field:sum,...] [--filter name=value ...]
            [--sort=-count] [--tz Zone] [--parent ID] [--format table|csv]
                                            print a resource's grouped totals, as GET <list path>/aggregate answers
                                            them (every page of groups): an aligned table, or CSV with a relation's
                                            id beside its name. All companies; datetimes' days and months in UTC
                                            unless --tz names a zone; a nested resource without --parent groups
                                            the rows of every parent
  routes                                    print the generated routes
  openapi                                   print the OpenAPI 3.1 document (as served at /api/docs/openapi.json)
  docs:markdown [--write]                   print the Markdown reference, or write it to docs/api.md and the
                                            route table to docs/routes.md

The database is the one DATABASE_URL names (default sqlite:data/erp.sqlite).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'migrate':
      return withDatabase(async (knex, config) => {
        const { prepareDatabase } = await import('../database/prepare-database.ts');
        const prepared = await prepareDatabase(knex, config);
        const applied = prepared.migrations;
        console.log(applied.length > 0 ? `Applied ${applied.length} migration(s):\n  ${applied.join('\n  ')}` : 'Nothing to migrate.');
        printSeeded(prepared, false);
      });
    case 'seed':
      return withDatabase(async (knex, config) => {
        const { prepareDatabase } = await import('../database/prepare-database.ts');
        printSeeded(await prepareDatabase(knex, config), true);
        if (rest.includes('--demo')) {
          const [{ seedDemo }, { resolveJwtSecret }] = await Promise.all([import('../seed/demo.ts'), import('../auth/jwt-secret.ts')]);
          const demo = await seedDemo(knex, config, resolveJwtSecret(config));
          console.log(demo.length > 0 ? `Demo data: ${demo.join(', ')}.` : 'Demo data: already there.');
        }
      });
    case 'cleanup':
      return withDatabase(async (knex) => {
        await migrateUnderLock(knex);
        const { cleanUp } = await import('../database/housekeeping.ts');
        const removed = await cleanUp(knex, loadConfig().changesRetentionSeconds);
        console.log(
          `Deleted ${removed.idempotencyKeys} expired idempotency key(s), ${removed.revokedTokens} expired token revocation(s) and ${removed.changes} change(s) past the feed's retention.`,
        );
      });
    case 'user:create': {
      const values = userOptions(rest);
      if (typeof values === 'string') {
        console.error(`${values}\n${USER_CREATE_USAGE}`);
        return 2;
      }
      return withDatabase(async (knex) => {
        await migrateUnderLock(knex);
        const [{ syncPermissions }, { createUser }, { loadResources }] = await Promise.all([import('../access/permissions.ts'), import('../seed/users.ts'), app()]);
        await syncPermissions(knex, loadResources()); // the roles hold what the registry needs
        const user = await createUser(knex, values);
        const roles = user.roles.length > 0 ? ` with role ${user.roles.join(', ')}` : ' with no role (it may do nothing until given one)';
        console.log(`User ${user.id} created: ${user.email}${user.generatedPassword ? ` / ${user.generatedPassword}  (shown once)` : ''}${roles}`);
      });
    }
    case 'webhooks:work':
      return withDatabase(async (knex, config) => {
        const [{ createStatements, supportsInsertReturning }, { loadResources }, { deliveryWorker }] = await Promise.all([engine(), app(), import('../webhooks/deliveries.ts')]);
        const statements = createStatements(knex, { insertReturns: await supportsInsertReturning(knex) });
        const log = {
          warn: (object: object, message: string) => console.warn(message, JSON.stringify(object)),
          info: (object: object, message: string) => console.log(message, JSON.stringify(object)),
        };
        const worker = deliveryWorker(knex, statements, loadResources(), config, log);
        worker.start();
        console.log('Delivering webhooks; stop with SIGTERM or Ctrl-C.');
        await new Promise<void>((resolve) => {
          process.once('SIGTERM', resolve);
          process.once('SIGINT', resolve);
        });
        await worker.stop();
        await statements.close();
      });
    case 'role:list':
      return withDatabase(async (knex) => {
        await migrateUnderLock(knex);
        const [{ syncPermissions }, { buildModels }, { loadResources }] = await Promise.all([import('../access/permissions.ts'), engine(), app()]);
        await syncPermissions(knex, loadResources());
        const Role = buildModels(loadResources(), knex)['security/roles']!;
        const roles = await Role.query()
          .orderBy('roles.id')
          .select('roles.id', 'roles.name', Role.relatedQuery('permissions').count().as('permissions'), Role.relatedQuery('users').count().as('users'));
        const lines = roles.map((role: any) => `${String(role.id).padStart(4)}  ${role.name}  (${role.permissions} permissions, ${role.users} users)`);
        await print(`${lines.join('\n')}\n`);
      });
    case 'check': {
      const registry = (await app()).loadResources();
      console.log(`${registry.all().length} resource definitions are valid.`);
      if (!rest.includes('--database')) return 0;
      let missing: string[] = [];
      const code = await withDatabase(async (knex) => {
        const { missingColumns, readSchemaBounds } = await engine();
        missing = missingColumns(registry, await readSchemaBounds(knex, registry));
      });
      if (code !== 0) return code;
      if (missing.length > 0) {
        console.error(`The definitions do not match the database schema (run migrate, or a migration is missing):\n  ${missing.join('\n  ')}`);
        return 1;
      }
      console.log('Every stored field has its column in the database; each field takes no more than its column stores.');
      return 0;
    }
    case 'make:migration': {
      const only = rest.find((arg) => !arg.startsWith('-'));
      const registry = (await app()).loadResources();
      return withDatabase(async (knex) => {
        await migrateUnderLock(knex);
        const { generateMigration, readMigratedSchema } = await engine();
        const migration = generateMigration(registry, await readMigratedSchema(knex, registry), only);
        if (!migration) {
          console.log('Nothing to add: the database has every table and column the definitions need.');
          return;
        }
        const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
        const file = fileURLToPath(new URL(`../../migrations/${stamp}_${migration.name}.ts`, import.meta.url));
        writeFileSync(file, migration.source);
        console.log(`Wrote migrations/${stamp}_${migration.name}.ts: review it, then npm run erp -- migrate.`);
      });
    }
    case 'import': {
      const [{ importFile }, { API_PREFIX, loadResources }] = await Promise.all([import('./import-file.ts'), app()]);
      return importFile(loadResources(), API_PREFIX, rest, print);
    }
    case 'export': {
      let code = 0;
      await withDatabase(async (knex) => {
        const { exportCommand } = await import('./export.ts');
        code = await exportCommand(knex, rest);
      });
      return code;
    }
    case 'aggregate': {
      let code = 0;
      await withDatabase(async (knex) => {
        const { aggregateCommand } = await import('./aggregate.ts');
        code = await aggregateCommand(knex, rest, { out: print, err: (text) => console.error(text) });
      });
      return code;
    }
    case 'routes': {
      const [{ routeTable }, { API_PREFIX, loadResources }] = await Promise.all([engine(), app()]);
      const lines = loadResources()
        .all()
        .flatMap((def) => routeTable(def, API_PREFIX).map((route) => `${route.method.padEnd(7)} ${route.path}  (${def.name} ${route.operation})`));
      await print(`${lines.join('\n')}\n`);
      return 0;
    }
    case 'openapi': {
      const [{ buildApiDocument }, { API_PREFIX, loadResources }] = await Promise.all([import('../http/api-docs.ts'), app()]);
      await print(`${JSON.stringify(buildApiDocument(loadResources(), API_PREFIX), null, 2)}\n`);
      return 0;
    }
    case 'docs:markdown': {
      const [{ buildApiMarkdown, MARKDOWN_FILE }, { buildRouteTable, ROUTES_FILE }, { API_PREFIX, loadResources }] = await Promise.all([
        import('../http/api-docs.ts'),
        import('../http/route-docs.ts'),
        app(),
      ]);
      const markdown = buildApiMarkdown(loadResources(), API_PREFIX);
      if (!rest.includes('--write')) {
        await print(markdown);
        return 0;
      }
      const write = (name: string, text: string) => {
        const file = fileURLToPath(new URL(`../../${name}`, import.meta.url));
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      };
      write(MARKDOWN_FILE, markdown);
      write(ROUTES_FILE, buildRouteTable(loadResources(), API_PREFIX));
      console.log(`Wrote ${MARKDOWN_FILE} and ${ROUTES_FILE}.`);
      return 0;
    }
    default:
      console.log(USAGE);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

/** Writes to stdout and waits until it is flushed: process.exit() would cut a long text short on a pipe. */
function print(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
}

const USER_CREATE_USAGE = 'Usage: npm run erp -- user:create --email E --name N [--password P] [--role NAME ...]';

/** The options of user:create, or what is wrong with them. */
function userOptions(args: string[]): { email: string; name: string; password?: string; roles?: string[] } | string {
  let values: { email?: string; name?: string; password?: string; role?: string[] };
  try {
    ({ values } = parseArgs({ args, options: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' }, role: { type: 'string', multiple: true } } }));
  } catch (error) {
    return (error as Error).message; // an unknown option, a missing value or a stray argument
  }
  if (!values.email || !values.name) return 'user:create needs --email and --name.';
  // The rule the login applies: a user created with anything else could never log in.
  if (!/^[^\s@]+@[^\s@]+$/.test(values.email.trim())) return `--email is not an e-mail address: "${values.email}"`;
  if (values.password !== undefined && values.password.length < 8) return 'The password must be at least 8 characters long.';
  return { email: values.email, name: values.name, password: values.password, roles: values.role };
}

/** What the seed added (nothing: a line saying so only when `always`), and a generated password, shown once. */
function printSeeded(result: SeedResult, always: boolean): void {
  const added = Object.entries(result.added).filter(([, count]) => count > 0);
  if (added.length > 0) console.log(`Seeded: ${added.map(([what, count]) => `${count} ${what}`).join(', ')}.`);
  else if (always) console.log('Nothing to seed: the reference data is already there.');
  if (result.admin?.generatedPassword) console.log(`Administrator created: ${result.admin.email} / ${result.admin.generatedPassword}  (shown once)`);
}

/** The migrations, one process at a time (a service may be starting meanwhile). */
async function migrateUnderLock(knex: Knex): Promise<string[]> {
  const [{ withStartupLock }, { migrateLatest }] = await Promise.all([import('../database/startup-lock.ts'), import('../database/migrations.ts')]);
  return withStartupLock(knex, () => migrateLatest(knex), loadConfig().startupWaitSeconds * 1000);
}

async function withDatabase(work: (knex: Knex, config: Config) => Promise<void>): Promise<number> {
  const config = loadConfig();
  const { createKnex } = await import('../database/connection.ts');
  const knex = createKnex(config.database);
  try {
    await work(knex, config);
    return 0;
  } finally {
    await knex.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error) => {
    // The modules that throw these are loaded by the time they throw.
    const [{ UserExistsError, UnknownRoleError }, { StartupLockTimeout }] = await Promise.all([import('../seed/users.ts'), import('../database/startup-lock.ts')]);
    if (
      error instanceof ConfigError ||
      error instanceof DefinitionError ||
      error instanceof UserExistsError ||
      error instanceof UnknownRoleError ||
      error instanceof StartupLockTimeout
    )
      console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
