// The README's production recipe, `PORT=3001 npm start & PORT=3002 npm start & ...`: several
// `npm start` from one checkout at once, on one fresh database, and more of them starting while
// the first ones load what they compiled. Each compiles what changed and runs it; none may crash
// on another one's build (a process loading dist/ while a sibling deleted and rewrote it died with
// "does not provide an export named ..."), and they prepare the database once between them. The
// checkout is a copy of this one's sources in a temporary folder, without dist/, so that the
// processes really build; node_modules and resources/ are linked, not copied.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serviceDatabases } from '../helpers/service-databases.ts';
import { reapOnExit } from '../helpers/reaped.ts';
import { call, loginTo, PROCESS_ADMIN, PROCESS_SECRET } from '../helpers/service-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API = '/admin/api/v1';
const COPIED = ['engine', 'src', 'migrations', 'scripts', 'bench', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
const LINKED = ['node_modules', 'resources'];
/** Starts on a busy two-core machine (several test processes beside) can take a minute. */
const START_TIMEOUT_MS = 3 * 60_000;

interface Started {
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-checkout-'));
  for (const name of COPIED.filter((name) => existsSync(join(ROOT, name)))) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  for (const name of LINKED) symlinkSync(join(ROOT, name), join(dir, name));
  return dir;
}

/** `npm start` in `dir`, resolved once it listens; rejected with what it printed if it exits first. */
function npmStart(dir: string, env: Record<string, string>): Promise<Started> {
  const child = spawn('npm', ['start'], {
    cwd: dir,
    detached: true, // its own process group: npm, the shell and node stop together
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', JWT_SECRET: PROCESS_SECRET, ADMIN_PASSWORD: PROCESS_ADMIN.password, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child, { group: true });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {} // already gone
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`no start within ${START_TIMEOUT_MS / 1000} s:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/[^/\s]+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ baseUrl: match[1]!, output: () => output, stop });
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`npm start exited before listening:\n${output}`));
    });
  });
}

/** Whether a compiled src/main.js is anywhere in dist/ (at most two levels down). */
function compiledMain(dir: string): boolean {
  const dist = join(dir, 'dist');
  try {
    return existsSync(join(dist, 'src/main.js')) || readdirSync(dist).some((name) => existsSync(join(dist, name, 'src/main.js')));
  } catch {
    return false;
  }
}

/**
 * `count` processes at once, and `later` more as soon as a compiled main.js shows in dist/ (the
 * first ones are loading it): every one that started, or the error of the first that did not.
 */
async function startAll(dir: string, env: Record<string, string>, count: number, later: number): Promise<Started[]> {
  const starts = Array.from({ length: count }, () => npmStart(dir, env));
  let settled = 0;
  for (const start of starts) void start.finally(() => settled++).catch(() => {});
  while (!compiledMain(dir) && settled < count) await new Promise((resolve) => setTimeout(resolve, 25));
  starts.push(...Array.from({ length: later }, () => npmStart(dir, env)));
  const results = await Promise.allSettled(starts);
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(started.map((running) => running.stop()));
    throw (failure as PromiseRejectedResult).reason;
  }
  return started;
}

async function serves(running: Started): Promise<void> {
  assert.is((await call(running.baseUrl, 'GET', '/health')).status, 200, 'GET /health');
  const token = await loginTo(running.baseUrl);
  const uoms = await call(running.baseUrl, 'GET', `${API}/support/uom-categories/1/uoms`, { token });
  assert.is(uoms.status, 200, 'a list of the seeded units of measure');
  assert.ok(uoms.body.data.length > 0);
}

const test = suite('npm start, several at once');

for (const database of serviceDatabases('together')) {
  test(`three npm start at once from a fresh checkout on one fresh ${database.name} database, two more as they load: all serve`, async () => {
    const dir = checkout();
    const { url, drop } = await database.prepare();
    let processes: Started[] = [];
    try {
      processes = await startAll(dir, { DATABASE_URL: url }, 3, 2);
      for (const running of processes) await serves(running);
      assert.is(readdirSync(join(dir, 'dist')).filter((name) => /^[0-9a-f]{16}$/.test(name)).length, 1, 'compiled once, into one folder');

      if (database.name !== 'sqlite') return;
      // A changed source is what the next `npm start` runs; the processes running the old build keep serving.
      appendFileSync(join(dir, 'src/main.ts'), "\nconsole.log('the changed source runs');\n");
      const changed = await npmStart(dir, { DATABASE_URL: url });
      processes.push(changed);
      assert.match(changed.output(), 'the changed source runs');
      for (const running of processes) await serves(running);
    } finally {
      await Promise.all(processes.map((running) => running.stop()));
      await drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test.run();
