// The one export pipeline, for the HTTP route (engine/routes/export.ts) and the command line
// (./export-resource.ts, src/cli/export.ts): the export's query (`format`, `fields`, the list's
// `filter[...]`, `sort` and `filter[trashed]`), its columns, the rows read by keyset in batches
// (./export-rows.ts) and the format's writer (./export-formats.ts), handed back as a byte stream
// that reads the next batch only when its reader asks for more: a slow client or disk holds the
// reads, and memory holds a batch or so however many rows.
//
// The query is read first (a bad format, field, filter or sort throws its 400 before anything
// else), then the caller's scope is settled (the HTTP route's parent and permission: 404, 403),
// then the first batch is read before the stream is handed back: each of those failures is the
// caller's error (an ordinary error response), never a file cut short. What stays the caller's
// own: who may read which rows (the scope), and where the bytes go.
import type { Readable } from 'node:stream';
import type { Registry } from '../../definition/registry.ts';
import type { ResourceDef } from '../../definition/types.ts';
import { listConditions, listTimeZone } from '../../list/list-conditions.ts';
import { parseListQuery, type RawQuery } from '../../list/parse-list-query.ts';
import type { Serialize } from '../../serialize/record.ts';
import type { Columns } from '../../sql/columns.ts';
import { countRows } from '../../sql/export-reads.ts';
import type { Condition } from '../../sql/quote.ts';
import type { RowScope } from '../../sql/resource-rows.ts';
import type { Statements } from '../../sql/statements.ts';
import { exportColumns } from './export-columns.ts';
import { CONTENT_TYPES, exportStream, type ExportFormat } from './export-formats.ts';
import { listPart, parseExportQuery } from './export-query.ts';
import { exportBatches } from './export-rows.ts';

/** Which rows: a parent's, the user's row scope, and conditions of the caller's own. */
export interface ExportScope {
  /** A nested resource: only this parent's rows. */
  parentId?: number;
  /** The policy's row scope for the user; none: every row (the command line). */
  rows?: RowScope;
  conditions?: readonly Condition[];
  /** The zone of the caller's company, read when a date filter on a datetime names days without `tz`; none: UTC. */
  companyTimeZone?: () => Promise<string>;
}

export interface ExportOptions {
  def: ResourceDef;
  registry: Registry;
  statements: Pick<Statements, 'all'>;
  /** The select list of a resource's rows, and the serializers of the resource and of its lines' resources. */
  columns: Columns;
  serialize: Serialize;
  serializeOf(resource: string): Serialize;
  /** Columns whose LIKE already ignores case (engine/schema/column-bounds.ts). */
  likeIgnoresCase?: ReadonlySet<string>;
  /** The export's query as the route takes it: `format`, `fields`, `filter[...]`, `sort` (`page`, `per_page` and `include` are ignored). */
  query: RawQuery;
  /** Settled once the query is read, before any row: may throw (a missing parent, a permission refused). */
  scope?: () => ExportScope | Promise<ExportScope>;
  /** Count the rows first (one more statement): `total` in the answer. */
  count?: boolean;
  /** Called each time the writer has taken a batch, with the rows taken so far. */
  onProgress?: (done: number) => void;
}

export interface OpenedExport {
  format: ExportFormat;
  contentType: string;
  /** `<module>-<name>.<format>`: the attachment's name, the command line's default output. */
  fileName: string;
  /** With `count`: how many rows the file will hold (unless rows change meanwhile). */
  total?: number;
  stream: Readable;
}

export async function openExport(options: ExportOptions): Promise<OpenedExport> {
  const { def, registry, statements } = options;
  const { format, fields } = parseExportQuery(options.query);
  const list = parseListQuery(listPart(options.query), def);
  const columns = exportColumns(def, registry, fields);
  const scope = (await options.scope?.()) ?? {};
  const timeZone = await listTimeZone(list, scope.companyTimeZone ?? (async () => 'UTC'));
  const conditions = listConditions(def, registry, list, { parentId: scope.parentId, rows: scope.rows, likeIgnoresCase: options.likeIgnoresCase, timeZone });
  conditions.push(...(scope.conditions ?? []));
  let total: number | undefined;
  if (options.count) {
    total = await countRows(statements, def.table, conditions);
  }
  const batches = exportBatches(
    { def, registry, statements, columns: options.columns, serialize: options.serialize, serializeOf: options.serializeOf, conditions, sort: list.sort },
    columns,
  );
  const first = await batches.next();
  const { onProgress } = options;
  const rows = (async function* () {
    if (first.done) return;
    let done = 0;
    yield first.value;
    done += first.value.length;
    onProgress?.(done);
    for await (const batch of batches) {
      yield batch;
      done += batch.length;
      onProgress?.(done);
    }
  })();
  return {
    format,
    contentType: CONTENT_TYPES[format],
    fileName: `${def.name.replace('/', '-')}.${format}`,
    total,
    stream: exportStream(
      format,
      columns.map((column) => column.name),
      rows,
    ),
  };
}
