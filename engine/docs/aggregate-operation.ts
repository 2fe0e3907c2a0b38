// The grouped totals of a resource in the API reference (GET <list path>/aggregate): what it may
// group by and measure (the offer worked out from the definition), the list's filters, and the
// answer typed per dimension and measure.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { lowerLabel, operationId, type NameTable } from '../definition/names.ts';
import { ERROR_MESSAGES } from '../errors/messages.ts';
import { aggregateOffer, DATE_UNITS, type Dimension } from '../aggregate/offer.ts';
import {
  aggregatePath,
  allParentsAggregatePath,
  DEFAULT_GROUPS_PER_PAGE,
  groupNames,
  HAVING_OPERATORS,
  HAVING_PATTERN,
  MAX_GROUP_BY,
  MAX_GROUPS_PER_PAGE,
  MAX_MEASURES,
  measureNames,
} from '../aggregate/parse-aggregate-query.ts';
import { ref, SHARED, type JsonSchema } from '../serialize/response-schemas.ts';
import { outputExample } from './examples.ts';
import { pathParameters, queryParameters } from './parameters.ts';
import { rateLimitHeaders } from './shared-components.ts';
import { accessNote } from './descriptions.ts';

/** `GET <list path>/aggregate` as an OpenAPI path item, for a resource with a list. */
export function aggregatePathItems(def: ResourceDef, registry: Registry, names: NameTable, prefix: string): Array<[string, Record<string, JsonSchema>]> {
  if (!def.operations.has('list')) return [];
  const path = aggregatePath(prefix, def.path);
  const items: Array<[string, Record<string, JsonSchema>]> = [[path, { get: aggregateOperation(def, registry, names, path, false) }]];
  const everyParent = allParentsAggregatePath(def, prefix);
  if (everyParent) items.push([everyParent, { get: aggregateOperation(def, registry, names, everyParent, true) }]);
  return items;
}

