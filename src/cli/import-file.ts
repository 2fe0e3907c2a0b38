// `npm run erp -- import <resource> <file>`: a file too large for one request, sent to a running
// service's import route in parts of --rows records (CSV and .xlsx as CSV, JSON lines as they are),
// with a progress bar on stderr and one report for the whole file, rows numbered as in the file.
// Each part is all or nothing on its own: without --skip the command stops at the first part with
// a rejected row (the parts before it stay written).
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { parseCsv } from '../../engine/transfer/import/parse-csv.ts';
import { parseJsonLines } from '../../engine/transfer/import/parse-jsonl.ts';
import { parseXlsx } from '../../engine/transfer/import/parse-xlsx.ts';
import type { ParsedRow } from '../../engine/transfer/import/parsed-rows.ts';
import type { Registry } from '../../engine/index.ts';

export const IMPORT_USAGE = `import <resource> <file> [--url URL] [--token T] [--parent ID] [--rows N] [--dry-run] [--skip]
                                            import a CSV, JSON lines or .xlsx file into a resource (support/uoms)
                                            through a running service's POST <path>/import, in parts of --rows
                                            (default 1000); the token from --token or ERP_TOKEN, --parent for a
                                            nested resource's parent id; prints the report`;

interface Report {
  rows: number;
  created: number;
  updated: number;
  rejected: Array<{ row: number; errors: Record<string, string[]> }>;
  dry_run: boolean;
  message?: string;
}

export async function importFile(registry: Registry, prefix: string, args: string[], out: (text: string) => Promise<void>): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: 'string', default: process.env.ERP_URL ?? 'http://127.0.0.1:3000' },
      token: { type: 'string', default: process.env.ERP_TOKEN },
      parent: { type: 'string' },
      rows: { type: 'string', default: '1000' },
      'dry-run': { type: 'boolean', default: false },
      skip: { type: 'boolean', default: false },
    },
  });
  const [resource, file] = positionals;
  const def = resource ? registry.all().find((candidate) => candidate.name === resource) : undefined;
  if (!def || !file) return fail(def || !resource ? `Usage: npm run erp -- ${IMPORT_USAGE}` : `No resource named ${resource}.`);
  if (!values.token) return fail('A token is needed: --token, or ERP_TOKEN (POST /admin/api/v1/login answers one).');
  if (def.parent && !values.parent) return fail(`${def.name} is nested under ${def.parent.resource}: name its id with --parent.`);
  const size = Number(values.rows);
  if (!Number.isSafeInteger(size) || size < 1) return fail('--rows must be a positive integer.');

  const path = `${prefix}${def.path.replace(`{${def.parent?.param}}`, String(values.parent))}/import`;
  const type = extname(file).toLowerCase();
  let rows: ParsedRow[];
  try {
    const content = readFileSync(file);
    rows = type === '.xlsx' ? await parseXlsx(content) : type === '.jsonl' || type === '.ndjson' ? parseJsonLines(content.toString('utf8')) : parseCsv(content.toString('utf8'));
  } catch (error) {
    return fail(`${file}: ${(error as Error).message}`);
  }
  const asCsv = type !== '.jsonl' && type !== '.ndjson';
  const total: Report = { rows: 0, created: 0, updated: 0, rejected: [], dry_run: values['dry-run'] };
  const query = new URLSearchParams({ ...(values['dry-run'] && { dry_run: '1' }), ...(values.skip && { on_error: 'skip' }) }).toString();
  const progress = progressBar(rows.length);
  for (let start = 0; start < rows.length; start += size) {
    const part = rows.slice(start, start + size);
    const { body, lines } = asCsv ? csvPart(part) : jsonPart(part);
    const response = await request(`${values.url}${path}${query ? `?${query}` : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${values.token}`, 'content-type': asCsv ? 'text/csv' : 'application/x-ndjson', accept: 'application/json' },
      body,
    });
    const answer = (await response.body.json().catch(() => ({}))) as Partial<Report> & { message?: string };
    if (response.statusCode !== 200 && !(response.statusCode === 422 && Array.isArray(answer.rejected))) {
      progress.done();
      return fail(`Rows ${part[0]!.line} to ${part.at(-1)!.line}: ${response.statusCode} ${answer.message ?? ''}`.trim());
    }
    total.rows += answer.rows ?? 0;
    total.created += answer.created ?? 0;
    total.updated += answer.updated ?? 0;
    for (const entry of answer.rejected ?? []) total.rejected.push({ row: lines.get(entry.row) ?? entry.row, errors: entry.errors });
    progress.update(start + part.length);
    if (response.statusCode === 422) break;
  }
  progress.done();
  const failed = total.rejected.length > 0 && !values.skip && !values['dry-run'];
  total.message = failed
    ? `Stopped at a part with a rejected row: ${total.created} created and ${total.updated} updated before it.`
    : `${total.rows} rows read: ${total.created} ${total.dry_run ? 'would be ' : ''}created, ${total.updated} ${total.dry_run ? 'would be ' : ''}updated, ${total.rejected.length} rejected.`;
  await out(`${JSON.stringify(total, null, 2)}\n`);
  return failed ? 1 : 0;
}

/** A part as CSV (the columns of its rows), and which line of the file each of its lines' records is. */
function csvPart(rows: ParsedRow[]): { body: string; lines: Map<number, number> } {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row.values)))];
  const lines = new Map<number, number>();
  const text = [columns.map(csvCell).join(',')];
  let line = 2;
  for (const row of rows) {
    const record = columns.map((column) => csvCell(row.values[column])).join(',');
    lines.set(line, row.line);
    text.push(record);
    line += record.split(/\r\n|\r|\n/).length; // the line breaks the parser counts
  }
  return { body: `${text.join('\n')}\n`, lines };
}

function jsonPart(rows: ParsedRow[]): { body: string; lines: Map<number, number> } {
  return { body: `${rows.map((row) => JSON.stringify(row.values)).join('\n')}\n`, lines: new Map(rows.map((row, index) => [index + 1, row.line])) };
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `[#######.............]  350/1000 rows` on stderr, redrawn in place. */
function progressBar(total: number) {
  const draw = (done: number) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done).padStart(String(total).length)}/${total} rows`);
  };
  draw(0);
  return { update: draw, done: () => process.stderr.write('\n') };
}

function fail(message: string): number {
  console.error(message);
  return 1;
}
