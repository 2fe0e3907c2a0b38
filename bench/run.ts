// `npm run bench`: the service under load on a generated data set, each request kind measured
// with autocannon against a server in its own process, after 2 s of warm-up each. Prints req/s, p50/p99 latency and the
// server's peak RSS as a table (and JSON with --json FILE); last, how fast one consumer reads the
// change feed those writes made.
//   npm run bench -- [--uoms 10000] [--duration 10] [--connections 50] [--mysql mysql://root@127.0.0.1:3306/bench] [--json out.json] [--only NAME]
//     [--search-partners 1000000] [--search-duration 5] [--search-connections 1,10] [--search-beside-clients 1,10]
//     [--aggregate-uoms 1000000] [--aggregate-clients 20] [--aggregate-query ...] [--aggregate-show-connections 10] [--aggregate-show-rate 0] [--aggregate-rounds 3]
// The figures are this machine's; compare against the hand-written baseline in the same run with
// ../shared/bench/project-vs-baseline.sh.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  BENCH_PASSWORD,
  benchCall,
  benchLogin,
  measure as measureOn,
  prepareBenchDatabase,
  printTable,
  rssOf,
  startBenchServer,
  stopBenchServer,
  uomScenarios,
  type Measured,
  type Scenario,
} from './load.ts';
import { exportFigures, prepareExportUoms } from './export.ts';
import { importThroughput } from './import.ts';
import { aggregateFigures, aggregateVerdict, prepareAggregateUoms } from './aggregate.ts';
import { prepareSearchPartners, searchFigures, type SearchFill } from './search.ts';

/** The heavy grouped total: every UOM of the category by day of creation (~730 groups), with three measures. */
const AGGREGATE_QUERY = 'group_by=created_at:day&measures=count,rounding:sum,factor:avg&tz=UTC';

const { values: options } = parseArgs({
  options: {
    uoms: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    mysql: { type: 'string' },
    json: { type: 'string' },
    only: { type: 'string', description: 'run the scenarios whose name contains this' },
    port: { type: 'string', default: '3918', description: 'the server port (two benches at once need two)' },
    'export-uoms': { type: 'string', default: '100000', description: 'UOMs of the one category the export figures read' },
    'aggregate-uoms': { type: 'string', default: '1000000', description: 'UOMs of the one category the grouped totals read (0: no aggregate rows)' },
    'aggregate-clients': { type: 'string', default: '20', description: 'clients each sending heavy aggregates one after the other beside the shows' },
    'aggregate-query': { type: 'string', default: AGGREGATE_QUERY, description: 'the heavy aggregate (after `.../uoms/aggregate?`)' },
    'aggregate-show-connections': { type: 'string', default: '10', description: 'connections of the shows measured idle and beside the aggregates' },
    'aggregate-show-rate': { type: 'string', default: '0', description: 'the shows at this many req/s over those connections (0: as fast as they answer)' },
    'aggregate-rounds': { type: 'string', default: '3', description: 'alternating rounds of the shows idle and beside the aggregates (medians)' },
    'search-partners': { type: 'string', default: '1000000', description: 'partners the search and filter[name] rows read (0: no search rows)' },
    'search-duration': {
      type: 'string',
      default: '5',
      description: 'seconds the clients of a filter or search row send (then each waits for its last answer), and of the shows beside them',
    },
    'search-connections': {
      type: 'string',
      default: '1,10',
      description: 'a row of each filter and search for each of these numbers of clients (each sending its next on its answer)',
    },
    'search-beside-clients': { type: 'string', default: '1,10', description: 'the shows beside this many clients sending filters, then searches, one after the other' },
  },
});
const PORT = Number(options.port);
const dir = mkdtempSync(join(tmpdir(), 'erp-bench-'));
const databaseUrl = options.mysql ?? `sqlite:${join(dir, 'bench.sqlite')}`;
const env = { DATABASE_URL: databaseUrl, PORT: String(PORT), ADMIN_PASSWORD: BENCH_PASSWORD };
const base = `http://127.0.0.1:${PORT}/admin/api/v1`;
const call = (method: string, path: string, token: string, body?: unknown) => benchCall(base, method, path, token, body);
const measure = (scenario: Scenario, token: string, pid: number) =>
  measureOn(scenario, [base], token, [pid], { duration: Number(options.duration), connections: Number(options.connections) });

