// The migrated schema as each database describes it (SQLite's sqlite_master and PRAGMAs, MySQL's
// information_schema), read at boot and by make:migration: tables, columns, indexes, and the
// foreign keys whose ON DELETE changes other rows.
import type { Knex } from 'knex';
import { dialectOf } from './dialect.ts';

/** Every table of the database (pivot tables included). */
export async function listTables(knex: Knex): Promise<Set<string>> {
  if (dialectOf(knex) === 'sqlite') return new Set(await sqliteTables(knex));
  const [rows] = await knex.raw('SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()');
  return new Set((rows as Array<{ t: string }>).map((row) => row.t));
}

async function sqliteTables(knex: Knex): Promise<string[]> {
  return (await knex('sqlite_master').where('type', 'table').pluck('name')) as string[];
}

/** A column as SQLite declares it (PRAGMA table_info). */
export interface SqliteColumn {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

/** A SQLite table's columns as its migration declared them; none when there is no such table. */
export async function sqliteColumns(knex: Knex, table: string): Promise<SqliteColumn[]> {
  return (await knex.raw('PRAGMA table_info(??)', [table])) as SqliteColumn[];
}

/** A column as information_schema.COLUMNS describes it: table `t`, column `c`, and its type, nullability, length, precision, collation. */
export type MysqlColumn = Record<string, any>;

/** Every column of the MySQL/MariaDB database's tables. */
export async function mysqlColumns(knex: Knex): Promise<MysqlColumn[]> {
  const [rows] = await knex.raw(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS type, COLUMN_TYPE AS columnType, IS_NULLABLE AS nullable,
            CHARACTER_MAXIMUM_LENGTH AS length, NUMERIC_PRECISION AS \`precision\`, NUMERIC_SCALE AS scale, COLLATION_NAME AS \`collation\`
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()`,
  );
  return rows as MysqlColumn[];
}

/** table → the column lists of its indexes. */
export type SchemaIndexes = Map<string, string[][]>;

/** The indexes of these tables, each as its columns in order (primary keys aside). */
export async function readSchemaIndexes(knex: Knex, tables: readonly string[]): Promise<SchemaIndexes> {
  const indexes: SchemaIndexes = new Map(tables.map((table) => [table, []]));
  if (dialectOf(knex) === 'sqlite') {
    for (const table of tables) {
      const list = (await knex.raw('PRAGMA index_list(??)', [table])) as Array<{ name: string; origin: string }>;
      for (const { name, origin } of list) {
        if (origin === 'pk') continue;
        const columns = (await knex.raw('PRAGMA index_info(??)', [name])) as Array<{ seqno: number; name: string }>;
        indexes.get(table)!.push(columns.sort((a, b) => a.seqno - b.seqno).map((column) => column.name));
      }
    }
    return indexes;
  }
  const [rows] = await knex.raw(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, COLUMN_NAME AS c FROM information_schema.STATISTICS
     WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME <> 'PRIMARY' ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  );
  const byName = new Map<string, string[]>();
  for (const row of rows as Array<{ t: string; i: string; c: string }>) {
    if (!indexes.has(row.t)) continue;
    const key = `${row.t}.${row.i}`;
    if (!byName.has(key)) {
      byName.set(key, []);
      indexes.get(row.t)!.push(byName.get(key)!);
    }
    byName.get(key)!.push(row.c);
  }
  return indexes;
}

export interface ForeignKey {
  /** The referencing table and column. */
  table: string;
  column: string;
  /** The table it references. */
  references: string;
  rule: 'SET NULL' | 'CASCADE';
}

/** The foreign keys whose ON DELETE changes other rows. */
export async function readForeignKeys(knex: Knex): Promise<ForeignKey[]> {
  const keys: ForeignKey[] = [];
  const rule = (value: string) => value.toUpperCase() as ForeignKey['rule'];
  if (dialectOf(knex) === 'sqlite') {
    const tables = await sqliteTables(knex);
    for (const table of tables) {
      const rows = (await knex.raw('PRAGMA foreign_key_list(??)', [table])) as Array<{ table: string; from: string; on_delete: string }>;
      for (const row of rows) if (['SET NULL', 'CASCADE'].includes(rule(row.on_delete))) keys.push({ table, column: row.from, references: row.table, rule: rule(row.on_delete) });
    }
    return keys;
  }
  const [rows] = await knex.raw(
    `SELECT k.TABLE_NAME AS t, k.COLUMN_NAME AS c, k.REFERENCED_TABLE_NAME AS r, rc.DELETE_RULE AS rule
     FROM information_schema.KEY_COLUMN_USAGE k
     JOIN information_schema.REFERENTIAL_CONSTRAINTS rc
       ON rc.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND rc.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND rc.TABLE_NAME = k.TABLE_NAME
     WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL AND rc.DELETE_RULE IN ('SET NULL', 'CASCADE')`,
  );
  for (const row of rows as Array<Record<string, string>>) keys.push({ table: row.t!, column: row.c!, references: row.r!, rule: rule(row.rule!) });
  return keys;
}
