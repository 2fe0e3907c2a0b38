// Validates a create or update body against the definition: shape first (compiled TypeBox
// schemas, built at boot), then references and uniqueness against the database. Every problem
// is collected so the client sees them all in one 422; nothing is written when any is found.
// Nested records (order lines, moves) are validated with their own resource's fields, and their
// errors are named like `lines.0.product_id`. An action's body (`body:` in its definition) is
// validated the same way, its lists' entries with their own fields (`moves.0.quantity`).
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import type { ScopeValue } from '../definition/format.ts';
import type { Registry } from '../definition/registry.ts';
import { ownScope, scopeTest } from '../definition/scope.ts';
import type { FieldDef, FieldSet, ResourceDef } from '../definition/types.ts';
import { ValidationError, BadRequestError, type FieldErrors } from '../errors/http-errors.ts';
import { boundedField, type SchemaBounds } from '../schema/column-bounds.ts';
import { fieldInputSchema } from '../schema/field-schema.ts';
import { writableFields } from '../schema/body-schemas.ts';
import { describeInvalid, messages } from './messages.ts';
import { compared, differsFrom, equals, isNull } from '../sql/conditions.ts';
import { idsAmong, rowsByKey, idsWhere, someRow } from '../sql/key-reads.ts';
import { quote, type Condition } from '../sql/quote.ts';
import type { Statements } from '../sql/statements.ts';
import { resourceRows } from '../sql/resource-rows.ts';
import { conditionsInBody } from '../definition/value-rules.ts';
import { storedTimestampOf } from '../serialize/value-formats.ts';

export type Mode = 'create' | 'update';

/** What a validator is compiled for: a resource, or an action's body (fields alone: no table, relations or scope). */
export type Validated = FieldSet & Partial<Pick<ResourceDef, 'table' | 'relations' | 'scope' | 'softDelete'>>;
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
  conditions?: Record<string, ScopeValue>;
  /** records: the related resource and the column pointing back at this record. */
  nested?: { def: ResourceDef; foreignKey: string };
}

export interface ValidateOptions {
  mode: Mode;
  /** The record being updated. */
  id?: number;
  /** For nested entries: `lines.0.`, prefixed to error keys and labels. */
  prefix?: string;
  /** References the request already proved to exist (field → id: the parent the path names): not looked up again. */
  known?: Record<string, number>;
}

/** One body to validate. */
interface Input {
  body: unknown;
  mode: Mode;
  id?: number;
  prefix?: string;
  known?: Record<string, number>;
}

/** A body once validated: its values and its errors (keys prefixed), with the helpers that name them. */
interface Checked {
  values: Values;
  errors: FieldErrors;
  prefix: string;
  mode: Mode;
  id?: number;
  known?: Record<string, number>;
  input: Record<string, unknown>;
  named(field: FieldDef): FieldDef;
  fail(field: FieldDef, message: string, key?: string): void;
}

export interface BodyValidator {
  validate(body: unknown, statements: Statements, options: ValidateOptions): Promise<Values>;
  validateMany(inputs: Input[], statements: Statements): Promise<Checked[]>;
}

const compiled = new WeakMap<Validated, BodyValidator>();

/** The validator of a resource's bodies (or an action's), with each field bounded by its column when the schema is known. */
export function compileBodyValidator(def: Validated, registry: Registry, bounds?: SchemaBounds): BodyValidator {
  const cached = compiled.get(def);
  if (cached) return cached;
  const validator = buildValidator(def, registry, bounds);
  compiled.set(def, validator);
  return validator;
}

