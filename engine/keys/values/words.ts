// The value rules of a field in words, for the references (OpenAPI descriptions and docs/api.md):
// given to the loader as the words of `defaultFrom` (./value-keys.ts), they come first among the
// field's keyWords.
import type { DefaultSourceFormat } from '../../definition/format.ts';
import type { FieldDef, ResourceDef } from '../../definition/types.ts';
import { defaultSources, fillReads, isOwnValue } from '../../definition/value-rules.ts';

/** A path as the documentation says it: `the project's \`company_id\`` or `\`uom_id\``. */
function pathWords(def: ResourceDef, path: string): string {
  const [first, column] = path.split('.') as [string, string | undefined];
  if (column === undefined) return `\`${first}\``;
  return `the ${def.relations.get(first)?.outputKey ?? first}'s \`${column}\``;
}

function sourceWords(def: ResourceDef, field: FieldDef, source: DefaultSourceFormat): string {
  if (typeof source === 'string') return pathWords(def, source);
  if ('user' in source) return source.user === 'id' ? 'the acting user' : "the acting user's default company";
  if ('now' in source) return field.type === 'date' ? "today in the company's time zone" : 'now';
  const where = Object.entries(source.where ?? {}).map(([column, condition]) =>
    isOwnValue(condition)
      ? `\`${column}\` = ${pathWords(def, condition.field)}`
      : `\`${column}\` ${typeof condition === 'object' ? Object.entries(condition)[0]!.join(' ') : `= ${condition}`}`,
  );
  return `the ${source.column ? `\`${source.column}\` of the ` : ''}first \`${source.first}\` record${where.length > 0 ? ` with ${where.join(' and ')}` : ''}`;
}

/** The field's value rules in words, for the API reference (OpenAPI descriptions and docs/api.md). */
export function describeValueRules(def: ResourceDef, field: FieldDef): string[] {
  const words: string[] = [];
  if (field.related) words.push(`A copy of ${pathWords(def, field.related)}, kept in sync when it changes.`);
  const sources = defaultSources(field);
  if (sources.length > 0) {
    const change = field.defaultOnChange
      ? ` (again when ${fillReads(def, field)
          .map((name) => `\`${name}\``)
          .join(' or ')} changes)`
      : '';
    words.push(
      `Defaults to ${sources.map((source) => sourceWords(def, field, source)).join(', else ')}${field.default !== undefined ? `, else ${JSON.stringify(field.default)}` : ''}${change}.`,
    );
  }
  if (field.nullMeans === 'default') words.push('Null means the default.');
  if (field.nullMeans === 'unsent') words.push('Null counts as not sent.');
  if (field.defaultRequired) words.push('Never left empty: a default that finds nothing is a 422.');
  for (const [column, condition] of Object.entries(field.referencesWhere ?? {})) {
    if (isOwnValue(condition)) words.push(`The record named must have \`${column}\` equal to ${pathWords(def, condition.field)}${condition.orNull ? ' (or either empty)' : ''}.`);
  }
  if (field.checkCompany) words.push("The record named must be of this record's company, or of none.");
  if (field.requiredWhen)
    words.push(
      `Required while ${Object.entries(field.requiredWhen.when)
        .map(([column, values]) => `\`${column}\` is ${values.map((value) => `\`${value}\``).join(' or ')}`)
        .join(' and ')} (sent, else stored).`,
    );
  if (field.notBefore) words.push(`Not before \`${field.notBefore}\` when both are sent.`);

  if (field.stampedBy) words.push(`Set when \`${field.stampedBy}\` becomes true (an earlier time is kept), cleared when it becomes false.`);
  return words;
}
