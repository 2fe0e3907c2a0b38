// The words a search compares (engine/definition/search-words.ts): what a record stores (`storedWords`)
// and what a `search=` asks for (`parseSearch`), worked out in JavaScript the same way for SQLite
// and MariaDB: lowercased, accents off, ß → ss, anything but letters and digits a separator (so
// `%`, `_` and `\` are never wildcards). No database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_SEARCH_LENGTH, MAX_TERMS, MIN_TERM_LENGTH, parseSearch, storedWords, wordsOf } from '../../engine/definition/search-words.ts';

const test = suite('search words');

/** The terms of a search, or the test fails with its error. */
function termsOf(search: string): readonly string[] {
  const parsed = parseSearch(search);
  if ('error' in parsed) throw new Error(`${JSON.stringify(search)}: ${parsed.error}`);
  return parsed.terms;
}

function errorOf(search: string): string {
  const parsed = parseSearch(search);
  assert.ok('error' in parsed, `${JSON.stringify(search.slice(0, 60))} is refused`);
  return (parsed as { error: string }).error;
}

/** Whether a record with these searched values is found by `search`: every term starts one of its stored words. */
function finds(search: string, ...values: unknown[]): boolean {
  const stored = (storedWords(values) ?? '').split(' ').filter(Boolean);
  return termsOf(search).every((term) => stored.some((word) => word.startsWith(term)));
}

test('wordsOf: lowercased, accents taken off, letters without a decomposition spelled out', () => {
  assert.equal(wordsOf('Zürich'), ['zurich']);
  assert.equal(wordsOf('ÄRZTE Ärzte ärzte'), ['arzte', 'arzte', 'arzte']);
  assert.equal(wordsOf('Straße STRASSE'), ['strasse', 'strasse']);
  assert.equal(wordsOf('Œuvre Ærø Łódź Þór Đorđe'), ['oeuvre', 'aero', 'lodz', 'thor', 'dorde']);
  assert.equal(wordsOf('Côte d’Ivoire'), ['cote', 'd', 'ivoire']);
  assert.equal(wordsOf('İstanbul'), ['istanbul']);
  // Compatibility forms: full-width letters and ligatures are the letters they stand for.
  assert.equal(wordsOf('ＡＢＣ ﬁle'), ['abc', 'file']);
  // Other scripts keep their letters (lowercased, marks off).
  assert.equal(wordsOf('Москва Ελλάδα 東京'), ['москва', 'ελλαδα', '東京']);
});

test('wordsOf: anything but letters and digits separates words; %, _ and \\ are never part of one', () => {
  assert.equal(wordsOf("O'Neil"), ['o', 'neil']);
  assert.equal(wordsOf('50%_off\\now'), ['50', 'off', 'now']);
  assert.equal(wordsOf('a%b_c\\d'), ['a', 'b', 'c', 'd']);
  assert.equal(wordsOf('INV/2026/0001'), ['inv', '2026', '0001']);
  assert.equal(wordsOf('user1.tag@example.com'), ['user1', 'tag', 'example', 'com']);
  assert.equal(wordsOf('  --%%__\\\\  '), []);
  assert.equal(wordsOf(''), []);
});

test('storedWords: each word once, marked, in the order met; null when there are none', () => {
  const stored = storedWords(['Zürich Zürich', null, undefined, '', 'ZURICH bank', 42]);
  assert.type(stored, 'string');
  const words = stored!.split(' ');
  assert.is(words.length, 3, stored!);
  assert.is(new Set(words).size, 3, 'no word twice');
  // Marked: every stored word starts with the same mark, and is the word after it.
  const mark = words[0]!.slice(0, words[0]!.length - 'zurich'.length);
  assert.ok(mark.length > 0, 'a mark before each word');
  assert.equal(
    words.map((word) => word.slice(mark.length)),
    ['zurich', 'bank', '42'],
  );
  assert.is(storedWords([]), null);
  assert.is(storedWords([null, undefined, '']), null);
  assert.is(storedWords(['%_\\ --']), null, 'only separators: no words');
});

test('storedWords: a very long word is kept at a bounded length, still found by its start', () => {
  const long = 'x'.repeat(500);
  const stored = storedWords([long])!;
  assert.ok(stored.length < 100, `a bounded word (${stored.length} characters)`);
  assert.ok(finds('xxxxxxxxxx', long));
});

test('parseSearch: `zurich` finds Zürich, `ARZTE` Ärzte, ß and ss find each other, in any case', () => {
  assert.ok(finds('zurich', 'Zürich'));
  assert.ok(finds('ZÜRICH', 'zurich'));
  assert.ok(finds('ARZTE', 'Ärzte'));
  assert.ok(finds('ärzte', 'ARZTE'));
  assert.ok(finds('strasse', 'Straße 1'));
  assert.ok(finds('STRASSE', 'Straße'));
  assert.ok(finds('straße', 'Strasse'));
  assert.ok(finds('lodz', 'Łódź'));
  assert.ok(finds('cote ivoire', 'Côte d’Ivoire'));
  assert.equal(termsOf('zurich'), termsOf('ZÜRICH'), 'the same term whatever its case and accents');
});

