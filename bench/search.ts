// `search=` against `filter[name]` over a million partners, for `npm run bench` (`--only search`,
// issue 51): the partial filter (`name LIKE '%term%'`, which reads every row) and the search (the
// words' index: (word, id) pairs, engine/sql/search-index.ts). Each row:
// 1, then 10 clients each sending the request again as soon as it is answered, for
// --search-duration seconds, then waiting for its last answer (none is abandoned: a filter of
// seconds would go on running in the database under the next row). Then UOM shows (autocannon,
// 10 connections) idle and beside clients sending the first term's filter, then its search:
// whether a request of either holds the process.
import { createKnex } from '../src/database/connection.ts';
import { loadConfig } from '../src/app/config.ts';
import { fillWordPairs, storedWords } from '../engine/index.ts';
import { parseSearch } from '../engine/definition/search-words.ts';
import { BENCH_PASSWORD, benchCall, rssOf, timedGet, timedRow, type Measured, type Scenario, type Timed } from './load.ts';

/** The columns whose words a partner stores, in the table's searched order (migrations/20261206000001_add_search_words.ts). */
const SEARCHED = ['email', 'name', 'reference'] as const;
/** A surname given to one partner in RARE_EVERY: ten of a million (some company names leave it out, their email may keep it: 9 found by search, 6 by the filter). */
const RARE_NAME = 'Xylander';
const RARE_EVERY = 99_991;

/** What is measured: each term as a partial filter on `name` and as a search (the search also over email and reference). */
export const SEARCH_QUERIES: { label: string; filter?: string; search: string }[] = [
  { label: '"zur" (Zürich, Zurbriggen, "zur Post")', filter: 'zur', search: 'zur' },
  { label: '"lyon" (a city)', filter: 'lyon', search: 'lyon' },
  { label: `"${RARE_NAME.toLowerCase()}" (a rare surname)`, filter: RARE_NAME.toLowerCase(), search: RARE_NAME.toLowerCase() },
  { label: '"zürich ärzte" (two terms)', search: 'zürich ärzte' },
];

