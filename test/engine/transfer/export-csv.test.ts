// The CSV writer: RFC 4180 quoting, and formula-looking text neutralised (CSV injection).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cellText, csvLine, neutralise } from '../../../engine/transfer/csv-write.ts';

test('fields with commas, quotes and line breaks are quoted, quotes doubled; records end with CRLF', () => {
  assert.is(csvLine(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rhere']), 'plain,"a,b","say ""hi""","two\nlines","cr\rhere"\r\n');
  assert.is(csvLine([1, 2.5, true, false, null, undefined, '']), '1,2.5,true,false,,,\r\n');
});

test('lists and objects are written as JSON', () => {
  assert.is(csvLine([['a', 'b'], { x: 1 }]), '"[""a"",""b""]","{""x"":1}"\r\n');
});

test('a cell that a spreadsheet would compute is neutralised with an apostrophe', () => {
  for (const formula of ['=SUM(A1:A3)', '+1+2', '-2+3', '@cmd', '=HYPERLINK("http://x","y")', '\tTAB', '\r=1']) {
    assert.ok(neutralise(formula).startsWith("'"), formula);
  }
  assert.is(csvLine(['=1+1', '=HYPERLINK("x")']), `'=1+1,"'=HYPERLINK(""x"")"\r\n`);
});

test('numbers written as text, and ordinary text, are left as they are', () => {
  for (const text of ['-5.00', '+3', '-0.5', '1e5', '-1E-3', 'Acme', 'a=b', 'mail@example.com', '']) assert.is(neutralise(text), text);
  assert.is(cellText(-5), '-5');
  assert.is(cellText('Ünïcødé ✓'), 'Ünïcødé ✓');
});

test.run();
