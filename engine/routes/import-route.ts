// `POST <resource path>/import` for every resource that allows create: a CSV (`text/csv`), JSON
// lines (`application/x-ndjson`) or spreadsheet (.xlsx) body, bounded in bytes (413) and in rows
// (422), imported by ./run-import.ts (the parsers: engine/transfer/import). The file formats' parsers are registered in a scope of
// their own: the other routes still take JSON only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EngineDeps } from '../contract/index.ts';
import { fastifyPath } from '../definition/route-table.ts';
import type { ResourceDef } from '../definition/types.ts';
import { BadRequestError, HttpError, ValidationError } from '../errors/http-errors.ts';
import type { ResourceRuntime } from './runtime.ts';
import { parseCsv } from '../transfer/import/parse-csv.ts';
import { parseJsonLines } from '../transfer/import/parse-jsonl.ts';
import type { ParsedRow } from '../transfer/import/parsed-rows.ts';
import { runImport, type ImportReport } from './run-import.ts';
import { parseXlsx } from '../transfer/import/parse-xlsx.ts';
import { CSV, importPath, JSON_LINES, XLSX } from '../transfer/import/formats.ts';

/** The bounds of one import request (IMPORT_MAX_BYTES, IMPORT_MAX_ROWS). */
export interface ImportLimits {
  maxBytes: number;
  maxRows: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = { maxBytes: 10 * 1024 * 1024, maxRows: 5000 };

export function registerImports(app: FastifyInstance, deps: EngineDeps, runtimes: ReadonlyMap<string, ResourceRuntime>): void {
  const limits = deps.importLimits ?? DEFAULT_IMPORT_LIMITS;
  app.register(async (scope) => {
    const keep = (_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, body?: unknown) => void) => done(null, body);
    scope.addContentTypeParser([CSV, JSON_LINES], { parseAs: 'string', bodyLimit: limits.maxBytes }, keep);
    scope.addContentTypeParser(XLSX, { parseAs: 'buffer', bodyLimit: limits.maxBytes }, keep);
    for (const runtime of runtimes.values()) {
      const { def } = runtime;
      if (!def.operations.has('create')) continue;
      scope.route({
        method: 'POST',
        url: fastifyPath(importPath(def, deps.prefix)),
        onRequest: deps.authenticate,
        bodyLimit: limits.maxBytes,
        handler: importHandler(runtime, limits),
        config: { resource: def.name, operation: 'import' },
      });
    }
  });
}

function importHandler(runtime: ResourceRuntime, limits: ImportLimits) {
  const { def } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, unknown>;
    const dryRun = flag(query.dry_run, 'dry_run');
    const onError = query.on_error ?? 'abort';
    if (onError !== 'abort' && onError !== 'skip') throw new BadRequestError('on_error must be "abort" (the default: nothing is written when a row fails) or "skip".');
    const rows = await parseFile(request);
    if (rows.length > limits.maxRows) {
      throw new ValidationError({
        file: [`The file has ${rows.length} rows; one import takes at most ${limits.maxRows}. Split it (npm run erp -- import sends a large file in parts).`],
      });
    }
    const report = await runImport(runtime, request, rows, { dryRun, skip: onError === 'skip' });
    if (report.rejected.length > 0 && !dryRun && onError !== 'skip') {
      const failed = report.rejected.length;
      return reply.code(422).send({ message: `${failed} row${failed === 1 ? '' : 's'} of the file ${failed === 1 ? 'was' : 'were'} rejected: nothing was imported.`, ...report });
    }
    return reply.code(200).send({ message: summary(def, report), ...report });
  };
}

function summary(def: ResourceDef, report: ImportReport): string {
  const done = report.dry_run ? 'would be' : 'were';
  const rejected = report.rejected.length > 0 ? `, ${report.rejected.length} rejected` : '';
  return `${report.rows} ${def.label} rows read: ${report.created} ${done} created, ${report.updated} ${done} updated${rejected}.`;
}

async function parseFile(request: FastifyRequest): Promise<ParsedRow[]> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const body = request.body;
  if (type === CSV && typeof body === 'string') return parseCsv(body);
  if (type === JSON_LINES && typeof body === 'string') return parseJsonLines(body);
  if (type === XLSX && Buffer.isBuffer(body)) return parseXlsx(body);
  throw new HttpError(415, `An import takes ${CSV}, ${JSON_LINES} or ${XLSX}.`);
}

function flag(value: unknown, name: string): boolean {
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === '' || value === '1' || value === 'true') return true;
  throw new BadRequestError(`${name} must be 1 or 0 (true or false).`);
}
