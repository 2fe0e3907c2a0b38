// `npm run erp -- aggregate <module/name> --group-by ... --measures ...`: a resource's grouped
// totals as a report on the terminal (an aligned table) or as CSV. The options become the query
// `GET <list path>/aggregate` takes and are read by the same parser (the same messages); the
// groups are run by the engine's runner (engine/aggregate/run-aggregate.ts) without HTTP, as the
// operator: every row of every company, every related record's name, a nested resource over every
// parent unless --parent names one, and datetimes in UTC unless --tz names a zone (the API's
// default, the company's zone, belongs to a user, and the command line has none). Every page of
// groups is read, not only the first.
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import {
  createStatements,
  csvReport,
  dialectOf,
  HttpError,
  listConditions,
  measureValue,
  MAX_GROUPS_PER_PAGE,
  parseAggregateQuery,
  resourceRows,
  everyGroup,
  runAggregate,
  supportsInsertReturning,
  whereClause,
  type AggregateQuery,
  type Group,
  type RawQuery,
  type Registry,
} from '../../engine/index.ts';
import { loadResources } from '../app/build-app.ts';

export const AGGREGATE_USAGE =
  'Usage: npm run erp -- aggregate <module/name> [--group-by a,b:month] [--measures count,field:sum] [--having count>5] [--filter name=value ...] [--search terms] [--sort=-count] [--tz Zone] [--parent ID] [--format table|csv]';

const FORMATS = ['table', 'csv'] as const;
type Format = (typeof FORMATS)[number];

/** What a null key shows in the table. */
export const NONE = '(none)';

export interface AggregateCommandOptions {
  /** Where the report goes (stdout): called once, with all of it. */
  out(text: string): void | Promise<void>;
  /** Where a usage or query error goes (stderr). */
  err(text: string): void;
  /** The definitions (default: resources/). */
  registry?: Registry;
  /** Groups read per statement (default the most a page holds, 1,000). */
  perPage?: number;
}

class UsageError extends Error {}

/** The exit code: 0, or 2 after printing what was wrong (an option, an unknown resource, a name the resource does not offer). */
export async function aggregateCommand(knex: Knex, args: string[], options: AggregateCommandOptions): Promise<number> {
  let report: string;
  try {
    report = await aggregateReport(knex, args, options);
  } catch (error) {
    if (!(error instanceof HttpError) && !(error instanceof UsageError) && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true) throw error;
    const fields = error instanceof HttpError ? (error.body() as { errors?: Record<string, string[]> }).errors : undefined;
    options.err(fields ? Object.values(fields).flat().join('\n') : (error as Error).message);
    if (!(error instanceof HttpError)) options.err(AGGREGATE_USAGE);
    return 2;
  }
  await options.out(report);
  return 0;
}

async function aggregateReport(knex: Knex, args: string[], options: AggregateCommandOptions): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'group-by': { type: 'string', multiple: true },
      measures: { type: 'string', multiple: true },
      having: { type: 'string', multiple: true },
      filter: { type: 'string', multiple: true },
      search: { type: 'string' },
      sort: { type: 'string' },
      tz: { type: 'string' },
      parent: { type: 'string' },
      format: { type: 'string', default: 'table' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'aggregate needs a resource (module/name).' : `One resource at a time: ${positionals.join(', ')}.`);
  const [resource] = positionals as [string];
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}.`);
  const registry = options.registry ?? loadResources();
  if (!registry.resources.has(resource)) throw new UsageError(`No resource \`${resource}\` (npm run erp -- routes lists them).`);
  const def = registry.get(resource);
  if (!def.operations.has('list')) throw new UsageError(`${resource} has no list, so no grouped totals.`);
  let parentId: number | undefined;
  if (values.parent !== undefined) {
    if (!def.parent) throw new UsageError(`--parent: ${resource} is not nested under another resource.`);
    if (!/^[1-9]\d*$/.test(values.parent)) throw new UsageError(`--parent must be an id (a positive whole number), not "${values.parent}".`);
    parentId = Number(values.parent);
  }

  // The query the HTTP route takes, read by its parser.
  const query: RawQuery = { per_page: String(options.perPage ?? MAX_GROUPS_PER_PAGE) };
  if (values['group-by']) query.group_by = values['group-by'].join(',');
  if (values.measures) query.measures = values.measures.join(',');
  if (values.having) query.having = values.having.join(',');
  for (const filter of values.filter ?? []) {
    const [name, ...value] = filter.split('=');
    if (value.length === 0) throw new UsageError(`--filter takes name=value, not "${filter}".`);
    query[`filter[${name}]`] = value.join('=');
  }
  if (values.search !== undefined) query.search = values.search;
  if (values.sort !== undefined) query.sort = values.sort;
  if (values.tz !== undefined) query.tz = values.tz;
  const asked = parseAggregateQuery(query, def, registry);

  const statements = createStatements(knex, { insertReturns: await supportsInsertReturning(knex) });
  try {
    const groups: Group[] = [];
    const where = whereClause(listConditions(def, registry, asked, { parentId, timeZone: asked.timeZone ?? 'UTC' }));
    const read = (page: number) =>
      runAggregate({
        def,
        registry,
        statements,
        dialect: dialectOf(knex),
        asked: { ...asked, page },
        where,
        timeZone: asked.timeZone ?? 'UTC',
        // The operator reads every related record's name, trashed or not.
        labelRows: (target) => resourceRows(target, registry, { trashed: 'with' }),
      });
    for await (const page of everyGroup(read, asked.perPage)) groups.push(...page);
    return format === 'csv' ? csvReport(asked, groups) : tableReport(asked, groups);
  } finally {
    await statements.close();
  }
}

/** An aligned table: a column per key (a relation's name, or its id without one; `(none)` for null) and per measure, right-aligned. */
export function tableReport(asked: Pick<AggregateQuery, 'groupBy' | 'measures'>, groups: readonly Group[]): string {
  const keyText = (value: unknown): string => {
    if (value === null || value === undefined) return NONE;
    if (typeof value === 'object') {
      const { id, label } = value as { id: number; label: unknown };
      return label === null || label === undefined ? String(id) : String(label);
    }
    return String(value);
  };
  const columns = [
    ...asked.groupBy.map((group) => ({ title: group.key, right: false, cells: groups.map((row) => keyText(row.key[group.key])) })),
    ...asked.measures.map((measure) => ({
      title: measure.key,
      right: true,
      cells: groups.map((row) => {
        const value = measureValue(row, measure.key);
        return value === null || value === undefined ? '' : String(value);
      }),
    })),
  ];
  const widths = columns.map((column) => Math.max(column.title.length, ...column.cells.map((cell) => cell.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (columns[i]!.right ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const lines = [line(columns.map((column) => column.title)), line(widths.map((width) => '-'.repeat(width)))];
  for (let row = 0; row < groups.length; row++) lines.push(line(columns.map((column) => column.cells[row]!)));
  return `${lines.join('\n')}\n`;
}
