// Export figures for `npm run bench`: one streamed export read to its end by one client, with the
// server's resident memory sampled every 20 ms. The table's columns: rows per second (req/s),
// time to the first byte (p50 ms), the whole export (max ms), peak RSS.
import { loadConfig } from '../src/app/config.ts';
import { createKnex } from '../src/database/connection.ts';
import { BENCH_PASSWORD, benchCall, rssOf, type Measured } from './load.ts';

export const EXPORT_CATEGORY = 'Bench export category';

/** A category holding `count` UOMs of its own, written straight to the database before the server starts. */
export async function prepareExportUoms(databaseUrl: string, count: number): Promise<void> {
  const knex = createKnex(loadConfig({ DATABASE_URL: databaseUrl, JWT_SECRET: 'x'.repeat(40), ADMIN_PASSWORD: BENCH_PASSWORD }).database);
  try {
    const now = '2025-01-31 09:30:00.000000';
    const [id] = await knex('unit_of_measure_categories').insert({ name: EXPORT_CATEGORY, created_at: now, updated_at: now });
    const stems = ['kg', 'gram, fine', 'box "large"', 'pound', '=ounce'];
    for (let start = 0; start < count; start += 10_000) {
      const rows = Array.from({ length: Math.min(10_000, count - start) }, (_, j) => {
        const i = start + j;
        return {
          type: ['reference', 'bigger', 'smaller'][i % 3],
          name: `${stems[i % stems.length]} ${i + 1}`,
          factor: (i % 50) + 1,
          rounding: 0.01,
          category_id: id,
          creator_id: 1,
          created_at: now,
          updated_at: now,
        };
      });
      await knex.batchInsert('unit_of_measures', rows, 500);
    }
  } finally {
    await knex.destroy();
  }
}

/** One export read to the end: rows (lines after the header), time to first byte, total time, the server's peak RSS. */
export async function measureExport(name: string, url: string, token: string, pid: number): Promise<Measured> {
  let peak = rssOf(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  const started = performance.now();
  let firstByte = 0;
  let lines = 0;
  let status = 0;
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    status = response.status;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (firstByte === 0) firstByte = performance.now() - started;
      for (const byte of chunk) if (byte === 10) lines++;
    }
  } finally {
    clearInterval(sampler);
  }
  const total = performance.now() - started;
  const rows = url.includes('format=jsonl') ? lines : Math.max(0, lines - 1);
  return {
    name: `${name} (${rows.toLocaleString('en')} rows; req/s: rows/s, p50: first byte, max: whole export)`,
    rps: Math.round(rows / (total / 1000)),
    p50: Math.round(firstByte),
    p99: Math.round(total),
    max: Math.round(total),
    non2xx: status === 200 ? 0 : 1,
    rssMB: Math.round(peak),
  };
}

/** The exports measured: the category's UOMs, every order, and the lines of orders of 1,000 lines each. */
export async function exportFigures(base: string, token: string, pid: number, orderBody: (lines: number) => unknown): Promise<Measured[]> {
  const category = (await benchCall(base, 'GET', `/support/uom-categories?filter[name]=${encodeURIComponent(EXPORT_CATEGORY)}`, token)).data[0].id;
  const results = [await measureExport('UOM export, CSV', `${base}/support/uom-categories/${category}/uoms/export?format=csv`, token, pid)];
  results.push(
    await measureExport(
      'UOM export, CSV with the category name',
      `${base}/support/uom-categories/${category}/uoms/export?fields=id,name,factor,rounding,category_id,category`,
      token,
      pid,
    ),
  );
  results.push(await measureExport('UOM export, XLSX', `${base}/support/uom-categories/${category}/uoms/export?format=xlsx`, token, pid));
  // XLSX is zipped: its rows are not lines. Its rows/s is the CSV's row count over its time.
  const xlsx = results[2]!;
  const rows = Number(/\(([\d,]+) rows/.exec(results[0]!.name)![1]!.replace(/,/g, ''));
  results[2] = {
    ...xlsx,
    name: `UOM export, XLSX (${rows.toLocaleString('en')} rows; req/s: rows/s, p50: first byte, max: whole export)`,
    rps: Math.round(rows / (xlsx.max / 1000)),
  };
  const order = (await createOrder(base, token, orderBody(1000))).data.id;
  for (let i = 0; i < 4; i++) await createOrder(base, token, orderBody(1000));
  results.push(await measureExport('order export, CSV', `${base}/sales/orders/export`, token, pid));
  results.push(await measureExport('order lines export (one order), CSV', `${base}/sales/orders/${order}/lines/export`, token, pid));
  return results;
}

/** An order created, retried while the server sheds load (503) after the exports. */
async function createOrder(base: string, token: string, body: unknown) {
  for (let tries = 0; ; tries++) {
    const created = await benchCall(base, 'POST', '/sales/orders', token, body);
    if (created.data || tries >= 10) return created;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
