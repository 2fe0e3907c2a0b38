// `npm run erp -- import <resource> <file>`: a file too large for one request, sent to a running
// service's import route in parts (CSV and .xlsx as CSV under the header's columns, JSON lines as
// they are), with the command line's progress display on stderr and one report for the whole file,
// rows numbered as in the file. CSV and JSON lines are read as a stream and each part is sent
// before the next is read, so memory stays flat however large the file (./import-parts.ts); a .xlsx
// workbook is read whole. Each part is all or nothing on its own: without --skip the command stops
// at the first part with a rejected row, and at a malformed line (the parts before it stay written).
import { parseArgs } from 'node:util';
import { type Dispatcher, request } from 'undici';
import { MalformedFileError } from '../../engine/transfer/import/parsed-rows.ts';
import type { Registry } from '../../engine/index.ts';
import { fileKind, fileRows, importParts, RowTooLargeError, type FileRows } from './import-parts.ts';
import { IMPORT_USAGE } from './import-usage.ts';
import { progress } from './progress.ts';

const DEFAULT_ROWS = 1000;
const DEFAULT_BYTES = 10 * 1024 * 1024;

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
      rows: { type: 'string' },
      bytes: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      skip: { type: 'boolean', default: false },
    },
  });
  const [resource, file] = positionals;
  const def = resource ? registry.all().find((candidate) => candidate.name === resource) : undefined;
  if (!def || !file) return fail(def || !resource ? `Usage: npm run erp -- ${IMPORT_USAGE}` : `No resource named ${resource}.`);
  if (!values.token) return fail('A token is needed: --token, or ERP_TOKEN (POST /admin/api/v1/login answers one).');
  if (def.parent && !values.parent) return fail(`${def.name} is nested under ${def.parent.resource}: name its id with --parent.`);

  const maxRows = positive(values.rows ?? String(Math.min(DEFAULT_ROWS, positive(process.env.IMPORT_MAX_ROWS) ?? DEFAULT_ROWS)));
  if (maxRows === undefined) return fail('--rows must be a positive integer.');
  const maxBytes = positive(values.bytes ?? process.env.IMPORT_MAX_BYTES ?? String(DEFAULT_BYTES));
  if (maxBytes === undefined) return fail('--bytes must be a positive integer.');

  const path = `${prefix}${def.path.replace(`{${def.parent?.param}}`, String(values.parent))}/import`;
  const kind = fileKind(file);
  let source: FileRows;
  try {
    source = await fileRows(file, kind, maxBytes);
  } catch (error) {
    return fail(`${file}: ${(error as Error).message}`);
  }
  const total: Report = { rows: 0, created: 0, updated: 0, rejected: [], dry_run: values['dry-run'] };
  const query = new URLSearchParams({ ...(values['dry-run'] && { dry_run: '1' }), ...(values.skip && { on_error: 'skip' }) }).toString();
  const shown = progress(process.stderr);
  let sent = 0;
  let stopped = false;
  const sentBefore = () => (sent > 0 ? ` The ${sent} rows before it were sent: ${total.created} created, ${total.updated} updated.` : '');
  try {
    for await (const part of importParts(source.batches, kind !== 'jsonl', { maxRows, maxBytes })) {
      let response: Dispatcher.ResponseData;
      try {
        response = await request(`${values.url}${path}${query ? `?${query}` : ''}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${values.token}`, 'content-type': part.contentType, accept: 'application/json' },
          body: part.body,
        });
      } catch (error) {
        if (sent > 0) shown.finish();
        return fail(`${values.url}: ${(error as Error).message}.${sentBefore()}`);
      }
      const answer = (await response.body.json().catch(() => ({}))) as Partial<Report> & { message?: string; errors?: Record<string, string[]> };
      if (response.statusCode !== 200 && !(response.statusCode === 422 && Array.isArray(answer.rejected))) {
        if (sent > 0) shown.finish();
        // The service's bounds may be lower than the command's (IMPORT_MAX_BYTES, IMPORT_MAX_ROWS there).
        const hint = response.statusCode === 413 ? ' Send smaller parts: --bytes.' : answer.errors?.file ? ` ${answer.errors.file.join(' ')} Send smaller parts: --rows.` : '';
        return fail(`Rows ${part.first} to ${part.last}: ${response.statusCode} ${answer.message ?? ''}`.trim() + hint + sentBefore());
      }
      total.rows += answer.rows ?? 0;
      total.created += answer.created ?? 0;
      total.updated += answer.updated ?? 0;
      for (const entry of answer.rejected ?? []) total.rejected.push({ row: part.lines.get(entry.row) ?? entry.row, errors: entry.errors });
      sent += part.rows;
      shown.update({ done: sent, total: source.total, share: source.total === undefined ? source.read() : undefined });
      if (response.statusCode === 422) {
        stopped = true;
        break;
      }
    }
  } catch (error) {
    // A malformed line, a row no part can hold, the file unreadable: the parts before it stay written.
    if (!(error instanceof MalformedFileError || error instanceof RowTooLargeError || typeof (error as { code?: unknown }).code === 'string')) throw error;
    if (sent > 0) shown.finish();
    return fail(`${file}: ${(error as Error).message}${sentBefore()}`);
  }
  shown.finish(stopped ? undefined : { done: sent, total: sent });
  const failed = total.rejected.length > 0 && !values.skip && !values['dry-run'];
  total.message = failed
    ? `Stopped at a part with a rejected row: ${total.created} created and ${total.updated} updated before it.`
    : `${total.rows} rows read: ${total.created} ${total.dry_run ? 'would be ' : ''}created, ${total.updated} ${total.dry_run ? 'would be ' : ''}updated, ${total.rejected.length} rejected.`;
  await out(`${JSON.stringify(total, null, 2)}\n`);
  return failed ? 1 : 0;
}

/** A positive integer's text as its number; undefined for anything else (or nothing). */
function positive(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function fail(message: string): number {
  console.error(message);
  return 1;
}