async function scenarios(token: string): Promise<Scenario[]> {
  const uoms = await uomScenarios(base, token);
  const product = (await call('POST', '/inventories/products', token, { type: 'goods', name: 'Bench product', price: 10, category_id: 1 })).data.id;
  const partner = (await call('POST', '/partners/partners', token, { account_type: 'company', name: 'Bench customer' })).data.id;
  const lines = (count: number) => Array.from({ length: count }, (_, i) => ({ product_id: product, product_qty: 1 + (i % 5), price_unit: 10 }));
  const order = (count: number) => () => ({ partner_id: partner, payment_term_id: 1, date_order: '2026-11-23', lines: lines(count) });
  for (let i = 0; i < 30; i++) await call('POST', '/sales/orders', token, order(5)());
  bigOrder = order(1000);
  bigOrderOf = (count) => order(count)();
  orderBody = order(10);
  // Prepared only when the scenario runs (a few seconds of order creates).
  const confirmName = 'purchase order confirm (50 lines)';
  const purchases = wanted(confirmName) ? await drafts(token, '/purchases/purchase-orders', await purchaseOrderBody(token, product, partner)) : [];
  const invoiceName = 'invoice confirm (50 lines)';
  const invoices = wanted(invoiceName) ? await drafts(token, '/accounts/invoices', await invoiceBody(token, product, partner)) : [];
  return [
    ...uoms,
    { name: 'order create (50 lines)', method: 'POST', path: '/sales/orders', body: order(50), connections: 10 },
    { name: 'order list (lines.product, partner)', path: '/sales/orders?include=lines.product,partner&per_page=15', connections: 20 },
    {
      name: 'receipt create (50 moves)',
      method: 'POST',
      path: '/inventories/receipts',
      body: () => ({ moves: Array.from({ length: 50 }, () => ({ product_id: product, product_uom_qty: 2 })) }),
      connections: 10,
    },
    {
      // Each request confirms a draft order of its own (prepared above): the order, its receipt
      // with 50 moves, their confirmation and the order's recompute.
      name: confirmName,
      method: 'POST',
      path: `/purchases/purchase-orders/${purchases[0]}/confirm`,
      pathFor: (n) => `/purchases/purchase-orders/${purchases[n - 1]}/confirm`,
      amount: Math.floor(CONFIRMED_DRAFTS / 1.1),
      connections: 10,
    },
    {
      // Each request confirms a draft invoice of its own: its number from the journal's
      // sequence, and its journal items computed again.
      name: invoiceName,
      method: 'POST',
      path: `/accounts/invoices/${invoices[0]}/confirm`,
      pathFor: (n) => `/accounts/invoices/${invoices[n - 1]}/confirm`,
      amount: Math.floor(CONFIRMED_DRAFTS / 1.1),
      connections: 10,
    },
  ];
}

const wanted = (name: string) => !options.only || name.includes(options.only);

/** Drafts confirmed by a scenario: one per request, its warm-up's included. */
const CONFIRMED_DRAFTS = 660;

async function drafts(token: string, path: string, body: unknown): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < CONFIRMED_DRAFTS; i++) ids.push((await call('POST', path, token, body)).data.id);
  return ids;
}

