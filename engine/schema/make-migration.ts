// `erp make:migration`: the knex migration that gives the migrated schema what the definitions
// need and it lacks: missing tables (every stored field, the managed columns, a foreign key and
// index behind every reference, an index behind every filter and sort, the unique indexes, the
// definition's `indexes`), missing columns and declared indexes of existing tables, the words
// column and index of a searched table (its words made again when it searches other fields, and
// taken away when it searches none), and the pivot tables of many-to-many relations. It never
// drops or changes anything else that exists. A nested resource's rows are only ever read one parent
// at a time, through the parent key's index: its filters and sorts get no index of their own,
// which would cost every insert and serve no query. A `sort` column always has one: a record
// created without a sort goes last by the table's MAX(sort) (a field's `append`).
import type { Knex } from 'knex';
import { indexName } from '../definition/indexes.ts';
import { SEARCH_COLUMN } from '../definition/search-words.ts';
import { splitPath } from '../definition/value-rules.ts';
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { listTables, readSchemaBounds, type SchemaBounds } from './column-bounds.ts';
import { hasIndex, readSchemaIndexes, type SchemaIndexes } from './schema-indexes.ts';
import { readSearchColumns } from '../sql/search-index.ts';

const MANAGED = new Set(['id', 'created_at', 'updated_at', 'deleted_at', 'creator_id']);

export interface GeneratedMigration {
  /** Snake-case description for the file name: create_payment_methods. */
  name: string;
  source: string;
}

/** What the migrated database has, as make:migration compares it with the definitions. */
export interface MigratedSchema {
  bounds: SchemaBounds;
  tables: ReadonlySet<string>;
  indexes: SchemaIndexes;
  /** The columns each searched table's stored words were made from (engine/sql/search-index.ts). */
  searchColumns: ReadonlyMap<string, readonly string[]>;
}

export async function readMigratedSchema(knex: Knex, registry: Registry): Promise<MigratedSchema> {
  const tables = await listTables(knex);
  return { bounds: await readSchemaBounds(knex, registry), tables, indexes: await readSchemaIndexes(knex, [...tables]), searchColumns: await readSearchColumns(knex) };
}

