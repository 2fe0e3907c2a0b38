// Where SQL and the database's differences may be written, read from the sources (as
// ./layering.test.ts reads the imports): what differs between SQLite and MySQL/MariaDB is asked of
// engine/sql/dialect.ts, so no other file of engine/ or src/ names a driver or asks knex which
// client it uses (the connection factories aside); and the engine's SQL text is written in
// engine/sql/ alone: no other folder of engine/ holds a string that is SQL, or calls knex's
// `.raw()` / `whereRaw()` / `orderByRaw()`... The sources are parsed with TypeScript, so comments
// and messages that mention SELECT or better-sqlite3 do not count, and a literal split by `${}`
// is checked piece by piece.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    return statSync(full).isDirectory() ? sources(full) : entry.endsWith('.ts') ? [full] : [];
  });
}

/** The files that may name a driver: the dialect, and those that open connections (knex's, the prepared statements', the report reads' worker). */
const DRIVER_FILES = new Set(['engine/sql/dialect.ts', 'engine/sql/statements.ts', 'engine/sql/sqlite-read-worker.ts', 'src/database/connection.ts']);
const DRIVER = /\b(?:better-sqlite3|mysql2)\b/;

/**
 * A literal (or a piece of a template between its `${}`) that starts as SQL does: a statement, a
 * clause, a connective, a sort direction. (`DELETE` alone is an HTTP method, `SET NULL` a foreign
 * key's rule: a statement needs more.)
 */
const SQL_START =
  /^\s*\(?\s*(?:(?:SELECT|PRAGMA|WITH|FROM|WHERE|AND|OR|NOT|ORDER BY|GROUP BY|HAVING|LIMIT|OFFSET|JOIN|INNER JOIN|LEFT JOIN|ON|VALUES|CASE|WHEN|THEN|ELSE|END|EXISTS|IN|IS|LIKE|AS|ASC|DESC|FOR UPDATE|LOCK IN SHARE MODE|INSERT INTO|DELETE FROM|REPLACE INTO|CREATE TABLE|ALTER TABLE|DROP TABLE)(?![\w-])|UPDATE\s+\S)/;
/** SQL anywhere in a literal: keywords of a statement, a condition on a binding, SQL functions. */
const SQL_INSIDE =
  /\b(?:SELECT|FROM|WHERE|ORDER BY|GROUP BY|LIMIT|INSERT INTO|DELETE FROM|INNER JOIN|LEFT JOIN|IS NULL|IS NOT NULL|LIKE|ESCAPE|information_schema|sqlite_master)\b|\b(?:COUNT|CONCAT|SUBSTR|LOWER|COALESCE|SUM)\(|\bIN \(|(?:^|\s)(?:=|<>|<=|>=|<|>) \?|^\s*1 = 0\s*$/;
/** knex's (and Objection's) ways of sending SQL text: raw(), whereRaw(), orderByRaw(), joinRaw()... */
const RAW_METHOD = /^(?:raw|[a-z]\w*Raw)$/;

interface Finding {
  file: string;
  line: number;
  text: string;
}

interface Scan {
  drivers: Finding[];
  clientReads: Finding[];
  sql: Finding[];
  raw: Finding[];
}

function scan(file: string): Scan {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Scan = { drivers: [], clientReads: [], sql: [], raw: [] };
  const at = (node: ts.Node, shown: string): Finding => ({
    file: relative(ROOT, file),
    line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
    text: shown.replace(/\s+/g, ' ').trim().slice(0, 120),
  });
  const literal = (node: ts.Node, value: string) => {
    if (DRIVER.test(value)) found.drivers.push(at(node, value));
    if (SQL_START.test(value) || SQL_INSIDE.test(value)) found.sql.push(at(node, value));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literal(node, node.text);
    else if (ts.isTemplateExpression(node)) {
      literal(node.head, node.head.text);
      for (const span of node.templateSpans) literal(span.literal, span.literal.text);
    } else if (ts.isPropertyAccessExpression(node)) {
      // `<x>.client.config`: asking knex which client (or which connection) it has.
      if (node.name.text === 'config' && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'client')
        found.clientReads.push(at(node, node.getText(source)));
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && RAW_METHOD.test(node.expression.name.text)) {
      found.raw.push(at(node, node.getText(source)));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = [...sources(join(ROOT, 'engine')), ...sources(join(ROOT, 'src'))].map((file) => ({ path: relative(ROOT, file), found: scan(file) }));
const inSql = (path: string) => path.startsWith('engine/sql/');
const engineOutsideSql = files.filter(({ path }) => path.startsWith('engine/') && !inSql(path));
const describe = (findings: Finding[]) => findings.map(({ file, line, text }) => `${file}:${line} ${text}`);

const test = suite('SQL boundaries');

test('only the dialect and the connection factories name a driver', () => {
  const named = files.filter(({ path }) => !DRIVER_FILES.has(path)).flatMap(({ found }) => found.drivers);
  assert.equal(describe(named), []);
});

test('only the dialect and the connection factories ask knex which client it is (client.config)', () => {
  const asked = files.filter(({ path }) => !DRIVER_FILES.has(path)).flatMap(({ found }) => found.clientReads);
  assert.equal(describe(asked), []);
});

test('no file of engine/ outside engine/sql/ holds SQL text', () => {
  assert.equal(describe(engineOutsideSql.flatMap(({ found }) => found.sql)), []);
});

test('no file of engine/ outside engine/sql/ sends SQL text through knex (raw, whereRaw, orderByRaw...)', () => {
  assert.equal(describe(engineOutsideSql.flatMap(({ found }) => found.raw)), []);
});

test('it reads the sources, and finds SQL and drivers where they are (the checks cannot pass by reading nothing)', () => {
  assert.ok(files.filter(({ path }) => path.startsWith('engine/')).length > 150, 'engine/ files were read');
  assert.ok(files.filter(({ path }) => path.startsWith('src/')).length > 80, 'src/ files were read');
  assert.ok(engineOutsideSql.length > 120, 'engine/ files outside engine/sql/ were read');
  // The same detectors find what is allowed where it is allowed.
  const withSql = files.filter(({ path, found }) => inSql(path) && found.sql.length > 0).map(({ path }) => path);
  for (const path of ['engine/sql/load-relations.ts', 'engine/sql/resource-rows.ts', 'engine/sql/coalesced-reads.ts', 'engine/sql/update-each.ts'])
    assert.ok(withSql.includes(path), `SQL found in ${path}`);
  assert.ok(withSql.length >= 8, `SQL text found in ${withSql.length} files of engine/sql/`);
  assert.ok(files.filter(({ path, found }) => inSql(path) && found.raw.length > 0).length >= 3, 'raw() calls found in engine/sql/');
  const connection = files.find(({ path }) => path === 'src/database/connection.ts')!;
  assert.equal(new Set(connection.found.drivers.map(({ text }) => text)), new Set(['better-sqlite3', 'mysql2']));
  assert.ok(files.find(({ path }) => path === 'engine/sql/dialect.ts')!.found.clientReads.length > 0, 'the dialect asks knex its client');
});

test.run();
