// Grouped totals beside other requests, for `npm run bench` (`--only aggregate`): UOM shows
// measured idle, then again while `clients` loops each send a heavy grouped total
// (GET <list path>/aggregate over a category of a million UOMs) one after the other, in
// alternating rounds (medians). The issue's criterion: the shows' p99 beside the aggregates within
// 2x of their idle p99. Also measured: one heavy aggregate alone, and what the looping aggregates
// got (how many answered, how long each took, how many were not 2xx: 503 past
// AGGREGATE_TIME_LIMIT).
import { createKnex } from '../src/database/connection.ts';
import { loadConfig } from '../src/app/config.ts';
import { BENCH_PASSWORD, benchCall, rssOf, timedGet, timedRow, type Measured, type Scenario, type Timed } from './load.ts';

export const AGGREGATE_CATEGORY = 'Bench aggregate category';

/**
 * A category holding `count` UOMs of its own, written straight to the database before the server
 * starts: multi-row INSERTs of 1,000 rows (`VALUES (...), (...)`: 8,000 bindings), 50,000 rows a transaction. Names repeat every 100,000
 * rows, and the creation times spread over two years (one UOM every ~63 s), so that a group by
 * name or by day has many groups. Returns the seconds it took.
 */
export async function prepareAggregateUoms(databaseUrl: string, count: number): Promise<number> {
  const started = performance.now();
  const knex = createKnex(loadConfig({ DATABASE_URL: databaseUrl, JWT_SECRET: 'x'.repeat(40), ADMIN_PASSWORD: BENCH_PASSWORD }).database);
  try {
    const now = '2025-01-31 09:30:00.000000';
    const [id] = await knex('unit_of_measure_categories').insert({ name: AGGREGATE_CATEGORY, created_at: now, updated_at: now });
    const from = Date.parse('2025-01-01T00:00:00Z');
    const step = Math.floor((2 * 365 * 86_400_000) / Math.max(1, count));
    const stems = ['kg', 'gram', 'pound', 'ounce', 'liter', 'meter', 'box', 'bag'];
    const stored = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}.000000`;
    const columns = ['type', 'name', 'factor', 'rounding', 'category_id', 'creator_id', 'created_at', 'updated_at'];
    const insert = (rows: number) =>
      `INSERT INTO unit_of_measures (${columns.join(', ')}) VALUES ${Array.from({ length: rows }, () => `(${columns.map(() => '?').join(', ')})`).join(', ')}`;
    const full = insert(1000);
    for (let start = 0; start < count; start += 50_000) {
      await knex.transaction(async (trx) => {
        for (let chunk = start; chunk < Math.min(count, start + 50_000); chunk += 1000) {
          const rows = Math.min(1000, count - chunk);
          const params: Array<string | number> = [];
          for (let i = chunk; i < chunk + rows; i++) {
            const created = stored(from + i * step);
            params.push(['reference', 'bigger', 'smaller'][i % 3]!, `${stems[i % stems.length]} ${i % 100_000}`, (i % 50) + 1, ((i % 7) + 1) / 100, id!, 1, created, created);
          }
          await trx.raw(rows === 1000 ? full : insert(rows), params);
        }
      });
    }
  } finally {
    await knex.destroy();
  }
  return (performance.now() - started) / 1000;
}

export interface AggregateBench {
  base: string;
  token: string;
  pid: number;
  /** The shows: the UOM show scenario's path. */
  showPath: string;
  /** autocannon's measure of a scenario against the server (./load.ts). */
  measure(scenario: Scenario): Promise<Measured>;
  /** The aggregate's query after `.../aggregate?`. */
  query: string;
  clients: number;
  showConnections: number;
  /** The shows sent at this overall rate (req/s) instead of as fast as they answer; 0: as fast. */
  showRate: number;
  /** Alternating rounds of the shows idle and beside the aggregates. */
  rounds: number;
}

export async function aggregateFigures(bench: AggregateBench): Promise<Measured[]> {
  const { base, token, pid, clients } = bench;
  const category = (await benchCall(base, 'GET', `/support/uom-categories?filter[name]=${encodeURIComponent(AGGREGATE_CATEGORY)}`, token)).data[0].id;
  const url = `${base}/support/uom-categories/${category}/uoms/aggregate?${bench.query}`;
  const first = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const answer = (await first.json()) as { meta?: { total_groups: number }; message?: string };
  if (first.status !== 200) throw new Error(`The aggregate answered ${first.status}: ${answer.message}`);
  // Alone: three in a row after the one above (which started SQLite's read worker).
  const alone: Timed[] = [];
  for (let i = 0; i < 3; i++) alone.push(await timedGet(url, token));
  const aloneMs = alone.reduce((sum, t) => sum + t.ms, 0);
  const groups = answer.meta?.total_groups ?? 0;
  const results = [timedRow(`aggregate alone, one at a time (${groups.toLocaleString('en')} groups; req/s: aggregates/s)`, alone, aloneMs / 1000, rssOf(pid))];

  const shows = (label: string): Scenario => ({
    name: `aggregate: UOM show, ${label} (${bench.showConnections} connections${bench.showRate ? `, ${bench.showRate} req/s` : ''})`,
    path: bench.showPath,
    connections: bench.showConnections,
    ...(bench.showRate > 0 && { rate: bench.showRate }),
  });
  // Alternating rounds: the host's own noise moves a p99 of a few ms as much as what is measured.
  const idle: Measured[] = [];
  const beside: Measured[] = [];
  const timed: Timed[] = [];
  let seconds = 0;
  let peak = 0;
  for (let round = 0; round < bench.rounds; round++) {
    idle.push(await bench.measure(shows('idle')));
    const next = await besideAggregates(bench, url, shows(`beside ${clients} client${clients === 1 ? '' : 's'} sending heavy aggregates`));
    beside.push(next.shows);
    timed.push(...next.timed);
    seconds += next.seconds;
    peak = Math.max(peak, next.peak);
  }
  const statuses = new Map<number, number>();
  for (const t of timed) statuses.set(t.status, (statuses.get(t.status) ?? 0) + 1);
  const answered = [...statuses].map(([status, n]) => `${n} × ${status || 'no answer'}`).join(', ');
  results.push(
    medianOf(idle),
    medianOf(beside),
    timedRow(
      `aggregate, ${clients} client${clients === 1 ? '' : 's'}, each one after the other beside the shows (${answered} in ${seconds.toFixed(0)} s; req/s: aggregates/s)`,
      timed,
      seconds,
      peak,
    ),
  );
  return results;
}

/** The shows measured while `clients` loops send the aggregate one after the other, and the aggregates those loops timed (until each loop's last one answered). */
async function besideAggregates(bench: AggregateBench, url: string, scenario: Scenario): Promise<{ shows: Measured; timed: Timed[]; seconds: number; peak: number }> {
  const { pid, token } = bench;
  let running = true;
  const timed: Timed[] = [];
  let peak = rssOf(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 200);
  const started = performance.now();
  const loops = Array.from({ length: bench.clients }, async () => {
    while (running) {
      try {
        timed.push(await timedGet(url, token));
      } catch {
        timed.push({ ms: 0, status: 0 });
      }
    }
  });
  // The aggregates under way (and SQLite's worker busy) before the shows' warm-up.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const shows = await bench.measure(scenario);
  running = false;
  // Each loop ends with its aggregate under way: they are counted, and the next row starts on an idle server.
  await Promise.all(loops);
  clearInterval(sampler);
  return { shows, timed, seconds: (performance.now() - started) / 1000, peak: Math.max(peak, shows.rssMB) };
}

/** Rounds of one row as one: the median of req/s, p50 and p99 (each round's p99 in the name), the highest max and RSS, the non-2xx and unanswered summed. */
function medianOf(rounds: Measured[]): Measured {
  if (rounds.length === 1) return rounds[0]!;
  const median = (pick: (r: Measured) => number) => {
    const values = rounds.map(pick).sort((a, b) => a - b);
    return values.length % 2 ? values[(values.length - 1) / 2]! : (values[values.length / 2 - 1]! + values[values.length / 2]!) / 2;
  };
  return {
    name: `${rounds[0]!.name}, median of ${rounds.length} rounds (p99s ${rounds.map((r) => r.p99).join(', ')})`,
    rps: Math.round(median((r) => r.rps)),
    p50: median((r) => r.p50),
    p99: median((r) => r.p99),
    max: Math.max(...rounds.map((r) => r.max)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + (r.errors ?? 0), 0),
    rssMB: Math.max(...rounds.map((r) => r.rssMB)),
  };
}

/** The criterion: the shows' p99 beside the aggregates within 2x of their idle p99 (and every show answered: one that is not has no latency in the p99). */
export function aggregateVerdict(results: Measured[]): string | undefined {
  const idle = results.find((r) => r.name.startsWith('aggregate: UOM show, idle'));
  const beside = results.find((r) => r.name.startsWith('aggregate: UOM show, beside'));
  if (!idle || !beside) return undefined;
  const ratio = beside.p99 / Math.max(1, idle.p99);
  const unanswered = beside.errors ?? 0;
  const holds = ratio <= 2 && beside.rps > 0 && unanswered === 0 && beside.non2xx === 0;
  const why = beside.rps === 0 ? ' (no show answered)' : unanswered > 0 ? ` (${unanswered} shows unanswered)` : beside.non2xx > 0 ? ` (${beside.non2xx} shows not 2xx)` : '';
  return `Shows' p99 beside the aggregates: ${beside.p99} ms against ${idle.p99} ms idle = ${ratio.toFixed(2)}x (criterion: at most 2x): ${holds ? 'holds' : `missed${why}`}.`;
}