function buildValidator(def: Validated, registry: Registry, bounds: SchemaBounds | undefined): BodyValidator {
  const columns = def.table === undefined ? undefined : bounds?.get(def.table);
  const fields: CompiledField[] = writableFields(def).map((declared) => {
    // An action body's field taken `like` a resource's is bounded by what that column stores, null or not.
    const field = declared.column
      ? { ...boundedField({ ...declared, stored: true }, bounds?.get(declared.column.table)?.get(declared.column.name)), stored: false, nullable: declared.nullable }
      : boundedField(declared, columns?.get(declared.name));
    const relation = field.relation ? def.relations?.get(field.relation) : undefined;
    const targetName = field.references ?? (field.type === 'ids' ? relation?.resource : undefined);
    const target = targetName ? registry.get(targetName) : undefined;
    return {
      field,
      check: TypeCompiler.Compile(fieldInputSchema(field)),
      target,
      conditions: { ...scopeThrough(def, field.name), ...conditionsInBody(field) },
      nested: field.type === 'records' && relation ? { def: registry.get(relation.resource), foreignKey: relation.foreignKey } : undefined,
    };
  });
  // The fields a value of which the database has to confirm (a reference, a unique value, nested
  // records); chosen here so that a request does not pass the others through the checks below.
  const checkedInDatabase = fields.filter(({ field, target, nested }) => target || nested || field.unique || field.entries);
  // Pairs of fields that may not both be given (a due date or a payment term), paired once here.
  const exclusive = fields.flatMap(({ field }) => {
    const other = field.excludes ? def.fields.get(field.excludes) : undefined;
    return other ? [{ field, other }] : [];
  });
  // Ends of ranges whose start may be sent alone (an agreement's end date), paired once here.
  const notBefore = fields.flatMap(({ field }) => {
    const start = field.notBefore ? def.fields.get(field.notBefore) : undefined;
    return start ? [{ start, end: field }] : [];
  });
  // Date ranges (a project's start and end dates), paired once here.
  const ranges = fields.flatMap(({ field }) => {
    const end = field.until ? def.fields.get(field.until) : undefined;
    return end ? [{ start: field, end }] : [];
  });

  /** Validates bodies side by side: each database check runs once for all of them (a 50-line order: one query per reference). */
  const validateMany = async (inputs: Input[], statements: Statements): Promise<Checked[]> => {
    const checked = inputs.map((input) => checkShape(input));
    await Promise.all(
      checkedInDatabase.map(async ({ field, target, nested, conditions }) => {
        const present = checked.filter((entry) => entry.values[field.name] != null && !entry.errors[`${entry.prefix}${field.name}`]);
        if (present.length === 0) return;
        if (field.type === 'ids' && target) {
          const keys = present.flatMap((entry) => entry.values[field.name] as Array<number | string>);
          const { byKey } = await resolveIds(statements, registry, target, keys, field.by);
          for (const entry of present) {
            const sent = entry.values[field.name] as Array<number | string>;
            const named = new Set<number | string>(); // a missing id sent several times is named once
            sent.forEach((key, index) => {
              if (!byKey.has(key) && !named.has(key) && named.add(key))
                entry.fail(field, messages.notFound(entry.named({ ...field, label: `${field.label}.${index}` })), `${field.name}.${index}`);
            });
            entry.values[field.name] = [...new Set(sent.flatMap((key) => byKey.get(key) ?? []))];
          }
        } else if (nested) {
          await validateNested(nested, present, field, statements, registry, bounds);
        } else if (field.entries) {
          await validateEntries(field.entries, present, field, statements, registry, bounds);
        } else if (target) {
          // A reference the request already proved (the path's parent) needs no query, unless this field asks more of it.
          const proven = (entry: Checked) => Object.keys(conditions ?? {}).length === 0 && entry.known?.[field.name] === Number(entry.values[field.name]);
          const unproven = present.filter((entry) => !proven(entry));
          if (unproven.length === 0) return;
          const found = await existing(
            statements,
            registry,
            target,
            unproven.map((entry) => entry.values[field.name]),
            conditions,
          );
          for (const entry of unproven) if (!found.has(Number(entry.values[field.name]))) entry.fail(field, messages.notFound(entry.named(field)));
        } else if (field.unique) {
          // `live`: a trashed row does not hold the value (it may be used again while the row is in the trash).
          const live = field.unique === 'live' && def.softDelete === true;
          for (const entry of present) {
            if (await taken(statements, def.table!, field.name, entry.values[field.name], entry.id, live)) entry.fail(field, messages.taken(entry.named(field)));
          }
        }
      }),
    );
    return checked;
  };

  /** The fields' types and rules, without the database. */
  const checkShape = ({ body, mode, id, prefix = '', known }: Input): Checked => {
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
        if (mode === 'create' && field.required) fail(field, messages.required(shown));
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
      // Ids sent twice count once: the bound is on distinct records.
      if (field.type === 'ids' && field.maxItems !== undefined && new Set(value as unknown[]).size > field.maxItems) {
        fail(field, messages.maxItems(shown));
        continue;
      }
      const stored = coerce(field, value);
      if (field.maxBytes !== undefined && typeof stored === 'string' && Buffer.byteLength(stored) > field.maxBytes) {
        fail(field, messages.maxBytes(shown));
        continue;
      }
      values[field.name] = stored;
    }
    for (const { field, other } of exclusive) {
      if (values[field.name] != null && values[other.name] != null && !errors[`${prefix}${field.name}`]) fail(field, messages.excludes(named(field), named(other)));
    }
    for (const { start, end } of ranges) {
      if (errors[`${prefix}${start.name}`] || errors[`${prefix}${end.name}`]) continue;
      const [from, to] = [values[start.name], values[end.name]];
      if (from != null && to == null) fail(end, messages.requiredWith(named(end), named(start)));
      else if (from == null && to != null) fail(start, messages.requiredWith(named(start), named(end)));
      else if (from != null && to != null && String(from) > String(to)) {
        fail(start, messages.beforeOrEqual(named(start), named(end)));
        fail(end, messages.afterOrEqual(named(end), named(start)));
      }
    }
    for (const { start, end } of notBefore) {
      const [from, to] = [values[start.name], values[end.name]];
      if (from != null && to != null && String(to) < String(from) && !errors[`${prefix}${end.name}`]) fail(end, messages.afterOrEqual(named(end), named(start)));
    }
    return { values, errors, prefix, mode, id, known, input, named, fail };
  };

  const validator: BodyValidator = {
    async validate(body, statements, options) {
      const [checked] = await validateMany([{ body, mode: options.mode, id: options.id, prefix: options.prefix, known: options.known }], statements);
      if (Object.keys(checked!.errors).length > 0) throw new ValidationError(inFieldOrder(checked!.errors, fields, checked!.prefix));
      return checked!.values;
    },
    validateMany,
  };
  return validator;
}

