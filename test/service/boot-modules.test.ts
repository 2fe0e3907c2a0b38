// What a start keeps in memory, in a process of its own (a module stays loaded for the process's
// life): the reference page's modules (Swagger UI, @fastify/static) load on the first request for
// the page, not at start, and a start on a seeded database does not load the reference-data packages.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const test = suite('modules loaded at start');

/** The CommonJS packages watched (their files land in require's cache when loaded). */
const PACKAGES = ['@fastify/swagger-ui', '@fastify/static', 'currency-codes'];

// A start on a SQLite file that an earlier process seeded, then a request for the page.
const PROBE = `
import { createRequire } from 'node:module';
import { startApp } from './test/helpers/app.ts';
const cache = createRequire(import.meta.url).cache;
const loaded = () => ${JSON.stringify(PACKAGES)}.filter((name) => Object.keys(cache).some((file) => file.includes('/node_modules/' + name + '/')));
const target = { name: 'sqlite', databaseUrl: 'sqlite:' + process.env.PROBE_DB };
const app = await startApp(target);
const atStart = loaded();
const page = await app.client.get('/api/docs', { headers: { accept: 'text/html' } });
const afterPage = loaded();
await app.close();
console.log(JSON.stringify({ atStart, page: page.status, afterPage }));
`;

test('a start on a seeded database loads neither the page’s modules nor the reference data; the page loads its own', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'erp-boot-modules-'));
  try {
    const database = join(dir, 'probe.sqlite');
    await probe(database); // the first start, which seeds
    const result = JSON.parse((await probe(database)).trim().split('\n').at(-1)!);
    assert.equal(result.atStart, [], 'loaded at start');
    assert.is(result.page, 200);
    assert.equal(result.afterPage, ['@fastify/swagger-ui', '@fastify/static'], 'loaded for the page');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function probe(database: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, PROBE_DB: database };
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE], { cwd: ROOT, env }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

test.run();
