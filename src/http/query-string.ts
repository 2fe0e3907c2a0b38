// The query string as the routes read it: Fastify's own parser (fast-querystring: a repeated key
// gives an array), with the array forms HTTP clients write folded into the plain key. axios and
// qs send `include[]=country&include[]=state`, PHP's http_build_query `include[0]=country`, and
// `filter[id][]=1`: each is read as the comma list it stands for (`include=country,state`,
// `filter[id]=1,2`). Without this a list read them as unknown keys and answered as if they were
// not there: no includes, no search, another sort, every record.
import { parse } from 'fast-querystring';

/** `<base>[]` or `<base>[<index>]` (one level: `filter[id][]` folds into `filter[id]`). */
const ARRAY_KEY = /^(.+?)\[(\d*)\]$/;
/** A `]`, or percent-encoded in either case (`%5D`, `%5d`). */
const HAS_CLOSING_BRACKET = /\]|%5d/i;

export function parseQueryString(text: string): Record<string, string | string[]> {
  const query = parse(text) as Record<string, string | string[]>;
  // Most query strings have no bracket at all: nothing to fold.
  if (!HAS_CLOSING_BRACKET.test(text)) return query;
  const folded = new Map<string, Array<{ index: number; values: string[] }>>();
  for (const key of Object.keys(query)) {
    const match = ARRAY_KEY.exec(key);
    // `filter[name]` is a key of its own: only an empty or numeric index marks an array.
    if (!match) continue;
    const base = match[1]!;
    const values = ([] as string[]).concat(query[key]!);
    delete query[key];
    const parts = folded.get(base) ?? [];
    parts.push({ index: match[2] === '' ? -1 : Number(match[2]), values });
    folded.set(base, parts);
  }
  for (const [base, parts] of folded) {
    // PHP's indexes give the order; `[]` keeps the order sent (before any indexed one).
    const joined = parts
      .sort((a, b) => a.index - b.index)
      .flatMap((part) => part.values)
      .join(',');
    const plain = query[base];
    query[base] = plain === undefined ? joined : [...([] as string[]).concat(plain), joined];
  }
  return query;
}
