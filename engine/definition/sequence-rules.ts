// What a field's `sequence` says, read from the definition alone: its padding, whether it counts
// per company, the placeholders of its code and prefix, and its sentence in the references. The
// numbering itself (a counter row locked in the write's transaction) is engine/rules/sequence.ts.
import type { SequenceFormat } from './rules-format.ts';
import type { FieldDef, ResourceDef } from './types.ts';

export const DEFAULT_PADDING = 5;

export function perCompany(def: ResourceDef, sequence: SequenceFormat): boolean {
  return sequence.perCompany ?? def.fields.get('company_id')?.stored === true;
}

/** `{year}` and `{field}` / `{relation.column}` placeholders of a code or prefix. */
export function templatePaths(template: string): string[] {
  return [...template.matchAll(/\{([a-zA-Z0-9_.]+)\}/g)].map((match) => match[1]!).filter((path) => path !== 'year');
}

/** The field's numbering in words, for the API reference. */
export function describeSequence(def: ResourceDef, field: FieldDef): string[] {
  const sequence = field.sequence;
  if (!sequence) return [];
  const example = `${sequence.prefix ?? ''}${'1'.padStart(sequence.padding ?? DEFAULT_PADDING, '0')}`;
  const on = (sequence.on ?? 'create') === 'create' ? 'when the record is created' : `when \`${sequence.on}\` runs on a record that has none`;
  const scope = [perCompany(def, sequence) && 'company', ...templatePaths(sequence.code).map((path) => `\`${path}\``), sequence.code.includes('{year}') && 'year']
    .filter(Boolean)
    .join(', ')
    .replace(/, ([^,]+)$/, ' and $1');
  return [`Numbered ${on}, without gaps: \`${example}\`, then the next${scope ? ` (one counter per ${scope})` : ''}.`];
}
