// A workbook of one sheet written as its rows come, in bounded memory: exceljs' streaming writer
// held its output (1,000,000 rows peaked at 512 MB), so the export writes the few parts of an .xlsx
// itself. An .xlsx is a zip of XML parts: the fixed ones (content types, relationships, the
// workbook, a style sheet) are small and written whole; the sheet is deflated as its rows are
// written, its entry's CRC and sizes given after its data (a "data descriptor", zip flag bit 3),
// so that nothing of it is held but the batch at hand. Strings are inline (no shared string table
// to keep), numbers and booleans typed. Plain zip, not ZIP64: a part is at most 4 GB (far beyond a
// sheet's 1,048,576 rows of ordinary records); beyond that the export fails rather than write a
// broken file.
import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';

type Batches = AsyncIterable<readonly (readonly unknown[])[]>;

/** A cell's value: a number or boolean as such, null as no cell, anything else as its text. */
export type CellWriter = (value: unknown) => unknown;

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SHEET = 'xl/worksheets/sheet1.xml';
const LIMIT = 0xffffffff;

const FIXED_PARTS: Array<[string, string]> = [
  [
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/${SHEET}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
  ],
  ['_rels/.rels', `${XML}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${DOCUMENT}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
  ['xl/workbook.xml', `${XML}<workbook xmlns="${MAIN}" xmlns:r="${DOCUMENT}"><sheets><sheet name="export" sheetId="1" r:id="rId1"/></sheets></workbook>`],
  [
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${DOCUMENT}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOCUMENT}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    'xl/styles.xml',
    `${XML}<styleSheet xmlns="${MAIN}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
  ],
];

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
  /** Sizes and CRC after the data (the sheet's). */
  descriptor: boolean;
}

/** The bytes of an .xlsx of one sheet: a header row of `names`, then every row of the batches, each value through `cell`. */
export async function* xlsxChunks(names: readonly string[], batches: Batches, cell: CellWriter): AsyncGenerator<Buffer> {
  const entries: Entry[] = [];
  let offset = 0;
  const { time, date } = dosTime(new Date());
  const emit = (buffer: Buffer) => {
    offset += buffer.length;
    return buffer;
  };

  for (const [name, text] of FIXED_PARTS) {
    const data = Buffer.from(text);
    const compressed = deflateRawSync(data);
    const entry: Entry = { name: Buffer.from(name), offset, crc: crc32(data), compressed: compressed.length, size: data.length, descriptor: false };
    entries.push(entry);
    yield emit(localHeader(entry, time, date));
    yield emit(compressed);
  }

  const sheet: Entry = { name: Buffer.from(SHEET), offset, crc: 0, compressed: 0, size: 0, descriptor: true };
  entries.push(sheet);
  yield emit(localHeader(sheet, time, date));
  const deflate = createDeflateRaw();
  const out: Buffer[] = [];
  let failure: Error | undefined;
  deflate.on('data', (chunk: Buffer) => {
    out.push(chunk);
    sheet.compressed += chunk.length;
  });
  deflate.on('error', (error) => {
    failure = error;
  });
  const ended = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  ended.catch(() => undefined);
  const write = async (text: string) => {
    const data = Buffer.from(text);
    sheet.crc = crc32(data, sheet.crc);
    sheet.size += data.length;
    if (sheet.size > LIMIT) throw new Error('The sheet is larger than an .xlsx part may be (4 GB): export fewer rows or fields.');
    if (!deflate.write(data)) await new Promise<void>((resolve) => deflate.once('drain', resolve));
    if (failure) throw failure;
  };
  const columns = names.map((_, index) => columnName(index));

  try {
    await write(`${XML}<worksheet xmlns="${MAIN}"><sheetData>${rowXml(1, names, columns, cell)}`);
    let row = 1;
    for await (const rows of batches) {
      let text = '';
      for (const values of rows) text += rowXml(++row, values, columns, cell);
      await write(text);
      // What the batch compressed to leaves before the next batch is read.
      yield* out.splice(0).map(emit);
    }
    await write('</sheetData></worksheet>');
    deflate.end();
    await ended;
  } finally {
    deflate.destroy();
  }
  yield* out.splice(0).map(emit);
  if (sheet.compressed > LIMIT || offset > LIMIT) throw new Error('The workbook is larger than a zip without ZIP64 may be (4 GB): export fewer rows or fields.');
  yield emit(dataDescriptor(sheet));

  const directoryStart = offset;
  for (const entry of entries) yield emit(directoryHeader(entry, time, date));
  yield emit(endOfDirectory(entries.length, offset - directoryStart, directoryStart));
}

function rowXml(number: number, values: readonly unknown[], columns: readonly string[], cell: CellWriter): string {
  let xml = `<row r="${number}">`;
  for (let index = 0; index < values.length; index++) {
    const value = cell(values[index]);
    if (value === null || value === undefined) continue;
    const ref = `${columns[index] ?? columnName(index)}${number}`;
    if (typeof value === 'number' && Number.isFinite(value)) xml += `<c r="${ref}"><v>${value}</v></c>`;
    else if (typeof value === 'boolean') xml += `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
    else xml += `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(withinCellLimit(String(value)))}</t></is></c>`;
  }
  return `${xml}</row>`;
}

/** The most characters a spreadsheet program keeps in a cell; it repairs a workbook with more, cutting the text. */
export const CELL_LIMIT = 32_767;

/** A text too long for a cell is written as a note that says so (as Odoo does): the file opens, and nothing is cut silently. */
function withinCellLimit(text: string): string {
  if (text.length <= CELL_LIMIT) return text;
  const count = String(text.length).replace(/\B(?=(\d{3})+$)/g, ',');
  return `This value has ${count} characters, more than a spreadsheet cell holds (32,767): export as CSV or JSON lines to have it.`;
}

/** Text as XML character data: the markup characters escaped, characters XML 1.0 cannot hold dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 cannot hold
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  );
}

/** A, B, ..., Z, AA, AB, ... for the 0-based column index. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function localHeader(entry: Entry, time: number, date: number): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
  header.writeUInt16LE(entry.descriptor ? 0x0808 : 0x0800, 6); // UTF-8 names; bit 3: sizes after the data
  header.writeUInt16LE(8, 8); // deflate
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  header.writeUInt32LE(entry.descriptor ? 0 : entry.crc, 14);
  header.writeUInt32LE(entry.descriptor ? 0 : entry.compressed, 18);
  header.writeUInt32LE(entry.descriptor ? 0 : entry.size, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, entry.name]);
}

function dataDescriptor(entry: Entry): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  descriptor.writeUInt32LE(entry.compressed, 8);
  descriptor.writeUInt32LE(entry.size, 12);
  return descriptor;
}

function directoryHeader(entry: Entry, time: number, date: number): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(20, 4); // made by: 2.0
  header.writeUInt16LE(20, 6);
  header.writeUInt16LE(entry.descriptor ? 0x0808 : 0x0800, 8);
  header.writeUInt16LE(8, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.compressed, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  // extra, comment, disk, internal and external attributes: none
  header.writeUInt32LE(entry.offset, 42);
  return Buffer.concat([header, entry.name]);
}

function endOfDirectory(count: number, size: number, start: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(start, 16);
  return end;
}

/** The zip's MS-DOS time and date fields (local time, two-second precision). */
function dosTime(now: Date): { time: number; date: number } {
  return {
    time: (now.getHours() << 11) | (now.getMinutes() << 5) | Math.floor(now.getSeconds() / 2),
    date: ((Math.max(now.getFullYear(), 1980) - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate(),
  };
}
