// The words a search finds a record by, and the terms a `search=` asks for, worked out here in
// JavaScript rather than by each database's tokenizer and collation: so "zurich" finds "Zürich"
// and "ARZTE" finds "Ärzte" in exactly the same way on SQLite and MariaDB (engine/sql/search-index.ts).
//
// A word is a run of letters and digits, lowercased, with its accents taken off (NFKD, then the
// marks dropped) and the few letters that have no decomposition spelled out (ß → ss, ø → o).
// Anything else separates words, so `%`, `_` and `\` are never wildcards: they are not in a word.
//
// Each stored word starts with WORD_MARK. It kept InnoDB's FULLTEXT index (MariaDB's until
// migration 20261206000002) from leaving out stopwords ("with", "the") and short words by server
// settings; the (word, id) pairs need no mark, and the stored words keep it rather than
// be rewritten.

/** The stored column holding a record's words (engine/keys/search.ts writes it). */
export const SEARCH_COLUMN = 'search_words';

/** Terms shorter than this find too much to be served by the index. */
export const MIN_TERM_LENGTH = 3;
export const MAX_TERMS = 5;
export const MAX_SEARCH_LENGTH = 255;
/** A longer word is kept (and a longer term compared) by its first 80 letters and digits. */
const MAX_WORD_LENGTH = 80;
const WORD_MARK = 'w';
/** The longest word stored, mark included (the (word, id) pairs' column: engine/sql/search-index.ts). */
export const MAX_STORED_WORD_LENGTH = WORD_MARK.length + MAX_WORD_LENGTH;

const SPELLED_OUT: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ŋ: 'n', ħ: 'h' };
const NOT_IN_A_WORD = /[^\p{L}\p{N}]+/u;

/** The words of a text, as a search compares them. */
export function wordsOf(text: string): string[] {
  const folded = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđðłþıŋħ]/g, (letter) => SPELLED_OUT[letter]!);
  return folded.split(NOT_IN_A_WORD).filter(Boolean);
}

/** What a record's `search_words` column holds: the words of its searched values, each once and marked; null when it has none. */
export function storedWords(values: readonly unknown[]): string | null {
  const words = new Set<string>();
  for (const value of values) {
    if (value === null || value === undefined || value === '') continue;
    for (const word of wordsOf(String(value))) words.add(WORD_MARK + word.slice(0, MAX_WORD_LENGTH));
  }
  return words.size > 0 ? [...words].join(' ') : null;
}

/** The word prefixes a search requires, marked as stored: each stored word that starts with one matches it. */
export type SearchTerms = readonly string[];

/**
 * `search=<terms>`: up to MAX_TERMS terms separated by spaces, each needing a word of at least
 * MIN_TERM_LENGTH letters or digits; every word of that length in a term must start a word of the
 * record (`o'neil` asks for "neil"). Returns the terms, or the error to show for `search`.
 */
export function parseSearch(raw: string): { terms: SearchTerms } | { error: string } {
  if (raw.length > MAX_SEARCH_LENGTH) return { error: `The search must not be greater than ${MAX_SEARCH_LENGTH} characters.` };
  const pieces = raw.split(/\s+/).filter(Boolean);
  if (pieces.length > MAX_TERMS) return { error: `The search may have at most ${MAX_TERMS} terms.` };
  const terms = new Set<string>();
  for (const piece of pieces) {
    const long = wordsOf(piece).filter((word) => word.length >= MIN_TERM_LENGTH);
    if (long.length === 0) return { error: `Each search term needs a word of at least ${MIN_TERM_LENGTH} letters or digits: \`${piece}\` has none.` };
    for (const word of long) terms.add(WORD_MARK + word.slice(0, MAX_WORD_LENGTH));
  }
  return { terms: [...terms] };
}
