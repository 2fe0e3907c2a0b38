// An export streams: its batches are read as the client reads the file, so a client that stops
// reading stops the reads (memory holds a few batches, whatever the table's size), the first
// bytes arrive long before the last, and the whole file holds every row once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { API, startApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets, freshDatabase } from '../../helpers/targets.ts';

const ROWS = 100_000;
const BATCH = 1000;

for (const target of databaseTargets()) {
  const test = suite(`export streams [${target.name}]`);
  let app: TestApp;
  let drop: () => Promise<void>;
  let category: number;
  let token: string;
  let batchesRead = 0;

  test.before(async () => {
    const database = await freshDatabase(target, 'export_stream', { migrated: true });
    drop = database.drop;
    app = await startApp(database.target, { minimalSeed: true });
    token = await app.login();
    const now = '2025-01-31 09:30:00.000000';
    const [id] = await app.knex('unit_of_measure_categories').insert({ name: 'Streamed', created_at: now, updated_at: now });
    category = Number(id);
    for (let start = 0; start < ROWS; start += 10_000) {
      const rows = Array.from({ length: 10_000 }, (_, j) => ({
        type: 'bigger',
        name: `unit ${start + j}`,
        factor: 1,
        rounding: 0.01,
        category_id: category,
        created_at: now,
        updated_at: now,
      }));
      await app.knex.batchInsert('unit_of_measures', rows, 500);
    }
    // Every statement the engine runs is reported as knex's 'query' event (engine/sql/statements.ts).
    app.knex.on('query', (query: { sql: string }) => {
      if (/^SELECT .* FROM `unit_of_measures` WHERE/.test(query.sql) && / LIMIT \?$/.test(query.sql)) batchesRead++;
    });
  });

  test.after(async () => {
    await app?.close();
    await drop?.();
  });

  test('a client that stops reading stops the reads; then every row arrives once, the first bytes long before the last', async () => {
    batchesRead = 0;
    const started = performance.now();
    // Whole rows as JSON lines (some 25 MB): more than the sockets' buffers can hold, so a server
    // that ignored the client would be seen reading on.
    const response = await request(new URL(`${API}/support/uom-categories/${category}/uoms/export?format=jsonl`, app.client.baseUrl), {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.is(response.statusCode, 200);
    const chunks: Buffer[] = [];
    let firstByte = 0;
    let paused = false;
    for await (const chunk of response.body) {
      if (firstByte === 0) firstByte = performance.now() - started;
      chunks.push(chunk as Buffer);
      if (!paused) {
        paused = true;
        // The client reads nothing for three seconds: the server may only fill the sockets' buffers,
        // then it must stop reading (nothing read in the last second) short of the whole table.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const afterTwoSeconds = batchesRead;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assert.ok(batchesRead < ROWS / BATCH, `${batchesRead} of ${ROWS / BATCH} batches read while the client waited`);
        assert.is(batchesRead, afterTwoSeconds, 'the reads stopped while the client waited');
      }
    }
    const total = performance.now() - started;
    const lines = Buffer.concat(chunks).toString('utf8').split('\n').slice(0, -1);
    assert.is(lines.length, ROWS);
    assert.is(new Set(lines).size, ROWS, 'no row twice');
    assert.ok(batchesRead >= ROWS / BATCH, `${batchesRead} batches`);
    assert.ok(firstByte < (total - 3000) / 4, `first byte after ${Math.round(firstByte)} ms of ${Math.round(total)} ms`);
  });

  test('memory stays flat: the server holds a few batches, not the rows', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    let bytes = 0;
    try {
      const response = await request(new URL(`${API}/support/uom-categories/${category}/uoms/export?format=jsonl`, app.client.baseUrl), {
        headers: { authorization: `Bearer ${token}` },
      });
      for await (const chunk of response.body) bytes += (chunk as Buffer).length;
    } finally {
      clearInterval(sampler);
    }
    const grownMB = (peak - before) / 2 ** 20;
    // The file is some 25 MB; its rows as objects would be several times that.
    assert.ok(bytes > 20 * 2 ** 20, `${bytes} bytes`);
    assert.ok(grownMB < 60, `resident memory grew by ${grownMB.toFixed(0)} MB`);
  });

  test.run();
}
