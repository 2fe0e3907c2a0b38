// Reads `include`, `filter[...]`, `sort`, `page` and `per_page` from a query string.
// Every name must be one the definition declares: an unknown one is a 400 listing the allowed
// ones; a bad value is a 422 naming the parameter. Nothing here touches the database.
import type { FilterDef, ResourceDef, SortDef } from '../definition/types.ts';
import { parseSort } from '../definition/normalize.ts';
import { BadRequestError, ValidationError, type FieldErrors } from '../errors/http-errors.ts';
import { filterKinds } from './filters/index.ts';
import { parseSearch, type SearchTerms } from '../definition/search-words.ts';
import type { TrashedMode } from '../sql/resource-rows.ts';
import { isTimeZone } from '../schema/string-formats.ts';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
/** Pages beyond this are past any data set the service holds, and their offset past what SQL takes. */
export const MAX_PAGE = 1_000_000_000;

export type RawQuery = Record<string, string | string[] | undefined>;

export interface ParsedFilter {
  filter: FilterDef;
  value: unknown;
}

export interface ListQuery {
  filters: ParsedFilter[];
  trashed: TrashedMode;
  /** `search=`: the word prefixes every row must have (engine/definition/search-words.ts); empty: no search. */
  search: SearchTerms;
  /** `tz`: the zone whose days a date filter on a datetime means; undefined: the company's. */
  timeZone?: string;
  sort: SortDef[];
  includes: string[];
  page: number;
  perPage: number;
}

export function parseListQuery(query: RawQuery, def: ResourceDef): ListQuery {
  const errors: FieldErrors = {};
  const { filters, trashed, search } = parseFilters(query, def, errors);
  const includes = parseIncludes(query, def);
  const sort = parseSortParam(query, def);
  const page = parsePositiveInteger(query.page, 'page', 1, MAX_PAGE, errors);
  const perPage = parsePositiveInteger(query.per_page, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE, errors);
  const timeZone = parseTimeZone(query, errors);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { filters, trashed, search, ...(timeZone && { timeZone }), sort, includes, page, perPage };
}

/**
 * `filter[...]` (and `filter[trashed]`) and `search`: which rows a list, an export or a grouped
 * total reads. An unknown filter, or a search where the resource offers none, is a 400 at once; a
 * bad value is added to `errors` (a 422 with the others).
 */
export function parseFilters(query: RawQuery, def: ResourceDef, errors: FieldErrors): Pick<ListQuery, 'filters' | 'trashed' | 'search'> {
  const filters: ParsedFilter[] = [];
  let trashed: TrashedMode = 'without';
  const unknownFilters: string[] = [];
  for (const [key, rawValue] of Object.entries(query)) {
    const match = /^filter\[([^\]]*)\]$/.exec(key);
    if (!match) {
      if (key === 'filter' || key.startsWith('filter[')) unknownFilters.push(key);
      continue;
    }
    const filter = def.filters.get(match[1]!);
    if (!filter) {
      unknownFilters.push(match[1]!);
      continue;
    }
    const raw = single(rawValue).trim();
    if (raw === '') continue; // an empty filter is no filter, as in the original
    const parsed = filterKinds[filter.kind].parse(raw, filter);
    if ('error' in parsed) errors[key] = [parsed.error];
    else if (filter.kind === 'trashed') trashed = parsed.value as TrashedMode;
    else filters.push({ filter, value: parsed.value });
  }
  if (unknownFilters.length > 0) {
    throw new BadRequestError(`Requested filter(s) \`${unknownFilters.join(', ')}\` are not allowed. Allowed filter(s) are \`${[...def.filters.keys()].join(', ')}\`.`);
  }
  return { filters, trashed, search: parseSearchParam(query, def, errors) };
}

/** `tz`: an IANA zone, or a 422 on `tz`; undefined when not given. */
export function parseTimeZone(query: RawQuery, errors: FieldErrors): string | undefined {
  if (query.tz === undefined) return undefined;
  const tz = single(query.tz).trim();
  if (isTimeZone(tz)) return tz;
  errors.tz = ['The tz field must be a valid timezone (an IANA name such as Europe/Zurich).'];
  return undefined;
}

function parseSearchParam(query: RawQuery, def: ResourceDef, errors: FieldErrors): SearchTerms {
  if (query.search === undefined) return [];
  const raw = single(query.search).trim();
  if (raw === '') return []; // as an empty filter
  if (def.search.length === 0) throw new BadRequestError(`Search is not offered here: ${def.label} records have no searchable fields.`);
  const parsed = parseSearch(raw);
  if ('error' in parsed) {
    errors.search = [parsed.error];
    return [];
  }
  return parsed.terms;
}

/** `include=a,b` (or repeated) → declared relation paths; `lines.product` also allows `lines`. */
export function parseIncludes(query: RawQuery, def: ResourceDef): string[] {
  const requested = commaList(query.include);
  if (requested.length === 0) return [];
  const allowed = def.allowedIncludes;
  const unknown = requested.filter((name) => !allowed.has(name));
  if (unknown.length > 0) {
    throw new BadRequestError(`Requested include(s) \`${unknown.join(', ')}\` are not allowed. Allowed include(s) are \`${[...allowed].join(', ')}\`.`);
  }
  return [...new Set(requested)];
}

function parseSortParam(query: RawQuery, def: ResourceDef): SortDef[] {
  const requested = parseSort(commaList(query.sort).join(','));
  const sort = requested.length > 0 ? requested : def.defaultSort;
  const unknown = requested.filter((s) => !def.sorts.includes(s.name)).map((s) => s.name);
  if (unknown.length > 0) {
    throw new BadRequestError(`Requested sort(s) \`${unknown.join(', ')}\` is not allowed. Allowed sort(s) are \`${def.sorts.join(', ')}\`.`);
  }
  return withIdLast(sort);
}

/**
 * The order with `id` last, when it is not among the keys: a unique last key keeps pages stable
 * when the sorted values repeat. It runs in the direction of the key before it, so that `-name` is
 * `name` read backwards, and an index on the sorted column (which ends with the row's id on both
 * databases) gives the rows in order either way, without a sort step.
 */
export function withIdLast(sort: readonly SortDef[]): SortDef[] {
  if (sort.some((key) => key.name === 'id')) return [...sort];
  return [...sort, { name: 'id', descending: sort.at(-1)?.descending ?? false }];
}

export function parsePositiveInteger(raw: string | string[] | undefined, name: string, fallback: number, max: number | undefined, errors: FieldErrors): number {
  if (raw === undefined) return fallback;
  const value = single(raw).trim();
  const label = name.replace(/_/g, ' ');
  if (!/^[0-9]+$/.test(value)) {
    errors[name] = [`The ${label} field must be an integer.`];
    return fallback;
  }
  const number = Number(value);
  if (number < 1) errors[name] = [`The ${label} field must be at least 1.`];
  else if (max !== undefined && number > max) errors[name] = [`The ${label} field must not be greater than ${max}.`];
  return number;
}

export function single(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[value.length - 1] ?? '') : (value ?? '');
}

export function commaList(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
