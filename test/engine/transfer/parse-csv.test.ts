// The import's CSV parser on its own: the records and the line each starts on (the row a report
// names), and the 400 a malformed file answers, word for word as a person sees them. The import
// route reads the body whole (bounded by IMPORT_MAX_BYTES); `erp import` reads its file in chunks
// (CsvReader), so every text here is also read cut into chunks of every small size, and must give
// the same rows or the same error: a quoted cell, a doubled quote or a CRLF split across reads.
// A multi-byte character split across reads is the decoder's concern (createReadStream's utf8).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CsvReader, parseCsv } from '../../../engine/transfer/import/parse-csv.ts';
import { MalformedFileError, type ParsedRow } from '../../../engine/transfer/import/parsed-rows.ts';

const test = suite('parse-csv');

const CHUNK_SIZES = [1, 2, 3, 4, 5, 7, 11];

/** The rows of the text pushed in chunks of `size` characters. */
function chunked(text: string, size: number, reader = new CsvReader()): ParsedRow[] {
  const rows: ParsedRow[] = [];
  for (let at = 0; at < text.length; at += size) rows.push(...reader.push(text.slice(at, at + size)));
  rows.push(...reader.end());
  return rows;
}

/** Each record as [the line it starts on, its values]; the same whole and in chunks. */
const rows = (text: string) => {
  const whole = parseCsv(text);
  for (const size of CHUNK_SIZES) assert.equal(chunked(text, size), whole, `in chunks of ${size}: ${JSON.stringify(text)}`);
  return whole.map((row) => [row.line, row.values]);
};

/** The error a malformed text throws: its message, status and line; the same whole and in chunks. */
function failure(text: string): { message: string; status: number; line: number } {
  const caught = (read: () => unknown) => {
    try {
      read();
    } catch (error) {
      assert.instance(error, MalformedFileError);
      const { message, statusCode, line } = error as MalformedFileError;
      return { message, status: statusCode, line };
    }
    throw new Error(`parsed without an error: ${JSON.stringify(text)}`);
  };
  const whole = caught(() => parseCsv(text));
  for (const size of CHUNK_SIZES)
    assert.equal(
      caught(() => chunked(text, size)),
      whole,
      `in chunks of ${size}: ${JSON.stringify(text)}`,
    );
  return whole;
}

test('the header names the columns; every value is text, each record with the line it starts on', () => {
  assert.equal(rows('name,code\nDesk,001\nChair,\n'), [
    [2, { name: 'Desk', code: '001' }],
    [3, { name: 'Chair', code: '' }],
  ]);
  assert.equal(parseCsv('name,code\nDesk,001\nChair,\n'), [
    { line: 2, values: { name: 'Desk', code: '001' }, text: true },
    { line: 3, values: { name: 'Chair', code: '' }, text: true },
  ]);
  assert.equal(rows('name,code\nDesk,001'), [[2, { name: 'Desk', code: '001' }]], 'the last line needs no line end');
  assert.equal(rows(''), [], 'an empty file');
  assert.equal(rows('name,code\r\n'), [], 'a header alone');
});

test('quoted cells: a comma, a line break (LF, CRLF or CR, kept as written) and the lines after counted', () => {
  assert.equal(rows('name,note\n"Desk, oak",plain\n'), [[2, { name: 'Desk, oak', note: 'plain' }]]);
  assert.equal(rows('name,note\n"two\nlines",x\nnext,y\n'), [
    [2, { name: 'two\nlines', note: 'x' }],
    [4, { name: 'next', note: 'y' }],
  ]);
  assert.equal(rows('name,note\r\n"two\r\nlines",x\r\nnext,y\r\n'), [
    [2, { name: 'two\r\nlines', note: 'x' }],
    [4, { name: 'next', note: 'y' }],
  ]);
  assert.equal(rows('name,note\r"two\rlines",x\rnext,y\r'), [
    [2, { name: 'two\rlines', note: 'x' }],
    [4, { name: 'next', note: 'y' }],
  ]);
  assert.equal(rows('name,note\n"three\n\nlines","and\r\ntwo"\nnext,y\n'), [
    [2, { name: 'three\n\nlines', note: 'and\r\ntwo' }],
    [6, { name: 'next', note: 'y' }],
  ]);
});

test('doubled quotes are one quote; an empty quoted cell is empty', () => {
  assert.equal(rows('name,note\n"say ""hi""",""""\n"",""\n'), [
    [2, { name: 'say "hi"', note: '"' }],
    [3, { name: '', note: '' }],
  ]);
  assert.equal(rows('name\n"a ""quoted""\nline"\n'), [[2, { name: 'a "quoted"\nline' }]]);
});

test('a byte order mark before the header is dropped, also before a quoted name and as the bytes a file holds', () => {
  assert.equal(rows('\uFEFFname,code\nDesk,1\n'), [[2, { name: 'Desk', code: '1' }]]);
  assert.equal(rows('\uFEFF"name",code\nDesk,1\n'), [[2, { name: 'Desk', code: '1' }]]);
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name,code\r\nCafé ☕ 𝄞,1\r\n')]);
  assert.equal(rows(bytes.toString('utf8')), [[2, { name: 'Café ☕ 𝄞', code: '1' }]]);
});