async function purchaseOrderBody(token: string, product: number, vendor: number) {
  const company = (await call('GET', '/support/companies?per_page=1', token)).data[0];
  return {
    partner_id: vendor,
    currency_id: company.currency_id,
    company_id: company.id,
    ordered_at: '2026-11-23T09:00:00Z',
    lines: Array.from({ length: 50 }, (_, i) => ({ product_id: product, product_qty: 1 + (i % 5), price_unit: 10 })),
  };
}

async function invoiceBody(token: string, product: number, customer: number) {
  const company = (await call('GET', '/support/companies?per_page=1', token)).data[0];
  const uom = (await call('GET', `/inventories/products/${product}`, token)).data.uom_id;
  const tax = (await call('GET', '/accounts/taxes?filter[type_tax_use]=sale&per_page=1', token)).data[0]?.id;
  return {
    partner_id: customer,
    currency_id: company.currency_id,
    invoice_date: '2026-11-23',
    invoice_payment_term_id: 1,
    invoice_lines: Array.from({ length: 50 }, (_, i) => ({ product_id: product, uom_id: uom, quantity: 1 + (i % 5), price_unit: 10, taxes: tax ? [tax] : [] })),
  };
}

let bigOrder: () => unknown;
let bigOrderOf: (lines: number) => unknown;
let orderBody: () => unknown;

/**
 * The mixed load: a request at the bound (a 1,000-line order) sent again and again on one
 * connection, while UOM shows run beside it: how long the big request takes, and whether the
 * others still answer quickly (a big write gives the event loop a turn every few ms of work,
 * engine/sql/breather.ts: the shows' p99 stays under 50 ms).
 */
async function atTheBound(token: string, pid: number, showPath: string) {
  const durations: number[] = [];
  let running = true;
  const writer = (async () => {
    while (running) {
      const started = performance.now();
      await call('POST', '/sales/orders', token, bigOrder());
      durations.push(performance.now() - started);
    }
  })();
  const others = await measure({ name: 'mixed load: UOM show beside 1,000-line order creates', path: showPath, connections: 10 }, token, pid);
  running = false;
  await writer;
  durations.sort((a, b) => a - b);
  const p50 = Math.round(durations[Math.floor(durations.length / 2)] ?? 0);
  return [
    {
      name: 'order create (1,000 lines), one at a time',
      rps: Math.round((durations.length / Number(options.duration)) * 10) / 10,
      p50,
      p99: Math.round(durations[Math.floor(durations.length * 0.99)] ?? 0),
      max: Math.round(durations.at(-1) ?? 0),
      non2xx: 0,
      rssMB: others.rssMB,
    },
    others,
  ];
}

/**
 * The change feed read by one consumer from its start, in pages of 1,000, after the scenarios above
 * wrote their changes: changes per second (in the req/s column), and each page's latency.
 */
async function feedThroughput(token: string, pid: number): Promise<Measured> {
  const pages: number[] = [];
  let cursor = '0';
  let changes = 0;
  let non2xx = 0;
  let peak = 0;
  const started = performance.now();
  for (let more = true; more; ) {
    const begun = performance.now();
    const response = await fetch(`${base}/changes?after=${cursor}&limit=1000`, { headers: { authorization: `Bearer ${token}` } });
    pages.push(performance.now() - begun);
    peak = Math.max(peak, rssOf(pid));
    if (response.status !== 200) {
      non2xx++;
      break;
    }
    const page = (await response.json()) as { data: unknown[]; next_cursor: string; has_more: boolean };
    changes += page.data.length;
    cursor = page.next_cursor;
    more = page.has_more;
  }
  const seconds = (performance.now() - started) / 1000;
  pages.sort((a, b) => a - b);
  return {
    name: `change feed, one consumer, pages of 1,000 (${changes} changes; req/s: changes/s)`,
    rps: Math.round(changes / seconds),
    p50: Math.round(pages[Math.floor(pages.length / 2)] ?? 0),
    p99: Math.round(pages[Math.floor(pages.length * 0.99)] ?? 0),
    max: Math.round(pages.at(-1) ?? 0),
    non2xx,
    rssMB: Math.round(peak),
  };
}