// Names from word and syllable lists: accents (Zürich, Ärzte, São Paulo, Łódź), first names of
// several languages, surnames of an onset, a middle and an ending (38,368 of them).
// biome-ignore format: a word list
const FIRST = [
  'Anna', 'Lukas', 'José', 'João', 'François', 'Zoë', 'Søren', 'Björn', 'Jürgen', 'Małgorzata', 'Chloé', 'Renée', 'Mehmet', 'Ayşe', 'Luis',
  'Miguel', 'Sofia', 'Emma', 'Noah', 'Liam', 'Olivia', 'Mateo', 'Léa', 'Hélène', 'Zsófia', 'Andrés', 'Íñigo', 'Kenji', 'Yuki', 'Priya', 'Ravi',
  'Olga', 'Dmitri', 'Maria', 'Marco', 'Martin', 'Paul', 'Peter', 'Julia', 'Laura', 'Thomas', 'Nina', 'Jonas', 'Elif', 'Ömer', 'Agnès', 'Benoît',
  'Dorothée', 'Gisèle', 'Ingrid', 'Kari', 'Lars', 'Maja', 'Nils', 'Oskar', 'Pia', 'Rasmus', 'Sven', 'Tove', 'Ulla', 'Vera', 'Wiebke', 'Xavier',
  'Yasmin', 'Zeynep', 'Alessandro', 'Beatriz', 'Carmen', 'Diego', 'Elena', 'Fernando', 'Giulia', 'Hugo', 'Irene', 'Javier', 'Katarzyna', 'Lucía',
];
// biome-ignore format: a word list
const ONSET = [
  'Ber', 'Zur', 'Hal', 'Mon', 'Ros', 'Tan', 'Vel', 'Kor', 'Lin', 'Schw', 'Bri', 'Dor', 'Fal', 'Gen', 'Har', 'Kel', 'Lun', 'Nor', 'Pet', 'Ran',
  'Sel', 'Tor', 'Wal', 'Al', 'Bau', 'Cas', 'Del', 'Eck', 'Fer', 'Gar', 'Hof', 'Ib', 'Jan', 'Kra', 'Lo', 'Mü', 'Nie', 'Ol', 'Pa', 'Qui', 'Ri',
  'Sa', 'Tre', 'Um', 'Va', 'We', 'Yil', 'Zim', 'Bo', 'Cho', 'Du', 'Ek', 'Fro', 'Gu', 'Hel', 'Is', 'Jo', 'Kü', 'Lé', 'Nak', 'Os', 'Pró', 'Rü',
  'Ste', 'Tho', 'Ur', 'Vö', 'Wu', 'Bro', 'Cre', 'Dra', 'Fla', 'Gro', 'Kne', 'Ple', 'Spe', 'Tra', 'Zel', 'Ma', 'Ko',
];
// biome-ignore format: a word list
const MIDDLE = ['', 'a', 'e', 'i', 'o', 'en', 'er', 'in', 'an', 'el', 'ar', 'ri', 'bri', 'ol', 'ün'];
// biome-ignore format: a word list
const ENDING = [
  'ger', 'mann', 'son', 'sen', 'ini', 'ez', 'ová', 'ski', 'berg', 'stein', 'ier', 'ard', 'elli', 'ström', 'ès', 'ão', 'oğlu', 'ić', 'ner', 'ke',
  'ten', 'hardt', 'inho', 'escu', 'ović', 'ura', 'wood', 'ley', 'ton', 'ford', 'gen', 'ita',
];
// biome-ignore format: a word list
const CITIES = [
  'Zürich', 'São Paulo', 'Genève', 'Kraków', 'Malmö', 'Düsseldorf', 'Besançon', 'Córdoba', 'Reykjavík', 'Łódź', 'Århus', 'Göteborg', 'Montréal',
  'Zaragoza', 'Lyon', 'Porto', 'Bern', 'Basel', 'Zug', 'Linz', 'Graz', 'München', 'Köln', 'Bogotá', 'Medellín', 'Mérida', 'Kyiv', 'Gdańsk',
  'Brno', 'Plzeň', 'Trondheim', 'Tromsø', 'Marseille', 'Nantes', 'Sevilla', 'Málaga', 'Wien', 'Salzburg', 'Luzern', 'Lausanne', 'Zurzach',
];
// biome-ignore format: a word list
const ACTIVITY = [
  'Logistik', 'Consulting', 'Bäckerei', 'Ärzte', 'Ärztezentrum', 'Transports', 'Construções', 'Padaria', 'Hôtel', 'Garage', 'Trading', 'Software',
  'Möbelhaus', 'Apotheke', 'Électricité', 'Imobiliária', 'Café', 'Holding', 'Pharma', 'Immobilien', 'Services', 'Textil', 'Maschinenbau',
  'Boulangerie', 'Ferretería', 'Zahnärzte', 'Brauerei', 'Elektro', 'Médical', 'Industries',
];
// biome-ignore format: a word list
const LEGAL = ['AG', 'GmbH', 'SA', 'Sàrl', 'Ltda', 'S.L.', 'Ltd', 'Inc.', 'KG', 'Oy', 'AB', 'A/S', 'sp. z o.o.', 's.r.o.', 'BV', ''];
// biome-ignore format: a word list
const INNS = ['Gasthaus zur Post', 'Gasthof zur Linde', 'Apotheke zur Sonne', 'Hotel zum Löwen', 'Restaurant zur Mühle', 'Weinstube zum Hirschen'];
// biome-ignore format: a word list
const DOMAINS = ['example.ch', 'example.de', 'example.com.br', 'mail.example', 'example.fr', 'example.pl', 'example.se', 'example.es'];

/** A small seeded generator (mulberry32): the same partners in every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An address part from a name: lowercased, accents off (jürgen → jurgen), letters and digits only. */
const ascii = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/[^a-z0-9]+/g, '');

interface Partner {
  account_type: 'company' | 'individual';
  name: string;
  email: string | null;
  reference: string | null;
}

function partnerMaker(seed: number): (i: number) => Partner {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const surname = () => `${pick(ONSET)}${pick(MIDDLE)}${pick(ENDING)}`;
  return (i) => {
    const last = i % RARE_EVERY === RARE_EVERY - 1 ? RARE_NAME : surname();
    const roll = next();
    if (roll < 0.6) {
      const first = pick(FIRST);
      const name = next() < 0.1 ? `${first} ${last}-${surname()}` : next() < 0.1 ? `${first} ${pick(FIRST)} ${last}` : `${first} ${last}`;
      const email = next() < 0.45 ? `${ascii(first)}.${ascii(last)}${next() < 0.3 ? Math.floor(next() * 100) : ''}@${pick(DOMAINS)}` : null;
      return { account_type: 'individual', name, email, reference: null };
    }
    const form = next();
    const legal = pick(LEGAL);
    const name =
      form < 0.45
        ? `${last} ${pick(ACTIVITY)} ${legal}`
        : form < 0.8
          ? `${pick(ACTIVITY)} ${last} ${pick(CITIES)}`
          : form < 0.97
            ? `${pick(ACTIVITY)} ${pick(CITIES)} ${legal}`
            : `${pick(INNS)} ${pick(CITIES)}`;
    const email = next() < 0.6 ? `${pick(['info', 'office', 'contact', 'kontakt', 'sales'])}@${ascii(last)}.${pick(DOMAINS)}` : null;
    const reference = next() < 0.5 ? `C${String(100_000 + i).padStart(7, '0')}` : null;
    return { account_type: 'company', name: name.trim(), email, reference };
  };
}