/**
 * The entries of a `records` field, for every body at once. Entries with the id of one of their
 * record's children update it; the others are new children (an id of somebody else's child is
 * ignored). Errors are added under `<field>.<index>.<name>`.
 */
async function validateNested(
  nested: NonNullable<CompiledField['nested']>,
  owners: Checked[],
  field: FieldDef,
  statements: Statements,
  registry: Registry,
  bounds: SchemaBounds | undefined,
): Promise<void> {
  const validator = compileBodyValidator(nested.def, registry, bounds);
  const inputs: Input[] = [];
  const placed: Array<{ owner: Checked; id?: number }> = [];
  for (const owner of owners) {
    const owned = new Set<number>();
    if (owner.mode === 'update' && owner.id !== undefined) {
      const children = [
        equals(quote(nested.foreignKey), owner.id),
        // Children of this kind only: a document's product lines, not the lines computed from them.
        ...Object.entries(ownScope(nested.def)).map(([column, value]) => equals(quote(column), value)),
        ...(nested.def.softDelete ? [isNull(quote('deleted_at'))] : []),
      ];
      for (const id of await idsWhere(statements, nested.def.table, children)) owned.add(id);
    }
    for (const [index, entry] of (owner.values[field.name] as unknown[]).entries()) {
      const rawId = entry && typeof entry === 'object' ? (entry as Record<string, unknown>).id : undefined;
      const id = typeof rawId === 'number' && owned.has(rawId) ? rawId : undefined;
      inputs.push({ body: entry, mode: id === undefined ? 'create' : 'update', id, prefix: `${owner.prefix}${field.name}.${index}.` });
      placed.push({ owner, id });
    }
  }
  const checked = await validator.validateMany(inputs, statements);
  const entries = new Map<Checked, NestedEntry[]>(owners.map((owner) => [owner, []]));
  checked.forEach((child, index) => {
    const { owner, id } = placed[index]!;
    Object.assign(owner.errors, child.errors);
    entries.get(owner)!.push({ id, values: child.values });
  });
  for (const owner of owners) owner.values[field.name] = entries.get(owner);
}