/** The migration for every resource (or the one named), or undefined when the schema has all they need. */
export function generateMigration(registry: Registry, { bounds: schema, tables, indexes, searchColumns }: MigratedSchema, only?: string): GeneratedMigration | undefined {
  const defs = registry.all().filter((def) => !only || def.name === only);
  if (only && defs.length === 0) throw new Error(`No resource is named "${only}" (module/name, e.g. support/banks).`);
  const up: string[] = [];
  const down: string[] = [];
  const names: string[] = [];
  const byTable = new Map<string, ResourceDef[]>();
  for (const def of defs) byTable.set(def.table, [...(byTable.get(def.table) ?? []), def]);

  // New tables first, each after the new tables it references (MySQL checks a foreign key's table
  // when the key is made), then the columns new to existing tables, which may reference new tables.
  const creates: Array<{ table: string; up: string; references: Set<string> }> = [];
  const alters: Array<{ up: string; down: string; name: string }> = [];
  for (const [table, sharing] of byTable) {
    const existing = schema.get(table);
    const fields = storedFields(sharing).filter(([name]) => !existing?.has(name));
    if (!existing) {
      const references = new Set(fields.map(([, field]) => referencedTable(field, sharing, registry)).filter((target): target is string => !!target && target !== table));
      creates.push({
        table,
        up: createTable(
          table,
          sharing,
          fields.map(([, field]) => field),
          registry,
        ),
        references,
      });
    } else {
      if (fields.length > 0) {
        const copies = fields.map(([, field]) => relatedFill(table, field, sharing, registry)).filter(Boolean);
        alters.push({
          up: `  await knex.schema.alterTable('${table}', (t) => {\n${fields.map(([, field]) => `    ${column(table, field, sharing, registry)};`).join('\n')}\n  });${copies.length > 0 ? `\n  // The rows stored before get their copies too.\n${copies.join('\n')}` : ''}`,
          down: `  await knex.schema.alterTable('${table}', (t) => {\n${fields.map(([name]) => `    t.dropColumn('${name}');`).join('\n')}\n  });`,
          name: `add_columns_to_${table}`,
        });
      }
      const missing = declaredIndexes(sharing).filter((columns) => !hasIndex(indexes, table, columns));
      if (missing.length > 0) {
        alters.push({
          up: `  await knex.schema.alterTable('${table}', (t) => {\n${missing.map((columns) => `    ${indexLine(table, columns)};`).join('\n')}\n  });`,
          down: `  await knex.schema.alterTable('${table}', (t) => {\n${missing.map((columns) => `    t.dropIndex(${columnList(columns)}, '${indexName(table, columns)}');`).join('\n')}\n  });`,
          name: `add_indexes_to_${table}`,
        });
      }
    }
  }
  for (const create of inReferenceOrder(creates)) {
    up.push(create.up);
    down.push(`  await knex.schema.dropTableIfExists('${create.table}');`);
    names.push(`create_${create.table}`);
  }
  for (const alter of alters) {
    up.push(alter.up);
    down.push(alter.down);
    names.push(alter.name);
  }
  // A searched table's words and their index (engine/sql/search-index.ts), filled for the rows it
  // holds; or, when its definitions search other fields than its words were made from, the words
  // made again (every row's: a search must find the records stored before the change too); or,
  // when none of them searches it any more, its words taken away: no write keeps them, and stale
  // words would be found again if a definition searched the table later.
  const searched: string[] = [];
  for (const [table, sharing] of byTable) {
    const columns = sharing[0]!.searchColumns;
    const hasWords = schema.get(table)?.has(SEARCH_COLUMN) ?? false;
    if (columns.length === 0 && !hasWords) continue;
    const list = `[${columns.map((name) => `'${name}'`).join(', ')}]`;
    const fill = (from: string) => `  await fillSearchWords(knex, '${table}', ${from}, (row) => storedWords(${from}.map((column) => row[column])));`;
    const record = (from: string) => `  await recordSearchColumns(knex, '${table}', ${from});`;
    const before = searchColumns.get(table);
    const old = before && `[${before.map((name) => `'${name}'`).join(', ')}]`;
    if (columns.length === 0) {
      up.push(`  await dropSearchIndex(knex, '${table}');`);
      down.push(
        `  await addSearchIndex(knex, '${table}');\n${old ? `${fill(old)}\n${record(old)}` : `  // The columns ${table}'s words were made from are not recorded: fill them (fillSearchWords) before searching.`}`,
      );
      names.push(`drop_search_from_${table}`);
    } else if (hasWords) {
      if (before && before.join(',') === [...columns].sort().join(',')) continue;
      up.push(`${fill(list)}\n${record(list)}`);
      down.push(old ? `${fill(old)}\n${record(old)}` : `  // The columns ${table}'s words were made from before are not recorded: nothing to undo.`);
      names.push(`search_${table}_by_${columns.join('_')}`);
    } else {
      up.push(`  await addSearchIndex(knex, '${table}');\n${schema.has(table) ? `${fill(list)}\n` : ''}${record(list)}`);
      down.push(`  await dropSearchIndex(knex, '${table}');`);
      // A new table's words are part of making it.
      if (schema.has(table)) names.push(`add_search_to_${table}`);
    }
    searched.push(table);
  }
  for (const def of defs) {
    for (const relation of def.relations.values()) {
      const through = relation.through;
      if (relation.kind !== 'manyToMany' || !through || tables.has(through.table) || names.includes(`create_${through.table}`)) continue;
      const target = registry.get(relation.resource);
      up.push(
        `  await knex.schema.createTable('${through.table}', (t) => {\n` +
          `    foreignId(t, '${through.from}', '${def.table}', 'CASCADE').notNullable();\n` +
          `    foreignId(t, '${through.to}', '${target.table}', 'CASCADE').notNullable();\n` +
          `    t.primary(['${through.from}', '${through.to}']);\n  });`,
      );
      down.unshift(`  await knex.schema.dropTableIfExists('${through.table}');`);
      names.push(`create_${through.table}`);
    }
  }
  if (up.length === 0) return undefined;
  const helpers = ['creator', 'foreignId', 'softDeletes', 'timestamps'].filter((name) => up.some((line) => line.includes(`${name}(t`)));
  const source = [
    `// Generated by \`npm run erp -- make:migration${only ? ` ${only}` : ''}\` from resources/: review it before committing.`,
    `import type { Knex } from 'knex';`,
    ...(helpers.length > 0 ? [`import { ${helpers.join(', ')} } from './helpers.ts';`] : []),
    ...(searched.length > 0 ? [`import { ${engineImports([...up, ...down]).join(', ')} } from '../engine/index.ts';`] : []),
    '',
    'export async function up(knex: Knex): Promise<void> {',
    up.join('\n\n'),
    '}',
    '',
    'export async function down(knex: Knex): Promise<void> {',
    [...down].reverse().join('\n'),
    '}',
    '',
  ].join('\n');
  const name = names.length === 1 ? names[0]! : only ? `for_${only.replace(/[/-]/g, '_')}` : 'for_resources';
  return { name, source };
}

