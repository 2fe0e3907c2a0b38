// GET <list path>/aggregate: a list's rows in groups, with totals (engine/aggregate). The rows are
// the list's (its filters, trashed, permission, parent, company and record scope), so that
// `measures=count` without `group_by` is the list's `meta.total`. A nested resource's rows are also
// grouped across every parent the user may see (GET /sales/order-lines/aggregate: sales by product),
// as they are exported. A belongsTo dimension's label is
// read through the target's own permission and scope: a name the user may not read is null.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../behaviours/types.ts';
import { fastifyPath } from '../definition/route-table.ts';
import type { ResourceDef } from '../definition/types.ts';
import { BadRequestError, NotFoundError } from '../errors/http-errors.ts';
import { single, type RawQuery } from '../list/parse-list-query.ts';
import { aggregatePath, allParentsAggregatePath, MAX_GROUPS_PER_PAGE, parseAggregateQuery, type AggregateQuery } from '../aggregate/parse-aggregate-query.ts';
import { csvReport } from '../aggregate/groups-csv.ts';
import { everyGroup, runAggregate, type GroupsPage } from '../aggregate/run-aggregate.ts';
import { dialectOf, type Dialect } from '../sql/dialect.ts';
import { whereClause, type Condition } from '../sql/quote.ts';
import { resourceRows } from '../sql/resource-rows.ts';
import { pageLinks } from '../serialize/envelope.ts';
import { authorize, lookUpParent, visibleParents } from './lookup.ts';
import { listConditions, userCompanyZone } from './run-list.ts';
import type { ResourceRuntime } from './runtime.ts';

/** Registers the grouped totals of every resource with a list, and of a nested one across every parent. */
export function registerAggregates(app: FastifyInstance, runtimes: Iterable<ResourceRuntime>): void {
  for (const runtime of runtimes) {
    const { def, deps } = runtime;
    if (!def.operations.has('list')) continue;
    const config = { resource: def.name, operation: 'aggregate' };
    app.get(fastifyPath(aggregatePath(deps.prefix, def.path)), { onRequest: deps.authenticate, config, handler: aggregateHandler(runtime, dialectOf(deps.knex), false) });
    const everyParent = allParentsAggregatePath(def, deps.prefix);
    if (everyParent) app.get(everyParent, { onRequest: deps.authenticate, config, handler: aggregateHandler(runtime, dialectOf(deps.knex), true) });
  }
}

/** `everyParent`: a nested resource's rows under every parent the user may see. */
function aggregateHandler(runtime: ResourceRuntime, dialect: Dialect, everyParent: boolean) {
  const { def, deps } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as RawQuery;
    const asked = parseAggregateQuery(query, def, deps.registry);
    const format = parseFormat(query);
    // A missing parent is a 404 before any 403, as the list answers; the permission is the list's.
    const parent = everyParent ? undefined : await lookUpParent(runtime, request);
    if (parent === null) throw new NotFoundError();
    authorize(runtime, request, 'list', {});
    const user = request.authUser!;
    const timeZone = asked.timeZone ?? (await userCompanyZone(runtime, user));
    const run = (page: AggregateQuery) =>
      runAggregate({
        def,
        registry: deps.registry,
        statements: deps.reportReads ?? runtime.statements,
        dialect,
        asked: page,
        where: whereClause([...listConditions(runtime, asked, parent?.id, user, timeZone), ...(everyParent ? [visibleParents(runtime, user)] : [])]),
        timeZone,
        labelRows: (target) => readableRows(runtime, user, target),
      });
    if (format === 'csv') return sendCsv(reply, def, asked, run);
    const { groups, totalGroups } = await run(asked);
    const path = `${request.protocol}://${request.host}${request.url.split('?')[0]}`;
    return reply.send({
      data: groups,
      links: pageLinks({ path, query, page: asked.page, perPage: asked.perPage, total: totalGroups }),
      meta: {
        group_by: asked.groupBy.map((group) => group.key),
        measures: asked.measures.map((measure) => measure.key),
        tz: timeZone,
        current_page: asked.page,
        per_page: asked.perPage,
        total_groups: totalGroups,
      },
    });
  };
}

const FORMATS = ['json', 'csv'] as const;

function parseFormat(query: RawQuery): (typeof FORMATS)[number] {
  const format = (single(query.format).trim() || 'json') as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new BadRequestError(`Requested format \`${format}\` is not allowed. Allowed format(s) are \`${FORMATS.join(', ')}\`.`);
  return format;
}

/**
 * `format=csv`: the groups as a CSV file. Without `page`, every group (read 1,000 at a time, each
 * read under the time limit, the first before the answer starts so that its errors are ordinary
 * answers); with it, that page.
 */
async function sendCsv(reply: FastifyReply, def: ResourceDef, asked: AggregateQuery, run: (page: AggregateQuery) => Promise<GroupsPage>) {
  const everyPage = !asked.pageAsked;
  const pageOf = (page: number): AggregateQuery => (everyPage ? { ...asked, page, perPage: MAX_GROUPS_PER_PAGE } : asked);
  const first = await run(pageOf(everyPage ? 1 : asked.page));
  async function* lines() {
    if (!everyPage) {
      yield `\ufeff${csvReport(asked, first.groups)}`;
      return;
    }
    let header = true;
    for await (const groups of everyGroup((page) => run(pageOf(page)), MAX_GROUPS_PER_PAGE, first)) {
      yield (header ? '\ufeff' : '') + csvReport(asked, groups, { header });
      header = false;
    }
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${def.name.replace('/', '-')}-totals.csv"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}

/** The rows of `target` whose names the user may read: with its list (or show) permission, in their company and record scope, trashed or not. */
function readableRows(runtime: ResourceRuntime, user: AuthUser, target: ResourceDef): Condition[] | undefined {
  const { deps } = runtime;
  const operation = target.operations.has('list') ? 'list' : 'show';
  if (!deps.policy.authorize(user, { def: target, operation, permissions: target.access.permissions[operation] ?? [] })) return undefined;
  return resourceRows(target, deps.registry, { rows: deps.policy.rowScope(user, target), trashed: 'with' });
}
