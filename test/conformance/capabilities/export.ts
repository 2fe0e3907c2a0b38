import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { csvLine } from '../../../engine/transfer/csv-write.ts';
import { idLists } from '../../../engine/transfer/id-lists.ts';
import { recordsFields } from '../../../engine/transfer/records-fields.ts';
import type { ResourceContext } from '../context.ts';

/** Every record the list shows, page after page. */
async function listed(ctx: ResourceContext): Promise<Array<Record<string, unknown>>> {
  const records: Array<Record<string, unknown>> = [];
  for (let page = 1; ; page++) {
    const response = await ctx.client.get(`${ctx.listPath}?per_page=100&page=${page}`, { token: ctx.token });
    assert.is(response.status, 200, response.text);
    records.push(...response.body.data);
    if (page >= response.body.meta.last_page) return records;
  }
}

async function exported(ctx: ResourceContext, format: string): Promise<{ status: number; type: unknown; text: string }> {
  // Bytes, not body.text(): a TextDecoder drops the byte order mark the file starts with.
  const response = await request(new URL(`${ctx.listPath}/export?format=${format}`, ctx.client.baseUrl), { headers: { authorization: `Bearer ${ctx.token}` } });
  return { status: response.statusCode, type: response.headers['content-type'], text: Buffer.from(await response.body.arrayBuffer()).toString('utf8') };
}

export function exportChecks(test: Test, context: () => ResourceContext) {
  test('export: JSON Lines and CSV hold the rows the list shows, in its order, as it writes them', async () => {
    const ctx = context();
    const records = await listed(ctx);
    const jsonl = await exported(ctx, 'jsonl');
    assert.is(jsonl.status, 200, jsonl.text);
    const lines =
      jsonl.text === ''
        ? []
        : jsonl.text
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line));
    // A record's lists of ids (its tags) and a document's lines are columns of their own, which the
    // list does not show (the round trip imports them back): in the export's order.
    const lists = new Set([...idLists(ctx.def, ctx.registry).map((list) => list.field.name), ...recordsFields(ctx.def, ctx.registry).map((records) => records.field.name)]);
    const columns = lines[0] ? Object.keys(lines[0]).filter((name) => !lists.has(name)) : [];
    // The export writes the record's fields; the list may add the relations the definition embeds.
    assert.equal(
      lines.map((line) => Object.fromEntries(columns.map((name) => [name, line[name]]))),
      records.map((record) => Object.fromEntries(columns.map((name) => [name, record[name]]))),
    );
    for (const name of columns) assert.ok(ctx.def.fields.get(name)?.output, `${name} is an output field`);

    const csv = await exported(ctx, 'csv');
    assert.is(csv.status, 200, csv.text);
    assert.is(csv.type, 'text/csv; charset=utf-8');
    // The CSV writer itself is checked in test/engine/transfer/export-csv.test.ts: here, the rows.
    const header = [...[...ctx.def.fields.values()].filter((field) => field.output).map((field) => field.name), ...lists];
    assert.is(csv.text, `\uFEFF${csvLine(header)}${records.map((record, i) => csvLine(header.map((name) => (lists.has(name) ? lines[i][name] : record[name])))).join('')}`);
  });
}