test('parseSearch: a term is the start of a word, never the middle or the end of one', () => {
  assert.ok(finds('zur', 'Zürich'));
  assert.not.ok(finds('rich', 'Zürich'));
  assert.not.ok(finds('urich', 'Zürich'));
  assert.not.ok(finds('zurichs', 'Zürich'), 'longer than the word');
  assert.ok(finds('bank', 'Zürich', 'Cantonal Bank of Zürich'), 'in any of the searched values');
});

test('parseSearch: every term is required (AND), each asked once', () => {
  assert.ok(finds('zur bank', 'Zürich Bank'));
  assert.not.ok(finds('zur bern', 'Zürich Bank'));
  assert.ok(finds('zur bern', 'Zürich', 'Bern'), 'the terms found in different values');
  assert.is(termsOf('zurich ZURICH Zürich').length, 1);
  // Tabs and new lines separate terms as spaces do; the empty search asks for nothing.
  assert.is(termsOf('zurich\tbank\nbern').length, 3);
  assert.equal(termsOf(''), []);
  assert.equal(termsOf('   '), []);
});

test("parseSearch: `o'neil` asks for neil; the short words of a term are left out, its long ones all required", () => {
  assert.equal(termsOf("o'neil"), termsOf('neil'));
  assert.ok(finds("o'neil", "Shaquille O'Neal", "Eugene O'Neil"));
  assert.ok(finds("O'NEIL", 'Neilson'), 'neil starts Neilson: the o is not asked for');
  assert.equal(termsOf('foo-bar'), [...termsOf('foo'), ...termsOf('bar')]);
  assert.not.ok(finds('foo-bar', 'foo baz'));
  // One term however many words it holds: six words joined by dashes are one term.
  assert.is(termsOf('one-two-six-ten-eleven-twelve').length, 6);
});

test('parseSearch: %, _ and \\ only separate words: never wildcards', () => {
  assert.equal(termsOf('abc%def'), [...termsOf('abc'), ...termsOf('def')]);
  assert.equal(termsOf('abc_def'), termsOf('abc def'));
  assert.equal(termsOf('abc\\def'), termsOf('abc def'));
  assert.equal(termsOf('%zurich%'), termsOf('zurich'));
  assert.not.ok(finds('%rich', 'Zürich'), '% before a word is no "anything"');
  assert.not.ok(finds('__rich', 'Zürich'), '_ is no single character');
  assert.not.ok(finds('zur%ich', 'Zürich'), 'zur%ich is zur and ich, not zur…ich');
  assert.not.ok(finds('zur%bank', 'Zürichbank'), 'a % inside a term splits it, both halves required');
  for (const symbols of ['%', '%%%', '___', '\\\\\\', '%_\\', '***', '"""', '+-()']) {
    assert.match(errorOf(symbols), `at least ${MIN_TERM_LENGTH} letters or digits`, symbols);
  }
});

test(`parseSearch: at most ${MAX_TERMS} terms, each with a word of ${MIN_TERM_LENGTH} letters or digits`, () => {
  assert.is(termsOf('one two six ten eleven').length, 5);
  assert.is(errorOf('one two six ten eleven twelve'), `The search may have at most ${MAX_TERMS} terms.`);
  assert.is(errorOf('a b c d e f'), `The search may have at most ${MAX_TERMS} terms.`, 'the count comes first');
  assert.is(errorOf('zu'), `Each search term needs a word of at least ${MIN_TERM_LENGTH} letters or digits: \`zu\` has none.`);
  assert.is(errorOf('zurich zu'), `Each search term needs a word of at least ${MIN_TERM_LENGTH} letters or digits: \`zu\` has none.`, 'one short term is enough');
  assert.match(errorOf('z-u-r'), '`z-u-r` has none');
  // Three letters once folded: ß alone spells two.
  assert.ok(termsOf('abc').length === 1 && termsOf('123').length === 1);
  assert.is(termsOf('aß').length, 1, 'aß is ass: three letters');
  assert.match(errorOf('ab'), 'has none');
});

test(`parseSearch: at most ${MAX_SEARCH_LENGTH} characters`, () => {
  assert.is(termsOf(`abc${' '.repeat(MAX_SEARCH_LENGTH - 6)}def`).length, 2, 'spaces count, up to the limit');
  assert.is(termsOf('z'.repeat(MAX_SEARCH_LENGTH)).length, 1);
  assert.is(errorOf('z'.repeat(MAX_SEARCH_LENGTH + 1)), `The search must not be greater than ${MAX_SEARCH_LENGTH} characters.`);
  assert.is(errorOf('word '.repeat(14000)), `The search must not be greater than ${MAX_SEARCH_LENGTH} characters.`);
});

test('parseSearch: a null byte, quotes and the operators of FTS5 and MariaDB are separators too', () => {
  assert.equal(termsOf('zurich\u0000bank'), termsOf('zurich-bank'));
  assert.equal(termsOf('"zurich"'), termsOf('zurich'));
  assert.equal(termsOf('+zurich -bank*'), termsOf('zurich bank'));
  assert.equal(termsOf('(zurich) NEAR(bank)'), termsOf('zurich near bank'));
  assert.match(errorOf('zurich OR bank'), '`OR` has none', 'OR is a short word, not an operator');
  for (const term of termsOf('"zurich" +bank* -(near) NOT:it'))
    assert.match(term, /^[\p{Ll}\p{Lo}\p{N}]+$/u, `${term}: letters and digits only, nothing an index reads as an operator`);
});

test.run();
