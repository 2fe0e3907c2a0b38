// Validates a create or update body against the definition: shape first (compiled TypeBox
// schemas, built at boot), then references and uniqueness against the database. Every problem
// is collected so the client sees them all in one 422; nothing is written when any is found.
// Nested records (order lines, moves) are validated with their own resource's fields, and their
// errors are named like `lines.0.product_id`.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { ValidationError, BadRequestError, type FieldErrors } from '../errors/http-errors.ts';
import { fieldInputSchema } from '../schema/field-schema.ts';
import { writableFields } from '../schema/body-schemas.ts';
import { describeInvalid, messages } from './messages.ts';
import { condition, placeholders, quote, whereClause, type Condition } from '../sql/quote.ts';
import type { Statements } from '../sql/statements.ts';
import { resourceRows } from '../sql/resource-rows.ts';

export type Mode = 'create' | 'update';
export type Values = Record<string, unknown>;

/** One validated entry of a `records` field: an update of an existing child (id) or a new one. */
export interface NestedEntry {
  id?: number;
  values: Values;
}


interface CompiledField {
  field: FieldDef;
  check: TypeCheck<TSchema>;
  /** The table a referenced id (references, or each id of an ids field) must be found in. */
  target?: ResourceDef;
  /** Extra conditions on the referenced row: a scope through this field's relation (a receipt's operation type must be incoming). */
  conditions?: Record<string, string | number | boolean>;
  /** records: the related resource and the column pointing back at this record. */
  nested?: { def: ResourceDef; foreignKey: string };
}

export interface ValidateOptions {
  mode: Mode;
  /** The record being updated. */
  id?: number;
  /** For nested entries: `lines.0.`, prefixed to error keys and labels. */
  prefix?: string;
}

export interface BodyValidator {
  validate(body: unknown, statements: Statements, options: ValidateOptions): Promise<Values>;
}

const compiled = new WeakMap<ResourceDef, BodyValidator>();

export function compileBodyValidator(def: ResourceDef, registry: Registry): BodyValidator {
  const cached = compiled.get(def);
  if (cached) return cached;
  const validator = buildValidator(def, registry);
  compiled.set(def, validator);
  return validator;
}

function buildValidator(def: ResourceDef, registry: Registry): BodyValidator {
  const fields: CompiledField[] = writableFields(def).map((field) => {
    const relation = field.relation ? def.relations.get(field.relation) : undefined;
    const targetName = field.references ?? (field.type === 'ids' ? relation?.resource : undefined);
    const target = targetName ? registry.get(targetName) : undefined;
    return {
      field,
      check: TypeCompiler.Compile(fieldInputSchema(field)),
      target,
      conditions: { ...scopeThrough(def, field.name), ...field.referencesWhere },
      nested: field.type === 'records' && relation ? { def: registry.get(relation.resource), foreignKey: relation.foreignKey } : undefined,
    };
  });

  const validator: BodyValidator = {
    async validate(body, statements, options) {
      const prefix = options.prefix ?? '';
      if (body === undefined || body === null) body = {};
      if (typeof body !== 'object' || Array.isArray(body)) {
        if (prefix) throw new ValidationError({ [prefix.slice(0, -1)]: [`The ${prefix.slice(0, -1)} field must be an object.`] });
        throw new BadRequestError('The request body must be a JSON object.');
      }
      const input = body as Record<string, unknown>;
      const errors: FieldErrors = {};
      const values: Values = {};
      const named = (field: FieldDef): FieldDef => (prefix ? { ...field, label: `${prefix}${field.label}` } : field);
      const fail = (field: FieldDef, message: string, key = field.name) => {
        errors[`${prefix}${key}`] = [message];
      };

      for (const { field, check } of fields) {
        const value = normalizeInput(input[field.name]);
        const shown = named(field);
        if (value === undefined) {
          if (options.mode === 'create' && field.required) fail(field, messages.required(shown));
          continue;
        }
        if (value === null && field.required) {
          fail(field, messages.required(shown));
          continue;
        }
        if (!check.Check(value)) {
          const item = Array.isArray(value) ? firstBadItem(field, value) : undefined;
          if (item) fail(field, item.message(named({ ...field, label: `${field.label}.${item.index}` })), `${field.name}.${item.index}`);
          else fail(field, describeInvalid(shown, value));
          continue;
        }
        values[field.name] = coerce(field, value);
      }

      await Promise.all(
        fields.map(async ({ field, target, nested, conditions }) => {
          const value = values[field.name];
          const shown = named(field);
          if (value === undefined || value === null || errors[`${prefix}${field.name}`]) return;
          if (field.type === 'ids' && target) {
            const { ids, missing } = await resolveIds(statements, registry, target, value as Array<number | string>, field.by);
            (value as Array<number | string>).forEach((key, index) => {
              if (missing.has(key)) fail(field, messages.notFound(named({ ...field, label: `${field.label}.${index}` })), `${field.name}.${index}`);
            });
            values[field.name] = ids;
          } else if (nested) {
            values[field.name] = await validateNested(nested, value as unknown[], statements, options, errors, `${prefix}${field.name}.`, registry);
          } else if (target && !(await exists(statements, registry, target, value, conditions))) {
            fail(field, messages.notFound(shown));
          } else if (field.unique && (await taken(statements, def.table, field.name, value, options.id))) {
            fail(field, messages.taken(shown));
          }
        }),
      );

      if (Object.keys(errors).length > 0) throw new ValidationError(inFieldOrder(errors, fields, prefix));
      return values;
    },
  };
  return validator;
}

