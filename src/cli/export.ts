// `npm run erp -- export <module/name>`: every row of a resource to a file, read in batches by the
// engine's export pipeline (engine/transfer/export/export-pipeline.ts, the one the HTTP route runs),
// with the command line's progress display on stderr (./progress.ts) and, at the end, the rows, the
// time, the rate and the process's peak memory.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { createStatements, EXPORT_FORMATS, HttpError, exportResource, supportsInsertReturning, type ExportFormat } from '../../engine/index.ts';
import { behaviours } from '../behaviours/index.ts';
import { loadResources } from '../app/build-app.ts';
import { progress } from './progress.ts';

/** The exit code: 0, or 1 after printing what was wrong (an unknown resource, field, filter or sort). */
export async function exportCommand(knex: Knex, args: string[]): Promise<number> {
  try {
    await runExport(knex, args);
    return 0;
  } catch (error) {
    if (!(error instanceof HttpError) && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true && !(error instanceof UsageError)) throw error;
    const fields = error instanceof HttpError ? (error.body() as { errors?: Record<string, string[]> }).errors : undefined;
    console.error(fields ? Object.values(fields).flat().join('\n') : (error as Error).message);
    return 1;
  }
}

class UsageError extends Error {}

async function runExport(knex: Knex, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'csv' },
      output: { type: 'string', short: 'o' },
      parent: { type: 'string' },
      fields: { type: 'string' },
      filter: { type: 'string', multiple: true },
      search: { type: 'string' },
      sort: { type: 'string' },
    },
  });
  const [resource] = positionals;
  if (!resource)
    throw new UsageError('Usage: npm run erp -- export <module/name> [--format csv|jsonl|xlsx] [--output FILE] [--parent ID] [--filter name=value ...] [--search terms]');
  const format = values.format as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const query: Record<string, string> = {};
  for (const filter of values.filter ?? []) {
    const [name, ...value] = filter.split('=');
    query[`filter[${name}]`] = value.join('=');
  }
  if (values.search) query.search = values.search;
  if (values.sort) query.sort = values.sort;
  const output = values.output ?? `${resource.replace('/', '-')}.${format}`;
  const statements = createStatements(knex, { insertReturns: await supportsInsertReturning(knex) });
  const started = performance.now();
  const shown = progress(process.stderr);
  try {
    const { total, stream } = await exportResource({
      registry: loadResources(),
      behaviours,
      statements,
      resource,
      format,
      fields: values.fields
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean),
      query,
      parentId: values.parent === undefined ? undefined : Number(values.parent),
      onProgress: (done) => shown.update({ done, total }),
    });
    shown.update({ done: 0, total });
    try {
      await pipeline(stream, createWriteStream(output));
    } finally {
      shown.finish();
    }
    const seconds = (performance.now() - started) / 1000;
    const peakMB = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`Exported ${total} row(s) of ${resource} to ${output} in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} rows/s, peak memory ${peakMB} MB).`);
  } finally {
    await statements.close();
  }
}