function aggregateOperation(def: ResourceDef, registry: Registry, names: NameTable, path: string, everyParent: boolean): JsonSchema {
  const resourceNames = names.get(def.name)!;
  const offer = aggregateOffer(def, registry);
  const groups = groupNames(offer.dimensions);
  const measures = measureNames(offer.measures);
  const error = (description: string, message: string) => ({ description, content: { 'application/json': { schema: ref(SHARED.error), example: { message } } } });
  const filters = queryParameters(def, 'list').filter((parameter) => String(parameter.name ?? '').startsWith('filter[') || parameter.name === 'search');
  const plural = lowerLabel(resourceNames.plural);
  const firstDate = [...offer.dimensions.values()].find((dimension) => dimension.kind === 'date');
  const firstField = [...offer.dimensions.values()].find((dimension) => dimension.kind !== 'date');
  const exampleKey: Record<string, unknown> = {};
  if (firstField) exampleKey[firstField.name] = firstField.kind === 'relation' ? { id: 1, label: 'Azure Interior' } : outputExample(firstField.field, def);
  if (firstDate) exampleKey[`${firstDate.name}:month`] = '2026-11';
  return {
    tags: [resourceNames.tag],
    summary: everyParent ? `Grouped totals of ${plural} across every ${lowerLabel(registry.get(def.parent!.resource).label)}` : `Grouped totals of ${plural}`,
    description: [
      everyParent
        ? `The ${plural} of every ${lowerLabel(registry.get(def.parent!.resource).label)} the user may see (live, in their companies), with the list's filters, search and trashed, in groups, each with its measures.`
        : `The ${plural} the list would show (its filters, search, trashed, company and record scope) in groups, each with its measures: \`measures=count\` without \`group_by\` is one group whose count is the list's \`meta.total\`.`,
      `\`group_by\` names up to ${MAX_GROUP_BY} dimensions: a field, a relation by its name (keyed \`{id, label}\`, the label being the related record's display name, or null where the user may not read it), or a date or datetime with a unit (\`${DATE_UNITS.join('`, `')}\`; keys \`2026-12-05\`, \`2026-W49\` (ISO week), \`2026-12\`, \`2026-Q4\`, \`2026\`; month when none is given). A datetime falls in the calendar of \`tz\` (default the company's time zone), exact across daylight-saving changes. Records without a value make one group, sorted last.`,
      `\`measures\` names up to ${MAX_MEASURES}: \`count\` (the default), or \`<field>:<function>\`. Sums of decimals are exact and written at the field's scale, as are their averages (rounded half away from zero); counts are integers.`,
      `Groups are sorted by \`sort\` (group keys and the measures asked for; a leading \`-\` descending), then by their keys, and paged by \`page\` and \`per_page\` (default ${DEFAULT_GROUPS_PER_PAGE}, at most ${MAX_GROUPS_PER_PAGE}); \`meta.total_groups\` counts the groups.`,
      accessNote(def, 'list'),
    ]
      .filter(Boolean)
      .join('\n\n'),
    operationId: operationId(def, 'list', 'GET').replace(/List$/, everyParent ? 'AggregateAll' : 'Aggregate'),
    'x-permissions': def.access.permissions.list ?? [],
    parameters: [
      ...pathParameters(def, { operation: 'list', method: 'GET', path }),
      {
        name: 'group_by',
        in: 'query',
        description: `Dimensions, comma-separated (at most ${MAX_GROUP_BY}).`,
        style: 'form',
        explode: false,
        schema: { type: 'array', maxItems: MAX_GROUP_BY, items: { type: 'string', enum: groups } },
      },
      {
        name: 'measures',
        in: 'query',
        description: `Measures, comma-separated (at most ${MAX_MEASURES}; default \`count\`).`,
        style: 'form',
        explode: false,
        schema: { type: 'array', maxItems: MAX_MEASURES, items: { type: 'string', enum: measures } },
      },
      {
        name: 'sort',
        in: 'query',
        description: 'Group keys (as in `group_by`) and measures asked for, comma-separated; a leading `-` sorts descending. Default: the keys in order.',
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string' } },
      },
      {
        name: 'having',
        in: 'query',
        description: `Conditions on the measures asked for, comma-separated, all of which a group meets to be kept: \`<measure><operator><value>\` (\`count>5\`, \`amount_total:sum>=1000\`; operators \`${HAVING_OPERATORS.join('`, `')}\`; a date or datetime for the least or greatest of one).`,
        style: 'form',
        explode: false,
        schema: { type: 'array', maxItems: MAX_MEASURES, items: { type: 'string', pattern: HAVING_PATTERN } },
      },
      {
        name: 'tz',
        in: 'query',
        description: "The time zone (an IANA name) datetimes are grouped in, whose days the date filters on datetimes mean; default the company's.",
        schema: { type: 'string', example: 'Europe/Zurich' },
      },
      { name: 'page', in: 'query', description: 'The page of groups.', schema: { type: 'integer', minimum: 1, default: 1 } },
      { name: 'per_page', in: 'query', description: 'Groups per page.', schema: { type: 'integer', minimum: 1, maximum: MAX_GROUPS_PER_PAGE, default: DEFAULT_GROUPS_PER_PAGE } },
      ...filters,
    ],
    responses: {
      200: {
        description: `The groups of ${plural} with their measures.`,
        headers: rateLimitHeaders(),
        content: {
          'application/json': { schema: answerSchema(def, offer.dimensions, offer.measures), example: answerExample(exampleKey, path) },
          'text/csv': { schema: { type: 'string' }, example: `${Object.keys(exampleKey).join(',')},count\r\n` },
        },
      },
      400: error(
        'An unknown group, measure, filter or sort (the message lists the allowed ones), or a search where none is offered.',
        `Requested group(s) \`colour\` are not allowed. Allowed group(s) are \`${[...offer.dimensions.keys()].join(', ')}\`.`,
      ),
      401: { $ref: '#/components/responses/Unauthenticated' },
      403: { $ref: '#/components/responses/Forbidden' },
      ...(def.parent && !everyParent && { 404: error(`No such parent ${registry.get(def.parent.resource).label}.`, ERROR_MESSAGES.notFound) }),
      422: {
        description:
          'Past a bound (dimensions, measures, `per_page`, search terms), a unit or function that does not apply, a time zone that does not exist, or a filter value that is not valid.',
        content: {
          'application/json': {
            schema: ref(SHARED.validationError),
            example: {
              message: 'The tz field must be a valid timezone (an IANA name such as Europe/Zurich).',
              errors: { tz: ['The tz field must be a valid timezone (an IANA name such as Europe/Zurich).'] },
            },
          },
        },
      },
      429: { $ref: '#/components/responses/TooManyRequests' },
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  };
}

/** A group's key for one dimension, as the answer writes it. */
function keySchema(dimension: Dimension): JsonSchema {
  if (dimension.kind === 'relation') {
    return {
      type: ['object', 'null'],
      properties: { id: { type: 'integer' }, label: { type: ['string', 'null'] } },
      required: ['id', 'label'],
      additionalProperties: false,
    };
  }
  if (dimension.kind === 'date') return { type: ['string', 'null'], pattern: '^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?|-W[0-9]{2}|-Q[1-4])?$' };
  const type = dimension.field.type === 'boolean' ? 'boolean' : dimension.field.type === 'integer' ? 'integer' : 'string';
  return { type: [type, 'null'] };
}

/** One function's value of a field's measure. */
function measureSchema(field: FieldDef, fn: string): JsonSchema {
  if (fn === 'count_distinct') return { type: 'integer', minimum: 0 };
  if (field.type === 'decimal') {
    const scale = field.scale ?? 2;
    return { type: fn === 'sum' ? 'string' : ['string', 'null'], pattern: scale > 0 ? `^-?[0-9]+\\.[0-9]{${scale}}$` : '^-?[0-9]+$' };
  }
  if (field.type === 'date' || field.type === 'datetime') return { type: ['string', 'null'], format: 'date-time' };
  if (fn === 'sum') return { type: field.type === 'integer' ? 'integer' : 'number' };
  return { type: ['number', 'null'] };
}

function answerSchema(def: ResourceDef, dimensions: ReadonlyMap<string, Dimension>, measures: ReturnType<typeof aggregateOffer>['measures']): JsonSchema {
  const keys: Record<string, JsonSchema> = {};
  for (const dimension of dimensions.values()) {
    if (dimension.kind === 'date') for (const unit of DATE_UNITS) keys[`${dimension.name}:${unit}`] = keySchema(dimension);
    else keys[dimension.name] = keySchema(dimension);
  }
  const measured: Record<string, JsonSchema> = { count: { type: 'integer', minimum: 0 } };
  for (const { field, functions } of measures.values()) {
    measured[field.name] = {
      type: 'object',
      properties: Object.fromEntries(functions.map((fn) => [fn, measureSchema(field, fn)])),
      additionalProperties: false,
    };
  }
  const url = { type: 'string', description: 'An absolute URL.' };
  return {
    type: 'object',
    description: `Groups of ${lowerLabel(def.label)} records with their measures.`,
    properties: {
      data: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            key: { type: 'object', description: 'The group: a value per dimension asked for.', properties: keys, additionalProperties: false },
            measures: { type: 'object', description: 'The measures asked for.', properties: measured, additionalProperties: false },
          },
          required: ['key', 'measures'],
          additionalProperties: false,
        },
      },
      links: {
        type: 'object',
        properties: { first: url, last: url, prev: { type: ['string', 'null'] }, next: { type: ['string', 'null'] } },
        required: ['first', 'last', 'prev', 'next'],
        additionalProperties: false,
      },
      meta: {
        type: 'object',
        properties: {
          group_by: { type: 'array', items: { type: 'string' } },
          measures: { type: 'array', items: { type: 'string' } },
          tz: { type: 'string', description: 'The time zone datetimes were grouped in.' },
          current_page: { type: 'integer', minimum: 1 },
          per_page: { type: 'integer', minimum: 1, maximum: MAX_GROUPS_PER_PAGE },
          total_groups: { type: 'integer', minimum: 0 },
        },
        required: ['group_by', 'measures', 'tz', 'current_page', 'per_page', 'total_groups'],
        additionalProperties: false,
      },
    },
    required: ['data', 'links', 'meta'],
    additionalProperties: false,
  };
}