export interface SearchFill {
  /** The inserts. */
  insertSeconds: number;
  /** The (word, id) pairs written after the inserts, from the rows' words (and ANALYZE). */
  indexSeconds: number;
  /** How many partners each of SEARCH_QUERIES' searches finds (counted here, as the words are written). */
  matches: number[];
}

/**
 * `count` partners written straight to the database before the server starts, with their words
 * (`search_words`, as the write pipeline stores them) in the same multi-row INSERTs: 1,000 rows a
 * statement, 50,000 a transaction. The (word, id) pairs are written after them, from the rows'
 * words, as the migrations that brought the pairs fill them (engine/sql/search-index.ts, fillWordPairs).
 */
export async function prepareSearchPartners(databaseUrl: string, count: number): Promise<SearchFill> {
  const knex = createKnex(loadConfig({ DATABASE_URL: databaseUrl, JWT_SECRET: 'x'.repeat(40), ADMIN_PASSWORD: BENCH_PASSWORD }).database);
  const mysql = !databaseUrl.startsWith('sqlite:');
  try {
    const started = performance.now();
    const partner = partnerMaker(51);
    const from = Date.parse('2020-01-01T00:00:00Z');
    const step = Math.floor((6 * 365 * 86_400_000) / Math.max(1, count));
    const stored = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}.000000`;
    const columns = ['account_type', 'sub_type', 'name', 'email', 'reference', 'is_active', 'creator_id', 'created_at', 'updated_at', 'search_words'];
    const insert = (rows: number) =>
      `INSERT INTO partners_partners (${columns.join(', ')}) VALUES ${Array.from({ length: rows }, () => `(${columns.map(() => '?').join(', ')})`).join(', ')}`;
    const full = insert(1000);
    const wanted = SEARCH_QUERIES.map((query) => {
      const parsed = parseSearch(query.search);
      if ('error' in parsed) throw new Error(parsed.error);
      return parsed.terms;
    });
    const matches = wanted.map(() => 0);
    for (let start = 0; start < count; start += 50_000) {
      await knex.transaction(async (trx) => {
        for (let chunk = start; chunk < Math.min(count, start + 50_000); chunk += 1000) {
          const rows = Math.min(1000, count - chunk);
          const params: Array<string | number | boolean | null> = [];
          for (let i = chunk; i < chunk + rows; i++) {
            const p = partner(i);
            const created = stored(from + i * step);
            const words = storedWords(SEARCHED.map((column) => p[column]));
            params.push(p.account_type, 'partner', p.name, p.email, p.reference, true, 1, created, created, words);
            const list = words?.split(' ') ?? [];
            wanted.forEach((terms, q) => {
              if (terms.every((term) => list.some((word) => word.startsWith(term)))) matches[q]!++;
            });
          }
          await trx.raw(rows === 1000 ? full : insert(rows), params);
        }
      });
    }
    const insertSeconds = (performance.now() - started) / 1000;
    const indexed = performance.now();
    await fillWordPairs(knex, 'partners_partners');
    await knex.raw(mysql ? 'ANALYZE TABLE partners_partners, partners_partners_search' : 'ANALYZE');
    const indexSeconds = (performance.now() - indexed) / 1000;
    // The index finds what was written (the first search's partners: the index, not the service).
    const [term] = wanted[0]!;
    const [row] = await knex('partners_partners_search').where('word', 'like', `${term}%`).countDistinct({ n: 'id' });
    const counted = row?.n ?? 0;
    if (Number(counted) < matches[0]!) throw new Error(`The search index finds ${counted} partners for "${term}", not the ${matches[0]} written.`);
    return { insertSeconds, indexSeconds, matches };
  } finally {
    await knex.destroy();
  }
}

export interface SearchBench {
  base: string;
  token: string;
  pid: number;
  /** The unrelated request measured beside them: the UOM show scenario's path. */
  showPath: string;
  /** autocannon's measure of a scenario against the server (./load.ts): the shows. */
  measure(scenario: Scenario): Promise<Measured>;
  /** Seconds the clients of a filter or search row send requests (each then waits for its last). */
  duration: number;
  /** Clients of each filter and search row (one row each). */
  connections: number[];
  /** Clients sending filters (then searches) one after the other while the shows are measured (one row each). */
  besideClients: number[];
  showConnections: number;
  /** How many partners each of SEARCH_QUERIES' searches finds (prepareSearchPartners). */
  matches?: number[];
}

const PARTNERS = '/partners/partners';
const filterPath = (term: string) => `${PARTNERS}?filter%5Bname%5D=${encodeURIComponent(term)}`;
const searchPath = (terms: string) => `${PARTNERS}?search=${encodeURIComponent(terms)}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** How many requests were answered: "12", or "40 (35 of them not 2xx)": 503s of load shedding. */
const answers = (timed: Timed[]) => {
  const shed = timed.filter((t) => t.status < 200 || t.status >= 300).length;
  return shed ? `${timed.length} (${shed} of them not 2xx)` : `${timed.length}`;
};

/**
 * `clients` loops each sending `url` one after the other until `until` settles, then waiting for
 * their last answer: every request answered is timed (none abandoned, so no statement is left
 * running in the database after its row). Returns them, the seconds until the last answered, and
 * the server's peak RSS.
 */
async function loops(bench: SearchBench, url: string, clients: number, until: Promise<unknown>): Promise<{ timed: Timed[]; seconds: number; peak: number }> {
  let running = true;
  const timed: Timed[] = [];
  let peak = rssOf(bench.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(bench.pid))), 200);
  const started = performance.now();
  const sending = Array.from({ length: clients }, async () => {
    while (running) {
      try {
        timed.push(await timedGet(url, bench.token));
      } catch {
        timed.push({ ms: performance.now() - started, status: 0 });
      }
    }
  });
  await until;
  running = false;
  await Promise.all(sending);
  clearInterval(sampler);
  return { timed, seconds: (performance.now() - started) / 1000, peak };
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** How many partners a list finds (its bounded count: "≥" at the bound), and how long the first one took. */
async function found(bench: SearchBench, path: string): Promise<string> {
  // The rows before may have left the process shedding load (503 while its event loop lags): wait for it.
  for (let tries = 1; ; tries++) {
    const started = performance.now();
    const answer = await benchCall(bench.base, 'GET', path, bench.token);
    const ms = performance.now() - started;
    if (answer.meta || tries === 10) return foundText(path, answer, ms);
    await sleep(2);
  }
}