async function main(): Promise<void> {
  await prepareBenchDatabase(databaseUrl, Number(options.uoms));
  const exporting = !options.only || 'export'.includes(options.only) || options.only.includes('export');
  if (exporting) await prepareExportUoms(databaseUrl, Number(options['export-uoms']));
  const aggregating = Number(options['aggregate-uoms']) > 0 && (!options.only || 'aggregate'.includes(options.only) || options.only.includes('aggregate'));
  if (aggregating) {
    const seconds = await prepareAggregateUoms(databaseUrl, Number(options['aggregate-uoms']));
    console.log(`${Number(options['aggregate-uoms']).toLocaleString('en')} UOMs for the aggregates written in ${seconds.toFixed(1)} s`);
  }
  const searching = Number(options['search-partners']) > 0 && (!options.only || 'search'.includes(options.only) || options.only.includes('search'));
  let fill: SearchFill | undefined;
  if (searching) {
    fill = await prepareSearchPartners(databaseUrl, Number(options['search-partners']));
    const index = `, their word pairs after in ${fill.indexSeconds.toFixed(1)} s`;
    console.log(`${Number(options['search-partners']).toLocaleString('en')} partners for the searches written in ${fill.insertSeconds.toFixed(1)} s${index}`);
  }
  const server = await startBenchServer(env);
  try {
    const token = await benchLogin(base);
    const results = [];
    const all = await scenarios(token);
    const wanted = (name: string) => !options.only || name.includes(options.only);
    for (const scenario of all.filter((s) => wanted(s.name))) results.push(await measure(scenario, token, server.pid!));
    if (wanted('1,000 lines') || wanted('mixed load')) results.push(...(await atTheBound(token, server.pid!, all[0]!.path)));
    if (wanted('import')) results.push(...(await importThroughput(base, token, server.pid!, orderBody)));
    if (wanted('change feed')) results.push(await feedThroughput(token, server.pid!));
    if (aggregating) {
      results.push(
        ...(await aggregateFigures({
          base,
          token,
          pid: server.pid!,
          showPath: all[0]!.path,
          measure: (scenario) => measure(scenario, token, server.pid!),
          query: options['aggregate-query'],
          clients: Number(options['aggregate-clients']),
          showConnections: Number(options['aggregate-show-connections']),
          showRate: Number(options['aggregate-show-rate']),
          rounds: Number(options['aggregate-rounds']),
        })),
      );
    }
    if (searching) {
      const numbers = (list: string) =>
        list
          .split(',')
          .map(Number)
          .filter((n) => n > 0);
      results.push(
        ...(await searchFigures({
          base,
          token,
          pid: server.pid!,
          showPath: all[0]!.path,
          measure: (scenario) => measureOn(scenario, [base], token, [server.pid!], { duration: Number(options['search-duration']), connections: Number(options.connections) }),
          duration: Number(options['search-duration']),
          connections: numbers(options['search-connections']),
          besideClients: numbers(options['search-beside-clients']),
          showConnections: 10,
          matches: fill?.matches,
        })),
      );
    }
    if (exporting) results.push(...(await exportFigures(base, token, server.pid!, (lines) => bigOrderOf(lines))));
    printTable(results);
    const verdict = aggregateVerdict(results);
    if (verdict) console.log(`\n${verdict}`);
    console.log(
      `\n(${options.mysql ? 'MariaDB/MySQL' : 'SQLite'}, ${options.uoms} UOMs, ${options.duration} s per request${searching ? ` (the search rows: ${options['search-duration']} s)` : ''}, ${options.connections} connections unless noted in the code.)`,
    );
    if (options.json) writeFileSync(options.json, `${JSON.stringify({ database: options.mysql ? 'mysql' : 'sqlite', results }, null, 2)}\n`);
  } finally {
    await stopBenchServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
