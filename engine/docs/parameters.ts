import type { Operation } from '../definition/format.ts';
import type { FilterDef, ResourceDef } from '../definition/types.ts';
import type { RouteSpec } from '../definition/route-table.ts';
import type { JsonSchema } from '../serialize/response-schemas.ts';
import { MAX_SEARCH_LENGTH, MAX_TERMS, MIN_TERM_LENGTH } from '../definition/search-words.ts';
import { IDEMPOTENCY_KEY } from './shared-components.ts';
import { DAY_SPAN_PATTERN } from '../calendar/periods.ts';

/** The request headers an operation takes beside its path and query: retries and optimistic concurrency. */
export function conditionalHeaders(op: Operation): JsonSchema[] {
  const header = (name: string, description: string) => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  if (op === 'create') return [IDEMPOTENCY_KEY];
  if (op === 'show') return [header('If-None-Match', 'An ETag the client holds: 304 (no body) when the record still has it.')];
  if (op === 'update' || op === 'delete' || op === 'forceDelete')
    return [header('If-Match', 'The ETag the client read: 412 (nothing changed) when the record has another one now. `*` matches any.')];
  return [];
}

export function pathParameters(def: ResourceDef, route: RouteSpec): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const [, name] of route.path.matchAll(/\{([a-z_]+)\}/g)) {
    const isParent = def.parent && name === def.parent.param;
    params.push({
      name,
      in: 'path',
      required: true,
      description: isParent
        ? `Id of the parent \`${def.parent!.resource}\` record; a missing (or trashed) parent is a 404.`
        : `Id of the ${def.label}${def.parent ? ' (under that parent)' : ''}; anything but digits is a 404.`,
      schema: { type: 'integer', minimum: 0 },
      example: 1,
    });
  }
  return params;
}

export function queryParameters(def: ResourceDef, op: Operation): JsonSchema[] {
  const params: JsonSchema[] = [];
  const includes = [...def.allowedIncludes];
  if (includes.length > 0 && op !== 'delete' && op !== 'forceDelete') {
    params.push({
      name: 'include',
      in: 'query',
      description: `Related records to add, comma-separated: ${includes.map((name) => `\`${name}\``).join(', ')}. They appear under the snake_case name.`,
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string', enum: includes }, uniqueItems: true },
    });
  }
  if (op !== 'list') return params;
  for (const filter of def.filters.values()) params.push(filterParameter(filter));
  if (def.search.length > 0) params.push(searchParameter(def));
  if ([...def.filters.values()].some((filter) => filter.kind === 'date' && filter.field!.type === 'datetime')) params.push(TIME_ZONE);
  const sorts = def.sorts.flatMap((name) => [name, `-${name}`]);
  params.push({
    name: 'sort',
    in: 'query',
    description: `Sort fields, comma-separated; a leading \`-\` sorts descending. Allowed: ${def.sorts.map((name) => `\`${name}\``).join(', ')}. Default: \`${def.defaultSort.map((s) => (s.descending ? '-' : '') + s.name).join(',')}\`.`,
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'string', enum: sorts } },
  });
  params.push({ $ref: '#/components/parameters/page' }, { $ref: '#/components/parameters/per_page' });
  return params;
}

/** `search`: the words it finds, in the reference's words (the rules: engine/definition/search-words.ts). */
export function searchWords(def: ResourceDef): string {
  return (
    `Records with a word starting with each term in ${def.search.map((name) => `\`${name}\``).join(', ')}: ` +
    `up to ${MAX_TERMS} terms separated by spaces, each with a word of at least ${MIN_TERM_LENGTH} letters or digits, all required; ` +
    'case and accents ignored (`zurich` finds "Zürich"), and anything but letters and digits only separates words (no wildcards).'
  );
}

function searchParameter(def: ResourceDef): JsonSchema {
  return { name: 'search', in: 'query', description: searchWords(def), schema: { type: 'string', maxLength: MAX_SEARCH_LENGTH }, example: 'azure' };
}

const NUMBER = '-?[0-9]+(\\.[0-9]+)?';
/** A number, or a range of two with either end open. */
const NUMBER_SPAN_PATTERN = `^(${NUMBER}|${NUMBER}\\.\\.(${NUMBER})?|\\.\\.${NUMBER})$`;

/** `tz`, where a date filter's days are those of a zone. */
const TIME_ZONE: JsonSchema = {
  name: 'tz',
  in: 'query',
  description: "The time zone (an IANA name) whose calendar days the date filters on datetimes mean; default the company's.",
  schema: { type: 'string', example: 'Europe/Zurich' },
};

/** What each filter kind matches, in the reference's words (the OpenAPI document's and the Markdown reference's). */
export const FILTER_KINDS: Record<FilterDef['kind'], string> = {
  exact: 'equals the value, or one of comma-separated values',
  partial: 'contains the text (case-insensitive)',
  list: 'is one of the comma-separated values',
  boolean: 'is true or false (`true`, `false`, `1`, `0`)',
  date: 'falls in the period: a day (`2026-12-05`), an ISO week (`2026-W49`), a month (`2026-12`), a quarter (`2026-Q4`) or a year (`2026`), the keys of the grouped totals, or a range of them with either end open (`2026-11..2026-12`, `2026-11-15..`, `..2026-W02`)',
  range: 'lies between two numbers, both included, either end open (`1000..`, `100..500`, `..99.99`), or equals one number',
  trashed: '',
};

function filterParameter(filter: FilterDef): JsonSchema {
  const name = `filter[${filter.name}]`;
  if (filter.kind === 'trashed') {
    return {
      name,
      in: 'query',
      description: `Soft-deleted records: \`${filter.values.join('`, `')}\`. Without it (or with another value) they are left out. Kind: \`trashed\`.`,
      schema: { type: 'string', enum: [...filter.values] },
    };
  }
  const zoned = filter.kind === 'date' && filter.field!.type === 'datetime' ? " A day is the calendar day of `tz` (default the company's time zone)." : '';
  const description = `Records whose \`${filter.fieldName}\` ${FILTER_KINDS[filter.kind]}.${zoned} Kind: \`${filter.kind}\`.`;
  const value = filterValueSchema(filter);
  if (filter.kind === 'list' || filter.kind === 'exact') {
    return { name, in: 'query', description, style: 'form', explode: false, schema: { type: 'array', items: value } };
  }
  return { name, in: 'query', description, schema: value };
}

function filterValueSchema(filter: FilterDef): JsonSchema {
  const field = filter.field!;
  if (filter.kind === 'partial') return { type: 'string' };
  if (filter.kind === 'boolean') return { type: 'boolean' };
  if (filter.kind === 'date') return { type: 'string', pattern: DAY_SPAN_PATTERN, example: '2026-11..2026-12' };
  if (filter.kind === 'range') return { type: 'string', pattern: NUMBER_SPAN_PATTERN, example: '100..500' };
  switch (field.type) {
    case 'integer':
      return { type: 'integer' };
    case 'number':
    case 'decimal':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    default:
      return field.enum ? { type: 'string', enum: [...field.enum] } : { type: 'string' };
  }
}