function foundText(path: string, answer: any, ms: number): string {
  if (!answer.meta) throw new Error(`${path} answered ${JSON.stringify(answer).slice(0, 300)}`);
  const total = Number(answer.meta.total).toLocaleString('en');
  return `list total ${answer.meta.total_exact === false ? '≥ ' : ''}${total}, first ${Math.round(ms)} ms`;
}

/**
 * The filter and search rows (after the first request and two more, one at a time: the warm-up),
 * then the shows idle and beside clients sending the first term's filter, then its search.
 */
export async function searchFigures(bench: SearchBench): Promise<Measured[]> {
  const results: Measured[] = [];
  const kinds: { kind: string; path: string; label: string }[] = [];
  for (const query of SEARCH_QUERIES) {
    if (query.filter) kinds.push({ kind: 'filter[name]', path: filterPath(query.filter), label: query.label });
  }
  SEARCH_QUERIES.forEach((query, q) => {
    const partners = bench.matches?.[q];
    kinds.push({ kind: 'search', path: searchPath(query.search), label: partners === undefined ? query.label : `${query.label}, ${partners.toLocaleString('en')} partners` });
  });
  for (const { kind, path, label } of kinds) {
    const count = await found(bench, path);
    for (let i = 0; i < 2; i++) await timedGet(`${bench.base}${path}`, bench.token);
    for (const clients of bench.connections) {
      const { timed, seconds, peak } = await loops(bench, `${bench.base}${path}`, clients, sleep(bench.duration));
      results.push(
        timedRow(`${kind} ${label} (${count}): ${plural(clients, 'client')}, ${answers(timed)} in ${seconds.toFixed(1)} s`, timed, seconds, peak, { answeredOnly: true }),
      );
    }
  }
  const shows = (label: string): Scenario => ({ name: `UOM show, ${label} (${bench.showConnections} connections)`, path: bench.showPath, connections: bench.showConnections });
  results.push(await bench.measure(shows('idle')));
  const first = SEARCH_QUERIES[0]!;
  for (const clients of bench.besideClients) {
    for (const [kind, path] of [
      [`filter[name]=${first.filter}`, filterPath(first.filter!)],
      [`search=${first.search}`, searchPath(first.search)],
    ] as const) {
      let measured: Measured | undefined;
      // The loops under way before the shows' warm-up; they stop when the shows are measured.
      const shown = sleep(0.5).then(async () => (measured = await bench.measure(shows(`beside ${plural(clients, 'client')} sending ${kind} one after the other`))));
      const { timed, seconds, peak } = await loops(bench, `${bench.base}${path}`, clients, shown);
      results.push(
        measured!,
        timedRow(`  the ${kind} beside them (${answers(timed)} in ${seconds.toFixed(1)} s)`, timed, seconds, Math.max(peak, measured!.rssMB), { answeredOnly: true }),
      );
    }
  }
  return results;
}