/**
 * Entries with the id of one of this record's children update it; the others are new children
 * (an id of somebody else's child is ignored). Errors are added under `<field>.<index>.<name>`.
 */
async function validateNested(
  nested: NonNullable<CompiledField['nested']>,
  entries: unknown[],
  statements: Statements,
  options: ValidateOptions,
  errors: FieldErrors,
  prefix: string,
  registry: Registry,
): Promise<NestedEntry[]> {
  const validator = compileBodyValidator(nested.def, registry);
  const owned = new Set<number>();
  if (options.mode === 'update' && options.id !== undefined) {
    const where = whereClause([condition(`${quote(nested.foreignKey)} = ?`, options.id), ...(nested.def.softDelete ? [condition(`${quote('deleted_at')} IS NULL`)] : [])]);
    for (const row of await statements.all(`SELECT ${quote('id')} FROM ${quote(nested.def.table)}${where.sql}`, where.params)) owned.add(Number(row.id));
  }
  const result: NestedEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    const rawId = entry && typeof entry === 'object' ? (entry as Record<string, unknown>).id : undefined;
    const id = typeof rawId === 'number' && owned.has(rawId) ? rawId : undefined;
    try {
      const values = await validator.validate(entry, statements, { mode: id === undefined ? 'create' : 'update', id, prefix: `${prefix}${index}.` });
      result.push({ id, values });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      Object.assign(errors, error.errors);
    }
  }
  return result;
}