function answerExample(key: Record<string, unknown>, path: string): unknown {
  const groupBy = Object.keys(key);
  const url = `https://erp.example.com${path}?group_by=${groupBy.join(',')}&page=1`;
  return {
    data: [{ key, measures: { count: 12 } }],
    links: { first: url, last: url, prev: null, next: null },
    meta: { group_by: groupBy, measures: ['count'], tz: 'UTC', current_page: 1, per_page: DEFAULT_GROUPS_PER_PAGE, total_groups: 1 },
  };
}

/** The grouped totals' row in a resource's table of the Markdown reference. */
export function aggregateRow(def: ResourceDef, prefix: string): string[] {
  if (!def.operations.has('list')) return [];
  const permissions = (def.access.permissions.list ?? []).map((name) => `\`${name}\``).join(' + ');
  const rows = [
    `| GET | \`${aggregatePath(prefix, def.path)}\` | Grouped totals | 200 \`{data: [{key, measures}], links, meta}\`: the list's records by \`group_by\`, with \`measures\` | ${permissions} |`,
  ];
  const everyParent = allParentsAggregatePath(def, prefix);
  if (everyParent) rows.push(`| GET | \`${everyParent}\` | Grouped totals (every parent) | 200 the same, over the records of every parent | ${permissions} |`);
  return rows;
}

/** The grouped totals' path of a resource with a list (for the references' lists of generated routes). */
export function aggregatePaths(def: ResourceDef, prefix: string): string[] {
  const everyParent = allParentsAggregatePath(def, prefix);
  return def.operations.has('list') ? [aggregatePath(prefix, def.path), ...(everyParent ? [everyParent] : [])] : [];
}
