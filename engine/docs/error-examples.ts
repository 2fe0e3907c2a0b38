import type { Operation } from '../definition/format.ts';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { ERROR_MESSAGES } from '../errors/messages.ts';
import { MAX_PER_PAGE } from '../list/parse-list-query.ts';
import { writableFields } from '../schema/body-schemas.ts';
import { messages } from '../validation/messages.ts';

const MESSAGES = ERROR_MESSAGES;

export function badRequestDescription(op: Operation): string {
  switch (op) {
    case 'list':
      return 'An unknown filter, sort or include (the message lists the allowed ones), or a malformed request.';
    case 'create':
    case 'update':
      return 'Malformed JSON, a body that is not a JSON object, or an unknown include.';
    case 'show':
    case 'restore':
      return 'An unknown include (the message lists the allowed ones), or a malformed request.';
    default:
      return 'A malformed request (bad URL encoding or JSON).';
  }
}

export function badRequestExample(def: ResourceDef, op: Operation): string {
  const allowedIncludes = [...def.allowedIncludes].join(', ');
  switch (op) {
    case 'list':
      return `Requested filter(s) \`unknown\` are not allowed. Allowed filter(s) are \`${[...def.filters.keys()].join(', ')}\`.`;
    case 'show':
    case 'restore':
      return `Requested include(s) \`unknown\` are not allowed. Allowed include(s) are \`${allowedIncludes}\`.`;
    case 'create':
    case 'update':
      return MESSAGES.invalidJson;
    default:
      return 'The request URL is not valid.';
  }
}

export function conflictDescription(op: Operation): string {
  return op === 'create' || op === 'update' ? 'The write conflicts with a record stored meanwhile.' : 'Other records still refer to this one.';
}

export function conflictExample(def: ResourceDef, registry: Registry, op: Operation): string {
  if (op === 'create' || op === 'update') return `The ${def.label} conflicts with an existing record.`;
  const restricting = [...def.relations.values()].find((relation) => relation.kind === 'hasMany' && relation.onDelete === 'restrict');
  if (restricting) {
    return `The ${def.label} cannot be deleted because it still has ${registry.get(restricting.resource).label} records (soft-deleted ones included). Remove them first.`;
  }
  return `The ${def.label} cannot be deleted because other records still refer to it.`;
}

export function validationExample(def: ResourceDef, op: Operation): unknown {
  if (op === 'list') return new ValidationError({ per_page: [`The per page field must not be greater than ${MAX_PER_PAGE}.`] }).body();
  const fields = writableFields(def);
  if (op === 'create') {
    const required = fields.filter((field) => field.required);
    if (required.length > 0) return new ValidationError(Object.fromEntries(required.map((field) => [field.name, [messages.required(field)]]))).body();
  }
  const limited = fields.find((field) => field.maxLength !== undefined) ?? fields.find((field) => field.type === 'string' || field.type === 'text');
  if (limited) {
    return new ValidationError({ [limited.name]: [limited.maxLength !== undefined ? messages.maxLength(limited) : messages.string(limited)] }).body();
  }
  const first = fields[0];
  return new ValidationError(first ? { [first.name]: [messages.required(first)] } : { body: ['The given data was invalid.'] }).body();
}