/** The original trims strings and turns empty strings into null; so do we. */
function normalizeInput(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** For a list that failed its schema: the first entry at fault, with its message. */
function firstBadItem(field: FieldDef, value: unknown[]): { index: number; message: (f: FieldDef) => string } | undefined {
  if (field.type === 'strings') {
    const index = value.findIndex((item) => typeof item !== 'string');
    return index < 0 ? undefined : { index, message: messages.string };
  }
  if (field.type === 'ids' && field.by) {
    const index = value.findIndex((item) => typeof item !== 'string' || item.trim() === '');
    return index < 0 ? undefined : { index, message: messages.string };
  }
  if (field.type === 'ids') {
    const index = value.findIndex((item) => !Number.isInteger(item) || (item as number) < 1);
    return index < 0 ? undefined : { index, message: messages.integer };
  }
  if (field.type === 'records') {
    const index = value.findIndex((item) => item === null || typeof item !== 'object' || Array.isArray(item));
    return index < 0 ? undefined : { index, message: messages.object };
  }
  return undefined;
}

function coerce(field: FieldDef, value: unknown): unknown {
  if (value === null) return null;
  if (field.type === 'integer' && typeof value === 'string') return Number(value);
  if (field.type === 'boolean') return value === true || value === 1;
  if (field.type === 'strings') return JSON.stringify(value);
  if (field.type === 'datetime') return toStoredTimestamp(value as string);
  if (field.type === 'ids') return [...new Set(value as Array<number | string>)];
  return value;
}

/** A date-time as sent (`2025-01-31`, `2025-01-31 09:30`, ISO with an offset) → stored UTC text. */
function toStoredTimestamp(value: string): string {
  const zone = /(Z|[+-]\d{2}:?\d{2})$/.exec(value)?.[1];
  const local = zone ? value.slice(0, -zone.length) : value;
  const offset = !zone || zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const date = new Date(`${local.replace(' ', 'T')}${local.length === 10 ? 'T00:00:00' : ''}${offset}`);
  return `${date.toISOString().slice(0, 23).replace('T', ' ')}000`;
}

/** Rows a reference may point at: not trashed, inside the target's scope. */
function liveRows(registry: Registry, target: ResourceDef): Condition[] {
  return resourceRows(target, registry, {});
}

async function exists(statements: Statements, registry: Registry, target: ResourceDef, id: unknown, conditions: Record<string, unknown> = {}): Promise<boolean> {
  const extra = Object.entries(conditions).map(([column, value]) => condition(`${quote(`${target.table}.${column}`)} = ?`, value));
  const where = whereClause([condition(`${quote(`${target.table}.id`)} = ?`, id), ...liveRows(registry, target), ...extra]);
  return (await statements.all(`SELECT 1 AS ${quote('found')} FROM ${quote(target.table)}${where.sql} LIMIT 1`, where.params)).length > 0;
}

/** The scope conditions that go through the relation whose foreign key is this field. */
function scopeThrough(def: ResourceDef, fieldName: string): Record<string, string | number | boolean> | undefined {
  const conditions: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(def.scope)) {
    const [relationName, column] = key.split('.');
    if (column && def.relations.get(relationName!)?.foreignKey === fieldName) conditions[column] = value;
  }
  return Object.keys(conditions).length > 0 ? conditions : undefined;
}

/** The ids of the records named (by id, or by the `by` column), and the names that found nothing. */
async function resolveIds(statements: Statements, registry: Registry, target: ResourceDef, keys: Array<number | string>, by = 'id') {
  if (keys.length === 0) return { ids: [] as number[], missing: new Set<number | string>() };
  const column = quote(`${target.table}.${by}`);
  const where = whereClause([{ sql: `${column} IN (${placeholders(keys.length)})`, params: keys }, ...liveRows(registry, target)]);
  const rows = await statements.all(`SELECT ${quote(`${target.table}.id`)}, ${column} AS ${quote('key')} FROM ${quote(target.table)}${where.sql}`, where.params);
  const found = new Map(rows.map((row) => [by === 'id' ? Number(row.key) : (row.key as string), Number(row.id)] as [number | string, number]));
  return { ids: [...new Set(keys.flatMap((key) => found.get(key) ?? []))], missing: new Set(keys.filter((key) => !found.has(key))) };
}

// Soft-deleted rows count: restoring them must not create a duplicate.
async function taken(statements: Statements, table: string, column: string, value: unknown, id?: number): Promise<boolean> {
  const where = whereClause([condition(`${quote(column)} = ?`, value), ...(id !== undefined ? [condition(`${quote('id')} <> ?`, id)] : [])]);
  return (await statements.all(`SELECT 1 AS ${quote('found')} FROM ${quote(table)}${where.sql} LIMIT 1`, where.params)).length > 0;
}

function inFieldOrder(errors: FieldErrors, fields: CompiledField[], prefix: string): FieldErrors {
  const ordered: FieldErrors = {};
  const order = (key: string) => {
    const name = key.slice(prefix.length).split('.')[0];
    const index = fields.findIndex(({ field }) => field.name === name);
    return index < 0 ? fields.length : index;
  };
  for (const key of Object.keys(errors).sort((a, b) => order(a) - order(b))) ordered[key] = errors[key]!;
  return ordered;
}