/** The entries of an action body's list, for every body at once, each with the list's own fields; errors are added under `<field>.<index>.<name>`. */
async function validateEntries(entries: FieldSet, owners: Checked[], field: FieldDef, statements: Statements, registry: Registry, bounds: SchemaBounds | undefined): Promise<void> {
  const placed = owners.flatMap((owner) =>
    (owner.values[field.name] as unknown[]).map((body, index) => ({ owner, input: { body, mode: 'create' as const, prefix: `${owner.prefix}${field.name}.${index}.` } })),
  );
  const checked = await compileBodyValidator(entries, registry, bounds).validateMany(
    placed.map(({ input }) => input),
    statements,
  );
  for (const owner of owners) owner.values[field.name] = [];
  checked.forEach((entry, index) => {
    const { owner } = placed[index]!;
    Object.assign(owner.errors, entry.errors);
    (owner.values[field.name] as Values[]).push(entry.values);
  });
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
  if (field.type === 'datetime') return storedTimestampOf(value as string);
  if (field.type === 'ids') return value; // deduplicated once resolved to ids
  return value;
}

/** Rows a reference may point at: not trashed, inside the target's scope. */
function liveRows(registry: Registry, target: ResourceDef): Condition[] {
  return resourceRows(target, registry, {});
}

/** Which of these ids name a live record of the target (with the conditions): one query for all. */
async function existing(statements: Statements, registry: Registry, target: ResourceDef, ids: unknown[], conditions: Record<string, ScopeValue> = {}): Promise<Set<number>> {
  const wanted = [...new Set(ids.map(Number))];
  const extra = Object.entries(conditions).map(([column, value]) => {
    const { operator, operand } = scopeTest(value);
    return compared(quote(`${target.table}.${column}`), operator, operand);
  });
  return new Set(await idsAmong(statements, target.table, wanted, [...liveRows(registry, target), ...extra]));
}

/** The scope conditions that go through the relation whose foreign key is this field. */
function scopeThrough(def: Validated, fieldName: string): Record<string, ScopeValue> | undefined {
  const conditions: Record<string, ScopeValue> = {};
  for (const [key, value] of Object.entries(def.scope ?? {})) {
    const [relationName, column] = key.split('.');
    if (column && def.relations?.get(relationName!)?.foreignKey === fieldName) conditions[column] = value;
  }
  return Object.keys(conditions).length > 0 ? conditions : undefined;
}

/** The ids of the records named (by id, or by the `by` column): key → id, for the keys that found one. */
async function resolveIds(statements: Statements, registry: Registry, target: ResourceDef, keys: Array<number | string>, by = 'id') {
  const wanted = [...new Set(keys)];
  if (wanted.length === 0) return { byKey: new Map<number | string, number>() };
  const rows = await rowsByKey(statements, target.table, by, wanted, liveRows(registry, target));
  return { byKey: new Map(rows.map((row) => [by === 'id' ? Number(row.key) : (row.key as string), Number(row.id)] as [number | string, number])) };
}

// Soft-deleted rows count: restoring them must not create a duplicate.
async function taken(statements: Statements, table: string, column: string, value: unknown, id?: number, live = false): Promise<boolean> {
  return someRow(statements, table, [equals(quote(column), value), ...(id !== undefined ? [differsFrom(quote('id'), id)] : []), ...(live ? [isNull(quote('deleted_at'))] : [])]);
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
