// JSON lines: one JSON object per line, as a create's body; blank lines are skipped.
import secureJson from 'secure-json-parse';
import { MalformedFileError, type ParsedRow } from './parsed-rows.ts';

export function parseJsonLines(text: string): ParsedRow[] {
  const rows: ParsedRow[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      // secure-json-parse, as for JSON bodies: no __proto__ or constructor pollution.
      value = secureJson.parse(line, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      throw new MalformedFileError(index + 1, 'is not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MalformedFileError(index + 1, 'is not a JSON object');
    rows.push({ line: index + 1, values: value as Record<string, unknown> });
  });
  return rows;
}