/** What the migration's statements (up and down) call of the engine, in the order an import lists them. */
function engineImports(statements: readonly string[]): string[] {
  return ['addSearchIndex', 'dropSearchIndex', 'fillSearchWords', 'recordSearchColumns', 'storedWords'].filter((name) => statements.some((line) => line.includes(`${name}(`)));
}

/** The stored fields of the definitions sharing a table (the first one's rules where they repeat), managed columns aside. */
function storedFields(defs: ResourceDef[]): Array<[string, FieldDef]> {
  const fields = new Map<string, FieldDef>();
  for (const def of defs) for (const field of def.fields.values()) if (field.stored && !MANAGED.has(field.name) && !fields.has(field.name)) fields.set(field.name, field);
  return [...fields];
}

function createTable(table: string, defs: ResourceDef[], fields: FieldDef[], registry: Registry): string {
  const lines = ["    t.increments('id');", ...fields.map((field) => `    ${column(table, field, defs, registry)};`)];
  if (defs.some((def) => def.creator)) lines.push('    creator(t);');
  const options = nestedOnly(defs) ? ', { indexed: false }' : '';
  if (defs.some((def) => def.timestamps)) lines.push(`    timestamps(t${options});`);
  if (defs.some((def) => def.softDelete)) lines.push(`    softDeletes(t${options});`);
  for (const columns of declaredIndexes(defs)) lines.push(`    ${indexLine(table, columns)};`);
  return `  await knex.schema.createTable('${table}', (t) => {\n${lines.join('\n')}\n  });`;
}

/** Tables to create, each after those of the others it references; a loop keeps its written order. */
function inReferenceOrder<T extends { table: string; references: Set<string> }>(creates: T[]): T[] {
  const pending = new Set(creates.map((create) => create.table));
  const ordered: T[] = [];
  while (ordered.length < creates.length) {
    const ready = creates.filter((create) => pending.has(create.table) && ![...create.references].some((table) => pending.has(table)));
    for (const create of ready.length > 0 ? ready : creates.filter((create) => pending.has(create.table))) {
      ordered.push(create);
      pending.delete(create.table);
    }
  }
  return ordered;
}

