// An action's body (`body:` under the action): its fields in a resource field's words, resolved
// once every definition is normalized, because `like: module/name.field` starts a field from
// another resource's. The engine validates a request's body with them before the action's
// behaviour runs (engine/routes/handlers/action.ts), and the reference, the OpenAPI document and
// the Postman collection show them.
import type { DefinitionProblem } from './definition-error.ts';
import type { BodyEntryFieldFormat, BodyFieldFormat, FieldFormat } from './format.ts';
import type { LoadedFile } from './load.ts';
import { toFieldDef } from './normalize.ts';
import { didYouMean } from './suggest.ts';
import type { FieldDef, FieldSet, ResourceDef } from './types.ts';

/** What a field taken `like` another keeps of it: its value rules, not whether it is required, nullable or shown. */
const LIKE_KEYS = ['type', 'description', 'maxLength', 'minLength', 'minimum', 'maximum', 'format', 'enum', 'references', 'referencesWhere', 'numericString', 'example'] as const;

const STRING_TYPES = new Set(['string', 'text']);
const LIST_TYPES = new Set(['strings', 'records']);
const DATE_TYPES = new Set(['date', 'datetime']);

type Problem = (at: string, message: string) => undefined;

/** Fills each action's `body` from its definition's `body:`; what is wrong is added to `problems`. */
export function resolveActionBodies(resources: ReadonlyMap<string, ResourceDef>, files: ReadonlyMap<string, LoadedFile>, problems: DefinitionProblem[]): void {
  for (const def of resources.values()) {
    const file = files.get(def.name)!;
    const problem: Problem = (at, message) => {
      problems.push({ file: def.file, at, line: file.lineOf(at), message });
    };
    for (const action of def.actions.values()) {
      const body = file.raw.actions?.[action.name]?.body;
      if (!body) continue;
      if (action.on === 'collection') problem(`actions.${action.name}.body`, 'a collection action takes no body');
      action.body = fieldSet(body, `actions.${action.name}.body`, resources, problem);
    }
  }
}

function fieldSet(formats: Record<string, BodyFieldFormat | BodyEntryFieldFormat>, at: string, resources: ReadonlyMap<string, ResourceDef>, problem: Problem): FieldSet {
  const fields = new Map<string, FieldDef>();
  for (const [name, format] of Object.entries(formats)) {
    const field = bodyField(name, format, `${at}.${name}`, resources, problem);
    if (field) fields.set(name, field);
  }
  for (const field of fields.values()) checkPairs(field, fields, `${at}.${field.name}`, problem);
  return { fields };
}

function bodyField(name: string, format: BodyFieldFormat, at: string, resources: ReadonlyMap<string, ResourceDef>, problem: Problem): FieldDef | undefined {
  const { like, fields: entries, ...own } = format;
  const base = like ? likeField(like, `${at}.like`, resources, problem) : undefined;
  if (like && !base) return undefined;
  const merged = { ...base?.format, ...own } as FieldFormat;
  if (merged.type === undefined) {
    problem(at, 'a body field needs a type, or `like` naming a field whose rules it takes');
    return undefined;
  }
  checkField(merged, at, resources, problem);
  if (merged.type === 'records' && !entries) problem(at, 'a records list of a body needs `fields`: the fields of each entry');
  if (entries && merged.type !== 'records') problem(`${at}.fields`, 'fields applies to a records list');
  return {
    ...toFieldDef(name, merged),
    // Every field of a body is the client's to send (an entry's `id` names a record) and none is stored as such.
    writable: true,
    stored: false,
    output: false,
    ...(base?.column && { column: base.column }),
    ...(entries && merged.type === 'records' && { entries: fieldSet(entries, `${at}.fields`, resources, problem) }),
  };
}

/** The rules of the field `like` names, a decimal read as a number, with the column that bounds it. */
function likeField(like: string, at: string, resources: ReadonlyMap<string, ResourceDef>, problem: Problem) {
  const dot = like.lastIndexOf('.');
  const [resourceName, fieldName] = [like.slice(0, dot), like.slice(dot + 1)];
  const target = resources.get(resourceName);
  if (!target) return problem(at, `unknown resource "${resourceName}"${didYouMean(resourceName, resources.keys())}`);
  const field = target.fields.get(fieldName);
  if (!field) return problem(at, `"${fieldName}" is not a field of ${target.name}${didYouMean(fieldName, target.fields.keys())}`);
  if (field.type === 'ids' || field.type === 'records') return problem(at, `${target.name}.${fieldName} is a list of related records: like names a field of one value`);
  const format: Partial<FieldFormat> = {};
  for (const key of LIKE_KEYS) if (field[key] !== undefined) (format as Record<string, unknown>)[key] = field[key];
  if (format.type === 'decimal') format.type = 'number';
  return { format, column: field.stored ? { table: target.table, name: field.name } : undefined };
}

/** The checks link.ts makes of a resource's fields, for the keys a body field may have. */
function checkField(field: FieldFormat, at: string, resources: ReadonlyMap<string, ResourceDef>, problem: Problem): void {
  const isString = STRING_TYPES.has(field.type);
  if (field.type === 'decimal') problem(`${at}.type`, 'a body takes a number: decimal places belong to a stored column');
  if (field.type === 'ids') problem(`${at}.type`, 'ids write a relation of a resource: a body names records with integer fields and references');
  for (const key of ['maxLength', 'minLength', 'format', 'enum'] as const) {
    if (field[key] !== undefined && !isString) problem(`${at}.${key}`, `${key} applies to string and text fields`);
  }
  if (field.numericString && field.type !== 'integer') problem(`${at}.numericString`, 'numericString applies to integer fields');
  if (field.minimum !== undefined && field.maximum !== undefined && field.minimum > field.maximum) problem(`${at}.minimum`, 'minimum is greater than maximum');
  for (const key of ['minItems', 'maxItems'] as const) {
    if (field[key] !== undefined && !LIST_TYPES.has(field.type)) problem(`${at}.${key}`, `${key} applies to strings and records lists`);
  }
  if (field.required && field.nullable) problem(`${at}.nullable`, 'a required field is never null');
  if (field.references !== undefined) {
    const target = resources.get(field.references);
    if (!target) problem(`${at}.references`, `unknown resource "${field.references}"${didYouMean(field.references, resources.keys())}`);
    if (field.type !== 'integer') problem(`${at}.references`, 'references applies to integer fields (ids)');
    for (const column of Object.keys(field.referencesWhere ?? {})) {
      if (target && !target.fields.get(column)?.stored) problem(`${at}.referencesWhere.${column}`, `"${column}" is not a field of ${target.name}`);
    }
  } else if (field.referencesWhere) {
    problem(`${at}.referencesWhere`, 'referencesWhere applies to fields with references');
  }
}

/** `excludes` and `until` name another field of the same body. */
function checkPairs(field: FieldDef, fields: ReadonlyMap<string, FieldDef>, at: string, problem: Problem): void {
  if (field.excludes !== undefined && !fields.has(field.excludes)) problem(`${at}.excludes`, `"${field.excludes}" is not a field of this body`);
  if (field.until !== undefined) {
    const end = fields.get(field.until);
    if (!end || end.type !== field.type || !DATE_TYPES.has(field.type))
      problem(`${at}.until`, `"${field.until}" is not a ${field.type} field of this body (a range's start and end are dates of one type)`);
  }
}
