// The body an action declares (`body:` under the action), as the reference shows it: its JSON
// Schema (the TypeBox schemas the engine validates with, and what they cannot say as words), an
// example the action accepts, and the lines of the Markdown reference.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, FieldSet, ResourceDef } from '../definition/types.ts';
import { fieldValueSchema } from '../schema/field-schema.ts';
import type { JsonSchema } from '../serialize/response-schemas.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { describeInvalid, messages } from '../validation/messages.ts';
import { inputExample } from './examples.ts';
import { escapeCell, valueRuleWords } from './markdown-cells.ts';

/** The JSON Schema of a body: an object of its fields, unknown keys ignored. */
export function bodySchema(body: FieldSet, title?: string): JsonSchema {
  const fields = [...body.fields.values()];
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return {
    type: 'object',
    ...(title && { title }),
    properties: Object.fromEntries(fields.map((field) => [field.name, propertySchema(field)])),
    ...(required.length > 0 && { required }),
  };
}

function propertySchema(field: FieldDef): JsonSchema {
  const value: JsonSchema = field.entries
    ? {
        type: 'array',
        items: bodySchema(field.entries),
        ...(field.minItems !== undefined && { minItems: field.minItems }),
        ...(field.maxItems !== undefined && { maxItems: field.maxItems }),
      }
    : // TypeBox's schema as plain JSON (its symbols dropped).
      JSON.parse(JSON.stringify({ ...fieldValueSchema(field), description: undefined }));
  const schema = field.nullable ? { anyOf: [value, { type: 'null' }] } : value;
  const notes = fieldNotes(field);
  return {
    ...schema,
    ...(notes && { description: notes }),
    ...(field.example !== undefined && !field.entries && { examples: [inputExample(field, NO_RESOURCE, NO_REGISTRY)] }),
  };
}

// A body field's example needs neither: it names no relation of a resource.
const NO_RESOURCE = {} as ResourceDef;
const NO_REGISTRY = {} as Registry;

/** What the schema cannot say, in words. */
export function fieldNotes(field: FieldDef): string {
  const notes: string[] = [];
  if (field.description) notes.push(`${capitalize(field.description)}.`);
  if (field.required) notes.push('Required.');
  if (field.references) notes.push(`The id of an existing \`${field.references}\` record.`);
  if (field.type === 'date') notes.push('YYYY-MM-DD.');
  if (field.type === 'boolean') notes.push('true, false, 1 or 0.');
  if (field.entries) notes.push(`At most ${field.maxItems} entries.`);
  return notes.join(' ');
}

/** A body the action accepts: its required fields, those with an example, and one entry of each list. */
export function bodyExample(body: FieldSet): Record<string, unknown> {
  const example: Record<string, unknown> = {};
  for (const field of body.fields.values()) {
    if (field.entries) example[field.name] = [bodyExample(field.entries)];
    else if (field.required || field.example !== undefined) example[field.name] = inputExample(field, NO_RESOURCE, NO_REGISTRY);
  }
  return example;
}

/** The 422 a body breaking its first rule gets: its required fields left out, else its first field sent as the wrong type. */
export function bodyValidationExample(body: FieldSet): unknown {
  const fields = [...body.fields.values()];
  const required = fields.filter((field) => field.required);
  if (required.length > 0) return new ValidationError(Object.fromEntries(required.map((field) => [field.name, [messages.required(field)]]))).body();
  const first = fields[0]!;
  return new ValidationError({ [first.name]: [describeInvalid(first, first.type === 'string' || first.type === 'text' ? 7 : 'seven')] }).body();
}

/** The Markdown lines of an action's body (`path`: its route): a table of its fields, a list's entries as `moves.*.quantity`. */
export function bodyMarkdown(path: string, body: FieldSet): string[] {
  const rows: string[] = [];
  const add = (field: FieldDef, name: string) => {
    rows.push(`| \`${name}\` | ${BODY_TYPES[field.type] ?? field.type} | ${field.required ? 'required' : 'optional'} | ${escapeCell(bodyRules(field))} |`);
    for (const entry of field.entries?.fields.values() ?? []) add(entry, `${name}.*.${entry.name}`);
  };
  for (const field of body.fields.values()) add(field, field.name);
  return [`**Body of \`POST ${path}\`**`, '', '| Field | Type | Body | Rules |', '|---|---|---|---|', ...rows, ''];
}

const BODY_TYPES: Partial<Record<FieldDef['type'], string>> = {
  date: 'date (`YYYY-MM-DD`)',
  datetime: 'date-time (ISO 8601)',
  strings: 'list of strings',
  records: 'list of entries',
};

function bodyRules(field: FieldDef): string {
  const parts = valueRuleWords(field);
  if (field.entries) parts.push(`at most ${field.maxItems} entries`);
  return parts.join('; ');
}

function capitalize(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
