// What each column can store, read from the migrated database at boot: the bounds a field gets
// when its definition says less (an `int` column takes at most 2147483647, a decimal(15,4) at most
// 99999999999.9999, a varchar(255) 255 characters, a NOT NULL column no null). A value outside is
// a 422 naming the field instead of a database error. SQLite keeps the declared types of the
// migrations (`integer`, `varchar(n)`, `text`) and is held to what they mean on MySQL, so that data
// accepted on one database is accepted on the other; its `float` columns and both databases' doubles
// take 15 integer digits (DIGITS_LIMIT).
import type { Knex } from 'knex';
import type { Registry } from '../definition/registry.ts';
import type { FieldDef } from '../definition/types.ts';
import { dialectOf } from '../sql/dialect.ts';
import { mysqlColumns, sqliteColumns, type MysqlColumn } from '../sql/schema-reads.ts';

export { listTables } from '../sql/schema-reads.ts';

export interface ColumnBounds {
  nullable: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** TEXT columns count bytes (UTF-8), not characters. */
  maxBytes?: number;
  /**
   * LIKE on this column ignores case as LOWER() would: a case-insensitive collation (`..._ci`) on
   * MySQL/MariaDB; always on SQLite, whose LIKE and LOWER() both fold ASCII letters only.
   */
  likeIgnoresCase?: boolean;
}

/** table → column → bounds. */
export type SchemaBounds = Map<string, Map<string, ColumnBounds>>;

const INT32 = { minimum: -2147483648, maximum: 2147483647 };
const INTEGERS: Record<string, { minimum: number; maximum: number; unsigned: number }> = {
  tinyint: { minimum: -128, maximum: 127, unsigned: 255 },
  smallint: { minimum: -32768, maximum: 32767, unsigned: 65535 },
  mediumint: { minimum: -8388608, maximum: 8388607, unsigned: 16777215 },
  int: { ...INT32, unsigned: 4294967295 },
  integer: { ...INT32, unsigned: 4294967295 },
  // Beyond 2^53 a JSON number is not exact: bigint columns take what JavaScript can carry.
  bigint: { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, unsigned: Number.MAX_SAFE_INTEGER },
};
const TEXT_BYTES: Record<string, number> = { tinytext: 255, text: 65535, mediumtext: 16777215, longtext: 4294967295 };

export async function readSchemaBounds(knex: Knex, registry: Registry): Promise<SchemaBounds> {
  const tables = [...new Set(registry.all().map((def) => def.table))];
  const bounds: SchemaBounds = new Map();
  if (dialectOf(knex) === 'sqlite') {
    for (const table of tables) {
      const columns = await sqliteColumns(knex, table);
      if (columns.length === 0) continue; // no such table
      bounds.set(table, new Map(columns.map((column) => [column.name, { ...fromDeclaredType(column.type, column.notnull === 0 && column.pk === 0), likeIgnoresCase: true }])));
    }
    return bounds;
  }
  for (const row of await mysqlColumns(knex)) {
    if (!tables.includes(row.t)) continue;
    if (!bounds.has(row.t)) bounds.set(row.t, new Map());
    const column = fromMysqlColumn(row);
    if (typeof row.collation === 'string' && row.collation.endsWith('_ci')) column.likeIgnoresCase = true;
    bounds.get(row.t)!.set(row.c, column);
  }
  return bounds;
}

function fromDeclaredType(declared: string, nullable: boolean): ColumnBounds {
  const type = declared.toLowerCase();
  const length = /^(?:var)?char\((\d+)\)/.exec(type);
  if (length) return { nullable, maxLength: Number(length[1]) };
  if (type in TEXT_BYTES) return { nullable, maxBytes: TEXT_BYTES[type] };
  const integer = INTEGERS[type];
  if (integer) return { nullable, minimum: integer.minimum, maximum: integer.maximum };
  return { nullable };
}

function fromMysqlColumn(row: MysqlColumn): ColumnBounds {
  const nullable = row.nullable === 'YES';
  const type = String(row.type).toLowerCase();
  const unsigned = /unsigned/i.test(String(row.columnType));
  if (type === 'tinyint' && /^tinyint\(1\)/i.test(String(row.columnType))) return { nullable }; // a boolean
  const integer = INTEGERS[type];
  if (integer) return { nullable, minimum: unsigned ? 0 : integer.minimum, maximum: unsigned ? integer.unsigned : integer.maximum };
  if (type === 'decimal') {
    const scale = Number(row.scale ?? 0);
    const largest = Number((10 ** (Number(row.precision) - scale) - 10 ** -scale).toFixed(scale));
    return { nullable, minimum: unsigned ? 0 : -largest, maximum: largest };
  }
  if (type === 'float') return { nullable, minimum: -3.4e38, maximum: 3.4e38 };
  if (type === 'varchar' || type === 'char') return { nullable, maxLength: Number(row.length) };
  if (type in TEXT_BYTES) return { nullable, maxBytes: TEXT_BYTES[type] };
  return { nullable };
}

/**
 * Where its column gives no bound (SQLite's float, either database's double), a decimal or a
 * number keeps to 15 integer digits. A decimal is written back as a fixed-point string, which a
 * double then holds exactly enough; and a grouped total of numbers stays a finite double (past
 * one, MariaDB's SUM answers 0 and SQLite's infinity).
 */
const DIGITS_LIMIT = 1e15 - 1;

/** The field as its column bounds it: the narrower of the definition's rules and the column's. */
export function boundedField(field: FieldDef, column: ColumnBounds | undefined): FieldDef {
  if (!column || !field.stored) return field;
  // A null the engine replaces (`nullMeans`: the default, or not sent) never reaches the column.
  const bounded: FieldDef = { ...field, nullable: field.nullable && (column.nullable || field.nullMeans !== undefined) };
  const numeric = field.type === 'integer' || field.type === 'number' || field.type === 'decimal';
  const unbounded = field.type === 'decimal' || field.type === 'number';
  const maximum = column.maximum ?? (unbounded ? DIGITS_LIMIT : undefined);
  const minimum = column.minimum ?? (unbounded ? -DIGITS_LIMIT : undefined);
  if (numeric && maximum !== undefined) bounded.maximum = Math.min(field.maximum ?? Infinity, maximum);
  if (numeric && minimum !== undefined) bounded.minimum = Math.max(field.minimum ?? -Infinity, minimum);
  if ((field.type === 'string' || field.type === 'text') && column.maxLength !== undefined) bounded.maxLength = Math.min(field.maxLength ?? Infinity, column.maxLength);
  if ((field.type === 'string' || field.type === 'text' || field.type === 'strings') && column.maxBytes !== undefined) bounded.maxBytes = column.maxBytes;
  return bounded;
}

/** Stored fields whose column is missing: a definition the migrations do not match (boot refuses it). */
export function missingColumns(registry: Registry, bounds: SchemaBounds): string[] {
  const problems: string[] = [];
  for (const def of registry.all()) {
    const columns = bounds.get(def.table);
    if (!columns) {
      problems.push(`${def.file}: table "${def.table}" does not exist`);
      continue;
    }
    for (const field of def.fields.values()) {
      if (field.stored && !columns.has(field.name)) problems.push(`${def.file}: fields.${field.name}: no column "${field.name}" in ${def.table}`);
    }
  }
  return problems;
}