/** The resource a column references: its `references`, or the parent of a nested resource's key. */
function referencedResource(field: FieldDef, defs: ResourceDef[], registry: Registry): ResourceDef | undefined {
  if (field.references) return registry.get(field.references);
  const nested = defs.find((def) => def.parent?.foreignKey === field.name);
  return nested ? registry.get(nested.parent!.resource) : undefined;
}

function referencedTable(field: FieldDef, defs: ResourceDef[], registry: Registry): string | undefined {
  return referencedResource(field, defs, registry)?.table;
}

/** One column, as the migrations of this project write them. */
/**
 * A new `related` copy (relation.column) filled for the rows the table holds, from the records
 * their key names: the write pipeline keeps it from then on. A copy from the table itself is left
 * to the author (MySQL cannot update a table from a subquery on it).
 */
function relatedFill(table: string, field: FieldDef, defs: ResourceDef[], registry: Registry): string | undefined {
  if (!field.related) return undefined;
  const def = defs.find((one) => one.fields.get(field.name)?.related === field.related)!;
  const { via, column: source } = splitPath(def, field.related);
  const target = registry.get(def.relations.get(field.related.split('.')[0]!)!.resource).table;
  if (target === table) return `  // Fill ${field.name} (a copy of ${field.related}) for the rows stored before.`;
  return `  await knex('${table}').update({ ${field.name}: knex('${target}').select('${source}').where('${target}.id', knex.ref('${table}.${via}')) });`;
}

function column(table: string, field: FieldDef, defs: ResourceDef[], registry: Registry): string {
  const name = field.name;
  const target = referencedResource(field, defs, registry);
  let builder: string;
  // A declared index that starts with the key serves its lookups (and, on MySQL, its foreign key).
  const keyIndexed = !declaredIndexes(defs).some((columns) => columns[0] === name);
  if (target) builder = keyIndexed ? `foreignId(t, '${name}', '${target.table}')` : `foreignId(t, '${name}', '${target.table}', 'RESTRICT', { indexed: false })`;
  else {
    switch (field.type) {
      case 'integer':
        builder = `t.integer('${name}')`;
        break;
      case 'number':
        builder = `t.double('${name}')`;
        break;
      case 'decimal':
        builder = `t.decimal('${name}', 15, ${field.scale ?? 2})`;
        break;
      case 'boolean':
        builder = `t.boolean('${name}')`;
        break;
      case 'date':
        builder = `t.date('${name}')`;
        break;
      case 'datetime':
        builder = `t.datetime('${name}', { precision: 6 })`;
        break;
      case 'text':
      case 'strings':
        builder = `t.text('${name}')`;
        break;
      default:
        builder = `t.string('${name}', ${field.maxLength ?? 255})`;
    }
  }
  builder += field.required && !field.nullable ? '.notNullable()' : '.nullable()';
  if (field.default !== undefined) builder += `.defaultTo(${JSON.stringify(field.default)})`;
  const filtered = defs.some((def) => [...def.filters.values()].some((filter) => filter.fieldName === name) || def.sorts.includes(name));
  if (field.unique === true) builder += `.unique('${table}_${name}_unique')`;
  else if ((filtered && !target && !nestedOnly(defs)) || name === 'sort') builder += '.index()';
  return builder;
}

/** Every definition on the table is nested under a parent: its rows are read through the parent key. */
function nestedOnly(defs: ResourceDef[]): boolean {
  return defs.every((def) => def.parent !== undefined);
}

/** The `indexes` of the definitions sharing a table, each once. */
function declaredIndexes(defs: ResourceDef[]): Array<readonly string[]> {
  const byName = new Map<string, readonly string[]>();
  for (const def of defs) for (const columns of def.indexes) byName.set(columns.join(','), columns);
  return [...byName.values()];
}

function columnList(columns: readonly string[]): string {
  return `[${columns.map((column) => `'${column}'`).join(', ')}]`;
}

function indexLine(table: string, columns: readonly string[]): string {
  return `t.index(${columnList(columns)}, '${indexName(table, columns)}')`;
}
