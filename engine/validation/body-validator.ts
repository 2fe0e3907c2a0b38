// Validates a create or update body against the definition: shape first (compiled TypeBox
// schemas, built at boot), then references and uniqueness against the database. Every problem
// is collected so the client sees them all in one 422; nothing is written when any is found.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import type { Knex } from 'knex';
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { ValidationError, BadRequestError, type FieldErrors } from '../errors/http-errors.ts';
import { fieldInputSchema } from '../schema/field-schema.ts';
import { writableFields } from '../schema/body-schemas.ts';
import { describeInvalid, messages } from './messages.ts';

export type Mode = 'create' | 'update';
export type Values = Record<string, unknown>;

interface CompiledField {
  field: FieldDef;
  check: TypeCheck<TSchema>;
  /** Table of the referenced resource, and whether its trashed rows count as missing. */
  reference?: { table: string; softDelete: boolean };
}

export interface BodyValidator {
  validate(body: unknown, knex: Knex, options: { mode: Mode; id?: number }): Promise<Values>;
}

export function compileBodyValidator(def: ResourceDef, registry: Registry): BodyValidator {
  const fields: CompiledField[] = writableFields(def).map((field) => {
    const target = field.references ? registry.get(field.references) : undefined;
    return {
      field,
      check: TypeCompiler.Compile(fieldInputSchema(field)),
      reference: target && { table: target.table, softDelete: target.softDelete },
    };
  });

  return {
    async validate(body, knex, { mode, id }) {
      if (body === undefined || body === null) body = {};
      if (typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('The request body must be a JSON object.');
      const input = body as Record<string, unknown>;
      const errors: FieldErrors = {};
      const values: Values = {};

      for (const { field, check } of fields) {
        const value = normalizeInput(input[field.name]);
        if (value === undefined) {
          if (mode === 'create' && field.required) errors[field.name] = [messages.required(field)];
          continue;
        }
        if (value === null && field.required) {
          errors[field.name] = [messages.required(field)];
          continue;
        }
        if (!check.Check(value)) {
          errors[field.name] = [describeInvalid(field, value)];
          continue;
        }
        values[field.name] = coerce(field, value);
      }

      await Promise.all(
        fields.map(async ({ field, reference }) => {
          const value = values[field.name];
          if (value === undefined || value === null || errors[field.name]) return;
          if (reference && !(await exists(knex, reference.table, reference.softDelete, value))) {
            errors[field.name] = [messages.notFound(field)];
          } else if (field.unique && (await taken(knex, def.table, field.name, value, id))) {
            errors[field.name] = [messages.taken(field)];
          }
        }),
      );

      if (Object.keys(errors).length > 0) throw new ValidationError(inFieldOrder(errors, fields));
      return values;
    },
  };
}

/** The original trims strings and turns empty strings into null; so do we. */
function normalizeInput(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function coerce(field: FieldDef, value: unknown): unknown {
  if (value === null) return null;
  if (field.type === 'integer' && typeof value === 'string') return Number(value);
  if (field.type === 'boolean') return value === true || value === 1;
  return value;
}

async function exists(knex: Knex, table: string, softDelete: boolean, id: unknown): Promise<boolean> {
  const query = knex(table).where('id', id as number).first('id');
  if (softDelete) query.whereNull('deleted_at');
  return (await query) !== undefined;
}

// Soft-deleted rows count: restoring them must not create a duplicate.
async function taken(knex: Knex, table: string, column: string, value: unknown, id?: number): Promise<boolean> {
  const query = knex(table).where(column, value as string).first('id');
  if (id !== undefined) query.whereNot('id', id);
  return (await query) !== undefined;
}

function inFieldOrder(errors: FieldErrors, fields: CompiledField[]): FieldErrors {
  const ordered: FieldErrors = {};
  for (const { field } of fields) if (errors[field.name]) ordered[field.name] = errors[field.name]!;
  return ordered;
}
