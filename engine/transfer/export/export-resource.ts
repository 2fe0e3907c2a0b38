// An export outside a request (the command line's `erp export`): every row of a resource, or of
// one parent's, with the list's filters and sort, as a stream, and how many rows it will hold.
// No user: the operator reads what the database holds (no company or record scope), and a nested
// resource without a parent exports the rows of every parent, each with its parent's id.
import type { Readable } from 'node:stream';
import type { Behaviours } from '../../behaviours/types.ts';
import type { Registry } from '../../definition/registry.ts';
import { NotFoundError } from '../../errors/http-errors.ts';
import { listConditions } from '../../list/list-conditions.ts';
import { parseListQuery, type RawQuery } from '../../list/parse-list-query.ts';
import { buildSerializers } from '../../serialize/record.ts';
import { columnsOf } from '../../sql/columns.ts';
import { quote, whereClause } from '../../sql/quote.ts';
import type { Statements } from '../../sql/statements.ts';
import { exportColumns } from './export-columns.ts';
import { exportStream, type ExportFormat } from './export-formats.ts';
import { listPart } from './export-query.ts';
import { exportBatches } from './export-rows.ts';

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
  const { registry, statements, format } = options;
  if (!registry.resources.has(options.resource)) throw new NotFoundError(`No resource \`${options.resource}\`.`);
  const def = registry.get(options.resource);
  const list = parseListQuery(listPart(options.query ?? {}), def);
  const columns = exportColumns(def, registry, options.fields ?? []);
  const conditions = listConditions(def, registry, list, { parentId: options.parentId });
  const where = whereClause(conditions);
  const [counted] = await statements.all(`SELECT COUNT(*) AS ${quote('total')} FROM ${quote(def.table)}${where.sql}`, where.params);
  const serializers = buildSerializers(registry, options.behaviours);
  const batches = exportBatches(
    {
      def,
      registry,
      statements,
      columns: columnsOf(options.behaviours, registry),
      serialize: serializers.get(def.name)!,
      serializeOf: (name) => serializers.get(name)!,
      conditions,
      sort: list.sort,
    },
    columns,
  );
  let done = 0;
  const counting = (async function* () {
    for await (const batch of batches) {
      yield batch;
      done += batch.length;
      options.onProgress?.(done);
    }
  })();
  return {
    total: Number(counted!.total),
    stream: exportStream(
      format,
      columns.map((column) => column.name),
      counting,
    ),
  };
}
