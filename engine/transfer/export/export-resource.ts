// An export outside a request (the command line's `erp export`): the one export pipeline
// (./export-pipeline.ts) on a resource's rows, or one parent's, with the list's filters and sort,
// as a stream, and how many rows it will hold. No user: the operator reads what the database
// holds (no company or record scope), and a nested resource without a parent exports the rows of
// every parent, each with its parent's id. What this adds to the pipeline is what a request has
// and a process outside one lacks: the serializers and select lists, built from the behaviours.
import type { Readable } from 'node:stream';
import type { Behaviours } from '../../behaviours/types.ts';
import type { Registry } from '../../definition/registry.ts';
import { NotFoundError } from '../../errors/http-errors.ts';
import type { RawQuery } from '../../list/parse-list-query.ts';
import { buildSerializers } from '../../serialize/record.ts';
import { columnsOf } from '../../sql/columns.ts';
import type { Statements } from '../../sql/statements.ts';
import type { ExportFormat } from './export-formats.ts';
import { openExport } from './export-pipeline.ts';

export interface ExportResourceOptions {
  registry: Registry;
  behaviours: Behaviours;
  statements: Pick<Statements, 'all'>;
  /** module/name: `support/uoms`. */
  resource: string;
  format: ExportFormat;
  fields?: string[];
  /** `filter[...]` and `sort`, as the list takes them. */
  query?: RawQuery;
  /** A nested resource: only this parent's rows. */
  parentId?: number;
  /** Called after each batch with the rows written so far. */
  onProgress?: (done: number) => void;
}

export async function exportResource(options: ExportResourceOptions): Promise<{ total: number; stream: Readable }> {
  const { registry } = options;
  if (!registry.resources.has(options.resource)) throw new NotFoundError(`No resource \`${options.resource}\`.`);
  const def = registry.get(options.resource);
  const serializers = buildSerializers(registry, options.behaviours);
  const { total, stream } = await openExport({
    def,
    registry,
    statements: options.statements,
    columns: columnsOf(options.behaviours, registry),
    serialize: serializers.get(def.name)!,
    serializeOf: (name) => serializers.get(name)!,
    query: { ...options.query, format: options.format, fields: (options.fields ?? []).join(',') },
    scope: () => ({ parentId: options.parentId }),
    count: true,
    onProgress: options.onProgress,
  });
  return { total: total!, stream };
}
