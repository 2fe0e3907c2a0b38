// A storm of logins does not stall the other requests of the process: three waves of 40
// concurrent logins, beside a steady stream of reads (a user shown every 20 ms), on one real
// service process. No read waits more than 500 ms, the reads' p99 stays at or under 200 ms,
// nothing is shed (503) and every login is answered 200. Passwords are checked off the event loop
// (src/auth/passwords.ts); checked on it, one read waited seconds and the loop lag shed requests.
//
// The storm measures hashing, not the limiters: the login limit stays at its default (10 attempts
// per e-mail and IP a minute) and each of 40 users logs in once a wave (at most 9 times in all);
// the general limit is raised, as one client here stands for many readers. Load shedding stays at
// its default (an event loop lagging over 1 s). A `.timed` test: test/run.ts runs it with the
// machine to itself; other work only adds time, so the storm runs up to three times and the best
// attempt counts for the times (never for the statuses).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type ServiceDatabase, serviceDatabases } from '../helpers/service-databases.ts';
import { runDatabases } from '../helpers/targets.ts';
import { call, loginTo, type ServiceProcess, startService, statusCounts } from '../helpers/service-process.ts';

const API = '/admin/api/v1';
const USERS = 40;
const WAVES = 3;
const READ_EVERY_MS = 20;
const MAX_READ_MS = 500;
const P99_READ_MS = 200;
/** Other work on the machine only adds time: the storm is run up to three times, and the best one counts. */
const ATTEMPTS = 3;

interface Timed {
  status: number;
  ms: number;
}

async function timed(request: Promise<{ status: number }>): Promise<Timed> {
  const started = performance.now();
  const { status } = await request;
  return { status, ms: performance.now() - started };
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

for (const target of serviceDatabases('login_storm', { migrated: true })) {
  const test = suite(`login storm [${target.name}]`);
  // The storm measures where passwords are hashed, the same whatever the database: it runs on
  // SQLite, whose reads hold the process too (the stricter case), and on MySQL/MariaDB only
  // when the run has no SQLite (the login limit below holds on each).
  const storms = target.name === 'sqlite' || !runDatabases().includes('sqlite');
  let database: Awaited<ReturnType<ServiceDatabase['prepare']>>;
  let service: ServiceProcess;
  let token = '';
  const users: Array<{ email: string; password: string }> = [];

  test.before(async () => {
    database = await target.prepare();
    service = await startService({ DATABASE_URL: database.url, LOGIN_RATE_LIMIT_MAX: '10' });
    token = await loginTo(service.baseUrl);
    if (!storms) return;
    for (let n = 1; n <= USERS; n++) {
      const user = { name: `Storm ${n}`, email: `storm-${n}@example.com`, password: `storm-password-${n}` };
      const created = await call(service.baseUrl, 'POST', `${API}/security/users`, { token, body: user });
      assert.is(created.status, 201, JSON.stringify(created.body));
      users.push(user);
    }
  });

  test.after(async () => {
    await service.stop();
    await database.drop();
  });

  if (storms)
    test('three waves of 40 logins beside a stream of reads: no read waits, nothing is shed, every login succeeds', async () => {
      const read = () => timed(call(service.baseUrl, 'GET', `${API}/security/users/1`, { token }));
      for (let n = 0; n < 20; n++) assert.is((await read()).status, 200, 'warm-up read');
      /** The reads answered while `during` runs, one sent every READ_EVERY_MS. */
      const readStream = async (during: () => Promise<void>): Promise<Timed[]> => {
        const reads: Array<Promise<Timed>> = [];
        const stream = setInterval(() => reads.push(read()), READ_EVERY_MS);
        try {
          await during();
        } finally {
          clearInterval(stream);
        }
        return Promise.all(reads);
      };
      const summary = (answers: Timed[]) => {
        const ms = answers.map((answer) => answer.ms);
        return { count: answers.length, max_ms: Math.round(Math.max(...ms)), p99_ms: Math.round(percentile(ms, 0.99)), p50_ms: Math.round(percentile(ms, 0.5)) };
      };

      const attempts: Array<ReturnType<typeof summary>> = [];
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        // The reads alone first, for comparison (printed, not asserted: what the machine gives now).
        const alone = await readStream(() => pause(2000));
        const logins: Timed[] = [];
        const answered = await readStream(async () => {
          await pause(500);
          for (let wave = 0; wave < WAVES; wave++) {
            logins.push(...(await Promise.all(users.map((user) => timed(call(service.baseUrl, 'POST', `${API}/login`, { body: user }))))));
            await pause(500);
          }
        });
        const reads = summary(answered);
        const figures = {
          attempt,
          reads_alone: summary(alone),
          reads,
          read_statuses: statusCounts(answered),
          login_statuses: statusCounts(logins),
          login_max_ms: Math.round(Math.max(...logins.map((login) => login.ms))),
        };
        console.log(`  login storm [${target.name}]: ${JSON.stringify(figures)}`);
        // Whatever the machine: every login answered 200, every read too (none shed).
        assert.equal(figures.login_statuses, { 200: USERS * WAVES }, 'every login answered 200');
        assert.equal(figures.read_statuses, { 200: answered.length }, 'every read answered 200, none shed');
        attempts.push(reads);
        if (reads.max_ms <= MAX_READ_MS && reads.p99_ms <= P99_READ_MS) return;
      }
      assert.unreachable(`in no attempt did every read take at most ${MAX_READ_MS} ms with a p99 at most ${P99_READ_MS} ms: ${JSON.stringify(attempts)}`);
    });

  test('the login limit still holds: the 11th attempt in a minute for one e-mail is refused', async () => {
    const answers: number[] = [];
    for (let n = 0; n < 11; n++) answers.push((await call(service.baseUrl, 'POST', `${API}/login`, { body: { email: 'nobody@example.com', password: 'guess-9' } })).status);
    assert.equal(answers, [...Array<number>(10).fill(401), 429]);
  });

  test.run();
}
