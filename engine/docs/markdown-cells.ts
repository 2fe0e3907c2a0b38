// What the Markdown reference's field tables share: a cell's escaping and the words of a field's
// value rules (description, enum, bounds, format, reference), for a resource's fields
// (markdown.ts) and an action body's (action-bodies.ts) alike.
import type { FieldDef } from '../definition/types.ts';

export function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

const FORMAT_WORDS = { 'hex-color': 'hex colour', email: 'e-mail address', url: 'URL', 'time-zone': 'IANA time zone (`Europe/Zurich`)' };

/** The rules a value sent must keep, in words: the start of a field's "Rules" cell. */
export function valueRuleWords(field: FieldDef): string[] {
  const parts: string[] = [];
  if (field.description) parts.push(field.description);
  if (field.enum) parts.push(`one of ${field.enum.map((value) => `\`${value}\``).join(', ')}`);
  if (field.maxLength !== undefined) parts.push(`at most ${field.maxLength} characters`);
  if (field.minimum !== undefined) parts.push(`at least ${field.minimum}`);
  if (field.maximum !== undefined) parts.push(`at most ${field.maximum}`);
  if (field.format) parts.push(FORMAT_WORDS[field.format]);
  if (field.references) parts.push(`id of a \`${field.references}\` record`);
  return parts;
}