test('lines end in LF, CRLF or CR, mixed too; a blank line is no record but still a line', () => {
  const expected = [
    [2, { a: '1', b: '2' }],
    [3, { a: '3', b: '4' }],
  ];
  assert.equal(rows('a,b\n1,2\n3,4\n'), expected);
  assert.equal(rows('a,b\r\n1,2\r\n3,4\r\n'), expected);
  assert.equal(rows('a,b\r1,2\r3,4\r'), expected);
  assert.equal(rows('a,b\r\n1,2\n3,4\r'), expected);
  assert.equal(rows('a,b\n1,2\n\n3,4\n\n'), [
    [2, { a: '1', b: '2' }],
    [4, { a: '3', b: '4' }],
  ]);
  assert.equal(rows('a,b\r1,2\r\r3,4\r'), [
    [2, { a: '1', b: '2' }],
    [4, { a: '3', b: '4' }],
  ]);
  // With one column a blank line is a record: its empty value.
  assert.equal(rows('a\n1\n\n2\n'), [
    [2, { a: '1' }],
    [3, { a: '' }],
    [4, { a: '2' }],
  ]);
});

test('text after a closing quote: a 400 naming the line the quote closes on', () => {
  assert.equal(failure('name,code\n"Desk"x,1\n'), { message: 'The file is malformed: line 2 has text after a closing quote.', status: 400, line: 2 });
  assert.equal(failure('name,code\n"Desk" ,1\n'), { message: 'The file is malformed: line 2 has text after a closing quote.', status: 400, line: 2 });
  assert.equal(failure('name,code\nChair,1\n"two\nlines"x,1\n'), { message: 'The file is malformed: line 4 has text after a closing quote.', status: 400, line: 4 });
  assert.equal(failure('name,code\r"two\rlines"x,1\r'), { message: 'The file is malformed: line 3 has text after a closing quote.', status: 400, line: 3 });
});

test('the other malformed files: a quote never closed (the line it opens on), a stray quote, a record of another width', () => {
  assert.equal(failure('name,code\nDesk,1\n"Chair,2\nStool,3\n'), {
    message: 'The file is malformed: line 3 has a quoted cell that is never closed.',
    status: 400,
    line: 3,
  });
  assert.equal(failure('name,code\nDesk,1\nChair,2"\n'), {
    message: 'The file is malformed: line 3 has a quote inside a cell that does not start with one.',
    status: 400,
    line: 3,
  });
  assert.equal(failure('name,code\n"two\nlines",1,extra\n'), {
    message: 'The file is malformed: line 2 has 3 cells where the header names 2 columns.',
    status: 400,
    line: 2,
  });
  assert.equal(failure('name,code\r"two\rlines",1\rStool\r'), {
    message: 'The file is malformed: line 4 has 1 cells where the header names 2 columns.',
    status: 400,
    line: 4,
  });
});

test('header names are trimmed; a column whose name is empty is left out (as in a spreadsheet)', () => {
  assert.equal(rows(' name ,\t code\nDesk,1\n'), [[2, { name: 'Desk', code: '1' }]]);
  assert.equal(rows('name,,code\nDesk,ignored,1\n'), [[2, { name: 'Desk', code: '1' }]]);
  assert.equal(rows('name,code,\nDesk,1,\n'), [[2, { name: 'Desk', code: '1' }]], 'a trailing comma on every line');
  assert.equal(failure(',code\nDesk\n'), { message: 'The file is malformed: line 2 has 1 cells where the header names 2 columns.', status: 400, line: 2 });
});

test('in chunks: a row as soon as its line end is read (a CR waits for the next chunk), a long quoted cell across many, a bound on what is held', () => {
  const reader = new CsvReader();
  assert.equal(reader.push('name,code\nDesk,1'), [], 'no line end yet');
  assert.equal(reader.push('\r'), [], 'a CR alone or a CRLF: the next chunk tells');
  assert.equal(reader.push('\nCh'), [{ line: 2, values: { name: 'Desk', code: '1' }, text: true }]);
  assert.equal(reader.end('air,2'), [{ line: 3, values: { name: 'Chair', code: '2' }, text: true }]);

  const long = `${'x'.repeat(5000)}\n${'y'.repeat(5000)}`;
  const text = `name,note\n"${long.replace(/x{10}/g, 'x""xxxxxxx')}",1\nnext,2\n`;
  const expected = parseCsv(text);
  assert.is(expected.length, 2);
  assert.is(expected[1]!.line, 4, 'the line break in the quoted cell counted');
  for (const size of [1, 64, 1000]) assert.equal(chunked(text, size), expected, `in chunks of ${size}`);

  const bounded = new CsvReader(100);
  assert.equal(bounded.push('name\nshort\n'), [{ line: 2, values: { name: 'short' }, text: true }]);
  assert.throws(
    () => chunked(`name\nshort\n"${'z'.repeat(500)}`, 10, new CsvReader(100)),
    (error: Error) => error.message === 'The file is malformed: line 3 starts a record longer than 100 characters (a quoted cell that is never closed?).',
  );
});

test.run();
