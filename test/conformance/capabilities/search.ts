// `search=<terms>` on the list, its grouped totals and its export, checked for every resource from
// its definition: the records found are those with, for every word of at least three letters or
// digits of the terms, a word of their searched values starting with it, as `wordsOf`
// (engine/definition/search-words.ts) works the words out (lowercased, accents off, ß → ss,
// anything but letters and digits a separator, so `%`, `_` and `\` are no wildcards).
//
// The values judged are the row's searched columns as stored: the columns every definition on its
// table searches (`def.searchColumns`; an address is found by its partner row's reference too). A
// row is held to the answer only when its stored words are those of its values: rows the suites
// write straight to a table (a worker's rows, a read-only number a filter needs, another test
// file's fixtures) have none, or stale ones, and are judged by what the API writes instead (the
// record created and renamed here). A resource that searches nothing answers 400 to a search.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { MAX_TERMS, storedWords, wordsOf } from '../../../engine/definition/search-words.ts';
import { SEARCH_COLUMN } from '../../../engine/definition/search-words.ts';
import type { FieldDef, ResourceDef } from '../../../engine/definition/types.ts';
import { liveRows, recordPath, type ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

type Row = Record<string, any>;

/** Rows of the list's first page (newest first) a term is checked against, narrowed by `filter[id]`. */
const SAMPLE_ROWS = 40;
const MIN_WORD = 3;

/** The words a search asks for: each term's words of at least three letters or digits. */
export function askedWords(search: string): string[] {
  return search
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((piece) => wordsOf(piece).filter((word) => word.length >= MIN_WORD));
}

/** Whether values have, for every asked word, a word that starts with it. */
export function matches(values: readonly unknown[], asked: readonly string[]): boolean {
  const words = values.filter((value) => value !== null && value !== undefined && value !== '').flatMap((value) => wordsOf(String(value)));
  return asked.every((start) => words.some((word) => word.startsWith(start)));
}

/** The searched field an update can rename with a value of several words (no format, no choice, long enough). */
export function renamableSearchField(def: ResourceDef): FieldDef | undefined {
  return def.search
    .map((name) => def.fields.get(name)!)
    .find((field) => field.writable && (field.type === 'string' || field.type === 'text') && !field.format && !field.enum && (field.maxLength ?? 255) >= 64);
}

const e = encodeURIComponent;
const unique = () => `q${Math.random().toString(36).slice(2, 9)}`;

async function get(ctx: ResourceContext, url: string): Promise<any> {
  const response = await ctx.client.get(url, { token: ctx.token });
  assert.is(response.status, 200, `${decodeURIComponent(url)}: ${response.text.slice(0, 500)}`);
  return response.body;
}

/** The rows' searched columns and stored words, by id, as the table holds them. */
async function storedRows(ctx: ResourceContext, ids: readonly number[]): Promise<Map<number, Row>> {
  const { def } = ctx;
  const rows = new Map<number, Row>();
  if (ids.length === 0) return rows;
  for (const row of await ctx.app
    .knex(def.table)
    .whereIn('id', ids)
    .select('id', SEARCH_COLUMN, ...def.searchColumns))
    rows.set(Number(row.id), row);
  return rows;
}

const valuesOf = (def: ResourceDef, row: Row) => def.searchColumns.map((column) => row[column]);

/** A row whose stored words are those of its values: written through the API (or filled at boot), held to every answer. */
function wordsKept(def: ResourceDef, row: Row | undefined): boolean {
  return row !== undefined && row[SEARCH_COLUMN] !== null && row[SEARCH_COLUMN] === storedWords(valuesOf(def, row));
}

/**
 * The ids a search narrowed by `filter[id]=<ids>` must answer: every one whose words are kept and
 * match, and no other (a row whose words are not kept may be either way).
 */
function judge(ctx: ResourceContext, stored: Map<number, Row>, ids: readonly number[], found: readonly number[], search: string, where: string): void {
  const asked = askedWords(search);
  for (const id of found) {
    assert.ok(ids.includes(id), `${where}: ${id} is outside filter[id]`);
    const row = stored.get(id)!;
    if (wordsKept(ctx.def, row))
      assert.ok(matches(valuesOf(ctx.def, row), asked), `${where}: ${id} has no word starting with each of ${asked.join(', ')}: ${JSON.stringify(valuesOf(ctx.def, row))}`);
  }
  for (const id of ids) {
    const row = stored.get(id)!;
    if (wordsKept(ctx.def, row) && matches(valuesOf(ctx.def, row), asked))
      assert.ok(found.includes(id), `${where}: ${id} not found though its ${JSON.stringify(valuesOf(ctx.def, row))} has words starting with ${asked.join(', ')}`);
  }
}

/** The ids a list with this query shows, with its total; a page of 100 at most. */
async function searched(ctx: ResourceContext, query: string): Promise<{ ids: number[]; total: number }> {
  const body = await get(ctx, `${ctx.listPath}?per_page=100&${query}`);
  return { ids: body.data.map((row: Row) => Number(row.id)), total: body.meta.total };
}

/** Letters and digits of a value, as they are written (case and accents kept): the candidates for a term. */
const rawWords = (value: unknown) =>
  String(value)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

const swapCase = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
const hasAccents = (text: string) => text.normalize('NFKD') !== text || /[ßæœøđðłþıŋħ]/i.test(text);

/**
 * A term for a word of a value: its first three quarters (a start, at least three letters), as
 * written with the case swapped; with accents, also folded and upper-cased (`zur ZÜR` for Zürich).
 */
function termFor(word: string): string {
  const letters = [...word.normalize('NFC')];
  let start = letters.slice(0, Math.max(MIN_WORD, Math.ceil((letters.length * 3) / 4))).join('');
  if (wordsOf(start).length !== 1 || wordsOf(start)[0]!.length < MIN_WORD) start = word;
  return hasAccents(start) ? `${wordsOf(start)[0]} ${start.toUpperCase()}` : swapCase(start);
}

export function searchChecks(test: Test, context: () => ResourceContext) {
  test('search: each searched field’s words find the record, in any case and accents, with filter[id] and alone; grouped totals and export agree', async () => {
    const ctx = context();
    const { def } = ctx;
    const page = (await get(ctx, `${ctx.listPath}?per_page=${SAMPLE_ROWS}&sort=-id`)).data as Row[];
    assert.ok(page.length > 0, 'rows to search');
    let ids = page.map((row) => Number(row.id));
    let stored = await storedRows(ctx, ids);
    const filled = (row: Row) => def.search.some((name) => rawWords(row[name] ?? '').some((word) => wordsOf(word).some((w) => w.length >= MIN_WORD)));
    const withValues = ids.map((id) => stored.get(id)!).filter(filled);
    let kept = withValues.filter((row) => wordsKept(def, row));
    if (kept.length === 0) {
      // The newest rows may all be written straight to the table (users a test helper adds): the newest with words instead.
      const written = await liveRows(ctx).whereNotNull(`${def.table}.${SEARCH_COLUMN}`).orderBy(`${def.table}.id`, 'desc').limit(SAMPLE_ROWS).pluck(`${def.table}.id`);
      ids = written.map(Number);
      stored = await storedRows(ctx, ids);
      kept = ids.map((id) => stored.get(id)!).filter((row) => wordsKept(def, row) && filled(row));
    }
    // Rows written straight to the table by the suite (context.ts: a `direct-` tag) have no words.
    const direct = (row: Row) => valuesOf(def, row).some((value) => /\bdirect-[a-z0-9]+\b/.test(String(value ?? '')));
    assert.ok(
      kept.length > 0 || withValues.every(direct),
      `a listed row with searched values has their words: ${JSON.stringify(withValues.slice(0, 3).map((row) => ({ ...row })))}`,
    );

    // A word nobody has finds nothing (below beside a word the record has: every term is required).
    const nobody = `qqzzxx${unique()}`;
    if (kept.length === 0) {
      assert.equal(await searched(ctx, `search=${nobody}`), { ids: [], total: 0 }, `search=${nobody} finds nothing`);
      return;
    }

    // The sample: the newest row with accents in its values, else with the most searched values and
    // words, rather than one a field's maximum length fills with one long word.
    const score = (row: Row) => {
      const words = new Set(def.search.flatMap((name) => wordsOf(String(row[name] ?? ''))));
      const accents = def.search.some((name) => hasAccents(String(row[name] ?? '')));
      return (
        (accents ? 20 : 0) +
        2 * def.search.filter((name) => filled({ [name]: row[name] })).length +
        Math.min(words.size, 6) -
        ([...words].some((word) => word.length > 40) ? 20 : 0)
      );
    };
    const sample = kept.reduce((best, row) => (score(row) > score(best) ? row : best));
    const sampleId = Number(sample.id);
    // How many of the page's rows a term finds: each field's rarest word is searched.
    const finding = (term: string) => kept.filter((row) => matches(valuesOf(def, row), askedWords(term))).length;
    const narrowed = `filter[id]=${ids.join(',')}`;
    let rarest: string | undefined;
    let common: string | undefined;
    const terms: Array<{ name: string; term: string }> = [];
    for (const name of def.search) {
      const candidates = rawWords(sample[name] ?? '')
        .filter((word) => wordsOf(word).length === 1 && wordsOf(word)[0]!.length >= MIN_WORD)
        .map(termFor);
      if (candidates.length === 0) continue;
      const term = candidates.reduce((best, candidate) => (finding(candidate) < finding(best) ? candidate : best));
      assert.ok(matches(valuesOf(def, sample), askedWords(term)), `${term} is a start of ${sample[name]}`);
      terms.push({ name, term });
      if (rarest === undefined || finding(term) < finding(rarest)) rarest = term;
      for (const candidate of candidates) if (common === undefined || finding(candidate) > finding(common)) common = candidate;
    }
    assert.ok(rarest && common, `record ${sampleId} has a searched word`);
    // Each field's term, the fields together (all required) as far as the terms a search takes allow.
    const pieces = (term: string) => term.split(' ').length;
    while (terms.length > 0) {
      const together = [terms.shift()!];
      while (terms.length > 0 && together.reduce((n, { term }) => n + pieces(term), pieces(terms[0]!.term)) <= MAX_TERMS) together.push(terms.shift()!);
      const search = together.map(({ term }) => term).join(' ');
      const fields = together.map(({ name }) => `${name}: ${sample[name]}`).join('; ');
      const found = await searched(ctx, `${narrowed}&search=${e(search)}`);
      assert.ok(found.ids.includes(sampleId), `search=${search} (${fields}) finds record ${sampleId} among filter[id]: ${found.ids}`);
      judge(ctx, stored, ids, found.ids, search, `search=${search}&filter[id]`);
    }

    // Its most common word beside filter[id]: of the rows the search finds, only those the filter names.
    const unlike = kept.find((row) => !matches(valuesOf(def, row), askedWords(common!)));
    const both = [sampleId, ...(unlike ? [Number(unlike.id)] : [])];
    assert.equal(
      (await searched(ctx, `filter[id]=${both.join(',')}&search=${e(common!)}`)).ids,
      [sampleId],
      `search=${common} (${finding(common!)} of the page's rows) with filter[id]=${both}: the record alone`,
    );

    const beside = `${rarest} ${nobody}`;
    assert.equal(await searched(ctx, `search=${e(beside)}`), { ids: [], total: 0 }, `search=${beside}: ${nobody} finds nothing, and every term is required`);

    // Alone, the rarest term: the rows it shows have its words; the grouped total and the export count them alike.
    const alone = await searched(ctx, `search=${e(rarest!)}`);
    assert.ok(alone.total >= 1, `search=${rarest}: found`);
    if (alone.total <= 100) assert.ok(alone.ids.includes(sampleId), `search=${rarest} finds record ${sampleId}`);
    const shown = await storedRows(ctx, alone.ids);
    judge(ctx, shown, alone.ids, alone.ids, rarest, `search=${rarest}`);
    const totals = await get(ctx, `${ctx.listPath}/aggregate?measures=count&search=${e(rarest)}`);
    assert.equal(totals.data, [{ key: {}, measures: { count: alone.total } }], `aggregate?search=${rarest}: the list's total`);
    const exported = await request(new URL(`${ctx.listPath}/export?format=jsonl&search=${e(rarest)}`, ctx.client.baseUrl), {
      headers: { authorization: `Bearer ${ctx.token}` },
    });
    const text = await exported.body.text();
    assert.is(exported.statusCode, 200, text.slice(0, 300));
    const lines = text.trim() === '' ? [] : text.trimEnd().split('\n');
    assert.is(lines.length, alone.total, `export?search=${rarest}: the list's rows`);
    if (alone.total <= 100)
      assert.equal(
        lines.map((line) => Number(JSON.parse(line).id)),
        alone.ids,
        `export?search=${rarest}: the list's records, in its order`,
      );

    // `%`, `_` and `\` only separate words: `%rich` and `__rich` ask for words starting with "rich",
    // never for Zürich (beside the rarest term, which the record has).
    const word = wordsOf(valuesOf(def, sample).filter(Boolean).join(' ')).reduce((longest, w) => (w.length > longest.length ? w : longest), '');
    // Its end from the third letter (ten at most: a word at a field's maximum length is long).
    const tail = word.length >= MIN_WORD + 2 ? word.slice(2, 12) : word;
    const wildcards = `${rarest} %${tail} __${tail}\\`;
    const literal = await searched(ctx, `${narrowed}&search=${e(wildcards)}`);
    judge(ctx, stored, ids, literal.ids, wildcards, `search=${wildcards}&filter[id]`);
    if (!matches(valuesOf(def, sample), [tail])) assert.not.ok(literal.ids.includes(sampleId), `search=${wildcards}: % and _ are no wildcards, all terms required (${word})`);
  });
}

/** Registered where an update can rename a searched field. */
export function searchUpdateChecks(test: Test, context: () => ResourceContext) {
  test('search: a searched field renamed through the API is found by its new words (accents, ß, any case), no longer by its old ones', async () => {
    const ctx = context();
    const { def } = ctx;
    const field = renamableSearchField(def)!;
    let id: number;
    const created = def.operations.has('create');
    if (created) {
      const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(def, ctx.payload, 90) });
      assert.is(response.status, 201, response.text);
      id = response.body.data.id;
    } else {
      // A record of the list with a value to rename (a product's variant), its words kept if one has them.
      const page = (await get(ctx, `${ctx.listPath}?per_page=${SAMPLE_ROWS}&sort=-id`)).data as Row[];
      const listed = await storedRows(
        ctx,
        page.map((row) => Number(row.id)),
      );
      const stored = [...listed.values()].filter((row) => row[field.name]);
      const row = stored.find((row) => wordsKept(def, row)) ?? stored[0];
      assert.ok(row, `a ${def.label} to rename`);
      id = Number(row!.id);
    }
    const before = (await storedRows(ctx, [id])).get(id)!;
    const renamed = `Zürich Ärzte Straße O'Neil ${unique()}`;
    const mark = wordsOf(renamed).at(-1)!;
    const after = { ...before, [field.name]: renamed };
    // An old word of the field that no word of the record has once renamed: it finds the record
    // before (a record just created has its words), not after.
    const old = wordsOf(String(before[field.name] ?? '')).find((word) => word.length >= MIN_WORD && !matches(valuesOf(def, after), [word]));
    const narrowed = `filter[id]=${id}`;
    if (created) assert.ok(old, `${field.name} "${before[field.name]}" has a word of its own`);
    if (old && (created || wordsKept(def, before)))
      assert.equal(
        (await searched(ctx, `${narrowed}&search=${e(old.toUpperCase())}`)).ids,
        [id],
        `search=${old} finds the ${field.name} "${before[field.name]}" written by the create`,
      );

    const updated = await ctx.client.send('PATCH', recordPath(ctx, id), { token: ctx.token, body: { [field.name]: renamed } });
    assert.is(updated.status, 200, updated.text);
    assert.is(updated.body.data[field.name], renamed);
    // Folded (zurich), upper-cased with accents (ÄRZTE), ß spelled out (STRASSE), a quote inside a term (o'neil).
    const search = `zurich ÄRZTE STRASSE o'neil ${mark.slice(0, -1).toUpperCase()}`;
    assert.equal(await searched(ctx, `search=${e(search)}`), { ids: [id], total: 1 }, `search=${search} finds ${field.name} "${renamed}"`);
    if (old) assert.equal((await searched(ctx, `${narrowed}&search=${e(old)}`)).ids, [], `search=${old}: ${field.name} is "${renamed}" now`);
  });
}

/** Registered where the definition searches nothing. */
export function noSearchChecks(test: Test, context: () => ResourceContext) {
  test('search: not offered → 400 with a message on the list, its grouped totals and its export; an empty search is none', async () => {
    const ctx = context();
    for (const path of [ctx.listPath, `${ctx.listPath}/aggregate`, `${ctx.listPath}/export`]) {
      const response = await ctx.client.get(`${path}?search=abc`, { token: ctx.token });
      assert.is(response.status, 400, `${path}?search=abc: ${response.text.slice(0, 300)}`);
      assert.type(response.body?.message, 'string');
      assert.match(response.body.message, /search/i);
    }
    const empty = await ctx.client.get(`${ctx.listPath}?search=`, { token: ctx.token });
    assert.is(empty.status, 200, empty.text);
  });
}
