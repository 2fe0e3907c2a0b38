// `npm run erp -- aggregate` (src/cli/aggregate.ts): a resource's grouped totals as a table or as
// CSV, on a migrated and seeded database of each kind, mostly in this process (the command's
// function, on a knex of its own); one child process on SQLite for what `npm run erp` adds (the
// dispatch, the exit code, stderr).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadResources } from '../../src/app/build-app.ts';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { aggregateCommand, type AggregateCommandOptions } from '../../src/cli/aggregate.ts';
import { createKnex } from '../../src/database/connection.ts';
import { seed } from '../../src/seed/index.ts';
import { ADMIN } from '../helpers/app.ts';
import { databaseTargets, freshDatabase, type Target } from '../helpers/targets.ts';
import { builtEntry } from '../helpers/built.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const registry = loadResources();

/** The seeded units of measure by category: most units first, then the categories in order. */
const UOMS_BY_CATEGORY = `category           count  factor:max  rounding:sum
-----------------  -----  ----------  ------------
Length / Distance      8        1000        0.0800
Volume                 7     61.0237        0.0700
Weight                 5        1000        0.0500
Unit                   2           1        0.0200
Working Time           2           8        0.0200
Surface                2    10.76391        0.0200
`;

for (const target of databaseTargets()) {
  const test = suite(`erp aggregate [${target.name}]`);
  let database: { target: Target; drop(): Promise<void> };
  let knex: Knex;

  /** The command in this process: its exit code, what it printed and what it said was wrong. */
  const aggregate = async (args: string[], options: Partial<AggregateCommandOptions> = {}) => {
    let stdout = '';
    const stderr: string[] = [];
    const code = await aggregateCommand(knex, args, { out: (text) => void (stdout += text), err: (text) => void stderr.push(text), registry, ...options });
    return { code, stdout, stderr: stderr.join('\n') };
  };

  test.before(async () => {
    database = await freshDatabase(target, 'cli_aggregate', { migrated: true });
    knex = createKnex(parseDatabaseUrl(database.target.databaseUrl));
    await seed(knex, { adminEmail: ADMIN.email, adminName: ADMIN.name, adminPassword: ADMIN.password }, registry);
  });
  test.after(async () => {
    await knex.destroy();
    await database.drop();
  });

  test('a table: a column per key and measure, a relation by its name, decimals at their scale; a nested resource over every parent', async () => {
    const run = await aggregate(['support/uoms', '--group-by', 'category', '--measures', 'count,factor:max', '--measures', 'rounding:sum', '--sort=-count']);
    assert.is(run.code, 0, run.stderr);
    assert.is(run.stdout, UOMS_BY_CATEGORY);
    const one = await aggregate(['support/uoms', '--parent', '2', '--group-by', 'type', '--measures', 'count']);
    assert.is(one.stdout, 'type       count\n---------  -----\nbigger         1\nreference      1\nsmaller        3\n', '--parent: one category’s units');
  });

  test('--having keeps the groups whose measures meet every condition', async () => {
    const run = await aggregate([
      'support/uoms',
      '--group-by',
      'category',
      '--measures',
      'count,factor:max,rounding:sum',
      '--sort=-count',
      '--having',
      'count>2',
      '--having',
      'factor:max>=1000',
    ]);
    assert.is(run.code, 0, run.stderr);
    assert.is(
      run.stdout,
      UOMS_BY_CATEGORY.split('\n')
        .filter((line) => !/^(Volume|Unit|Working|Surface)/.test(line))
        .join('\n'),
    );
  });

  test('every page of groups is read, not only the first', async () => {
    const run = await aggregate(['support/uoms', '--group-by', 'category', '--measures', 'count,factor:max,rounding:sum', '--sort=-count'], { perPage: 2 });
    assert.is(run.code, 0, run.stderr);
    assert.is(run.stdout, UOMS_BY_CATEGORY);
  });

  test('CSV: a header row, a relation’s id beside its name, null keys empty and last; the table shows them as (none)', async () => {
    const csv = await aggregate(['inventories/locations', '--group-by', 'warehouse,type', '--filter', 'type=view,internal,customer', '--format', 'csv']);
    assert.is(csv.code, 0, csv.stderr);
    assert.is(csv.stdout, 'warehouse_id,warehouse,type,count\r\n1,My Company,internal,1\r\n1,My Company,view,1\r\n,,customer,1\r\n,,view,3\r\n');
    const table = await aggregate(['inventories/locations', '--group-by', 'warehouse,type', '--filter', 'type=view,internal,customer']);
    assert.is(
      table.stdout,
      'warehouse   type      count\n----------  --------  -----\nMy Company  internal      1\nMy Company  view          1\n(none)      customer      1\n(none)      view          3\n',
    );
  });

  test('datetimes by the calendar of UTC unless --tz names a zone', async () => {
    // 23:30 UTC on the 28th is already the 29th in Zurich.
    await knex('unit_of_measures').where('name', 'Dozens').update({ created_at: '2026-03-28 23:30:00.000000' });
    const day = async (...tz: string[]) => (await aggregate(['support/uoms', '--filter', 'name=Dozens', '--group-by', 'created_at:day', '--format', 'csv', ...tz])).stdout;
    assert.is(await day(), 'created_at:day,count\r\n2026-03-28,1\r\n');
    assert.is(await day('--tz', 'Europe/Zurich'), 'created_at:day,count\r\n2026-03-29,1\r\n');
  });

  test('what the API refuses is refused with its messages, and what the command line refuses with its usage: exit 2, nothing printed', async () => {
    const unknown = await aggregate(['support/uoms', '--group-by', 'colour']);
    assert.equal([unknown.code, unknown.stdout], [2, '']);
    assert.is(
      unknown.stderr,
      'Requested group(s) `colour` are not allowed. Allowed group(s) are `type, name, category, creator, created_at, updated_at, deleted_at`. A date or datetime takes a unit: `:day`, `:week`, `:month`, `:quarter`, `:year`.',
    );
    const invalid = await aggregate(['support/uoms', '--measures', 'factor:median', '--tz', 'Mars/Base']);
    assert.is(invalid.code, 2);
    assert.is(
      invalid.stderr,
      '`factor:median`: name a function, one of sum, avg, min, max, count_distinct (`factor:sum`).\nThe tz field must be a valid timezone (an IANA name such as Europe/Zurich).',
    );
    const format = await aggregate(['support/uoms', '--format', 'xml']);
    assert.is(format.code, 2);
    assert.match(format.stderr, /^--format must be one of table, csv\.\nUsage: npm run erp -- aggregate <module\/name> /);
    const noList = await aggregate(['accounts/journal-items']);
    assert.is(noList.code, 2);
    assert.match(noList.stderr, /^accounts\/journal-items has no list, so no grouped totals\./);
  });

  if (target.name === 'sqlite') {
    test('npm run erp -- aggregate: a bad option exits 2 with the message on stderr', async () => {
      const entry = await builtEntry('src/cli/index.ts');
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) =>
        execFile(
          process.execPath,
          [entry, 'aggregate', 'support/uoms', '--group-by', 'category:month'],
          { cwd: ROOT, env: { ...process.env, DATABASE_URL: database.target.databaseUrl }, timeout: 60_000 },
          (error, stdout, stderr) => (error && typeof error.code !== 'number' ? reject(error) : resolve({ code: error ? (error.code as number) : 0, stdout, stderr })),
        ),
      );
      assert.equal(run, { code: 2, stdout: '', stderr: '`category` is not a date: it takes no unit.\n' });
    });
  }

  test.run();
}
