// `npm run erp -- export <module/name>`: every row of a resource to a file, read in batches by the
// engine's export (engine/transfer/export/), with a progress bar on the terminal and, at the end,
// the rows, the time, the rate and the process's peak memory.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { createStatements, EXPORT_FORMATS, HttpError, exportResource, supportsInsertReturning, type ExportFormat } from '../../engine/index.ts';
import { behaviours } from '../behaviours/index.ts';
import { loadResources } from '../app/build-app.ts';

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
      sort: { type: 'string' },
    },
  });
  const [resource] = positionals;
  if (!resource) throw new UsageError('Usage: npm run erp -- export <module/name> [--format csv|jsonl|xlsx] [--output FILE] [--parent ID]');
  const format = values.format as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const query: Record<string, string> = {};
  for (const filter of values.filter ?? []) {
    const [name, ...value] = filter.split('=');
    query[`filter[${name}]`] = value.join('=');
  }
  if (values.sort) query.sort = values.sort;
  const output = values.output ?? `${resource.replace('/', '-')}.${format}`;
  const statements = createStatements(knex, { insertReturns: await supportsInsertReturning(knex) });
  const started = performance.now();
  const progress = progressBar(process.stderr);
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
      onProgress: (done) => progress.update(done, total),
    });
    progress.update(0, total);
    await pipeline(stream, createWriteStream(output));
    progress.done();
    const seconds = (performance.now() - started) / 1000;
    const peakMB = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`Exported ${total} row(s) of ${resource} to ${output} in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} rows/s, peak memory ${peakMB} MB).`);
  } finally {
    await statements.close();
  }
}

/** A one-line bar redrawn in place on a terminal (at most 10 times a second); nothing elsewhere. */
function progressBar(out: NodeJS.WriteStream) {
  let last = 0;
  const draw = (done: number, total: number) => {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const width = 30;
    const filled = Math.round(share * width);
    out.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${done.toLocaleString('en')}/${total.toLocaleString('en')} rows`,
    );
  };
  return {
    update(done: number, total: number) {
      if (!out.isTTY) return;
      const now = performance.now();
      if (now - last < 100 && done < total) return;
      last = now;
      draw(done, total);
    },
    done() {
      if (out.isTTY) out.write('\n');
    },
  };
}
