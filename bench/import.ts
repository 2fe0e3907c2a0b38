// Imports in `npm run bench`: rows per second through POST <resource>/import, each request a file
// of the most rows one import takes by default, and the server's peak RSS while they run
// (sampled every 20 ms). UOMs: 5 CSV files of 5,000 rows. Orders: 4 JSON lines files of 250 orders
// with 10 lines each (the rows/s column counts orders).
import { benchCall, rssOf, type Measured } from './load.ts';

export async function importThroughput(base: string, token: string, pid: number, orderBody: () => unknown): Promise<Measured[]> {
  const category = (await benchCall(base, 'POST', '/support/uom-categories', token, { name: 'Bench imports' })).data.id;
  let unit = 0;
  const uoms = () => `type,name,factor,rounding\n${Array.from({ length: 5000 }, () => `smaller,imported ${unit++},${1 + (unit % 1000)},0.01`).join('\n')}\n`;
  const orders = () => `${Array.from({ length: 250 }, () => JSON.stringify(orderBody())).join('\n')}\n`;
  return [
    await measureImports('import UOMs (CSV, 5,000 rows a request; req/s: rows/s)', `${base}/support/uom-categories/${category}/uoms/import`, 'text/csv', uoms, 5, 5000, token, pid),
    await measureImports(
      'import orders, 10 lines each (JSON lines, 250 a request; req/s: orders/s)',
      `${base}/sales/orders/import`,
      'application/x-ndjson',
      orders,
      4,
      250,
      token,
      pid,
    ),
  ];
}

async function measureImports(name: string, url: string, type: string, file: () => string, requests: number, rows: number, token: string, pid: number): Promise<Measured> {
  let peak = rssOf(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  const durations: number[] = [];
  let non2xx = 0;
  let imported = 0;
  try {
    for (let i = 0; i < requests; i++) {
      const body = file();
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
      const report = (await response.json()) as { created?: number; message?: string; rejected?: unknown[] };
      durations.push(performance.now() - started);
      if (response.status !== 200) {
        if (non2xx === 0) console.error(`${name}: ${response.status} ${report.message} ${JSON.stringify(report.rejected?.slice(0, 1) ?? [])}`);
        non2xx++;
      }
      imported += report.created ?? 0;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = durations.reduce((sum, ms) => sum + ms, 0) / 1000;
  durations.sort((a, b) => a - b);
  return {
    name,
    rps: Math.round((non2xx === 0 ? requests * rows : imported) / seconds),
    p50: Math.round(durations[Math.floor(durations.length / 2)] ?? 0),
    p99: Math.round(durations.at(-1) ?? 0),
    max: Math.round(durations.at(-1) ?? 0),
    non2xx,
    rssMB: Math.round(peak),
  };
}
