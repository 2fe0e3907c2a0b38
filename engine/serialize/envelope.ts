// The Laravel paginator envelope: {data, links, meta}. Page links keep the client's other
// query parameters (filters, sort, include, per_page), so following `next` stays on the same list.

export interface PageInfo {
  /** Absolute URL of the list, without query string. */
  path: string;
  /** The request's query parameters; `page` is replaced in each link. */
  query: Record<string, string | string[] | undefined>;
  page: number;
  perPage: number;
  total: number;
  /** False when the count stopped at its bound: `total` is then a lower bound (engine/routes/run-list.ts). */
  totalExact?: boolean;
}

interface MetaLink {
  url: string | null;
  label: string;
  page: number | null;
  active: boolean;
}

/** The first, last, previous and next pages' URLs (none before the first or past the last). */
export function pageLinks(info: PageInfo) {
  const lastPage = Math.max(1, Math.ceil(info.total / info.perPage));
  const prefix = pageUrlPrefix(info);
  const url = (page: number) => `${prefix}${page}`;
  return { first: url(1), last: url(lastPage), prev: info.page > 1 ? url(info.page - 1) : null, next: info.page < lastPage ? url(info.page + 1) : null };
}

export function listEnvelope(data: unknown[], info: PageInfo) {
  const lastPage = Math.max(1, Math.ceil(info.total / info.perPage));
  const prefix = pageUrlPrefix(info);
  const url = (page: number) => `${prefix}${page}`;
  const from = data.length > 0 ? (info.page - 1) * info.perPage + 1 : null;
  return {
    data,
    links: {
      first: url(1),
      last: url(lastPage),
      prev: info.page > 1 ? url(info.page - 1) : null,
      next: info.page < lastPage ? url(info.page + 1) : null,
    },
    meta: {
      current_page: info.page,
      from,
      last_page: lastPage,
      links: metaLinks(info.page, lastPage, url),
      path: info.path,
      per_page: info.perPage,
      to: from === null ? null : from + data.length - 1,
      total: info.total,
      ...(info.totalExact === false && { total_exact: false }),
    },
  };
}

/** The list's URL with the client's other parameters, up to the page number (written once per list). */
function pageUrlPrefix(info: PageInfo): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(info.query)) {
    if (key === 'page' || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
  }
  const others = params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%2C/g, ',');
  return `${info.path}?${others === '' ? '' : `${others}&`}page=`;
}

const ON_EACH_SIDE = 3;

/** Laravel's link window: every page when there are few, else first pages … window … last pages. */
function metaLinks(current: number, last: number, url: (page: number) => string): MetaLink[] {
  const pageLink = (page: number): MetaLink => ({ url: url(page), label: String(page), page, active: page === current });
  const gap: MetaLink = { url: null, label: '...', page: null, active: false };
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => pageLink(from + i));

  let pages: MetaLink[];
  const window = ON_EACH_SIDE + 4;
  if (last < ON_EACH_SIDE * 2 + 8) pages = range(1, last);
  else if (current <= window) pages = [...range(1, window + ON_EACH_SIDE), gap, ...range(last - 1, last)];
  else if (current > last - window) pages = [...range(1, 2), gap, ...range(last - (window + ON_EACH_SIDE - 1), last)];
  else pages = [...range(1, 2), gap, ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), gap, ...range(last - 1, last)];

  return [
    { url: current > 1 ? url(current - 1) : null, label: '&laquo; Previous', page: current > 1 ? current - 1 : null, active: false },
    ...pages,
    { url: current < last ? url(current + 1) : null, label: 'Next &raquo;', page: current < last ? current + 1 : null, active: false },
  ];
}
