// Boot failures on bad structure rules (append, tree): each names the file, the place and the line.
// No database.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DefinitionError, type DefinitionProblem } from '../../engine/definition/definition-error.ts';
import { loadRegistry } from '../../engine/definition/registry.ts';

const test = suite('structure rules in definitions');
const dirs: string[] = [];

// A thing (lines 1-8 of things.yaml), its extra fields from line 9 on.
const THINGS = `table: things
label: Thing
path: /support/things
operations: [list, create, show, update, delete]
fields:
  name: { type: string, maxLength: 100 }
  amount: { type: number }
  parent_id: { type: integer, references: support/things }
`;

function load(files: Record<string, string>): { fixture: (path: string) => string; problems?: DefinitionProblem[] } {
  const dir = mkdtempSync(join(tmpdir(), 'erp-structure-rules-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const fixture = (path: string) => relative(process.cwd(), join(dir, path));
  try {
    loadRegistry(dir, new Set());
    return { fixture };
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return { fixture, problems: error.problems };
  }
}

/** The one problem reported for support/things.yaml with these lines added (fields first, then top-level keys). */
function onlyProblem(fields: string, topLevel = ''): DefinitionProblem {
  const { fixture, problems } = load({ 'support/things.yaml': THINGS + fields + topLevel });
  assert.ok(problems, 'the definitions loaded, but they should have been refused');
  assert.is(problems!.length, 1, JSON.stringify(problems));
  assert.is(problems![0]!.file, fixture('support/things.yaml'));
  return problems![0]!;
}

test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const TREE_FIELDS = `  parent_path: { type: string, readOnly: true }
  full_name: { type: string, readOnly: true }
  kind: { type: string, enum: [view, plain] }
`;
const TREE = `tree:
  parent: parent_id
  path: { field: parent_path, self: true }
  fullName: { field: full_name, from: name, separator: ' / ', nameOnlyWhere: { kind: view } }
  cycleMessage: Not under itself.
`;

test('every key loads when it is used as documented', () => {
  const { problems } = load({ 'support/things.yaml': `${THINGS}  sort: { type: integer, minimum: 0, append: true }\n${TREE_FIELDS}${TREE}` });
  assert.is(problems, undefined, JSON.stringify(problems));
  const { problems: short } = load({ 'support/things.yaml': `${THINGS}${TREE_FIELDS}tree: { parent: parent_id, path: parent_path }\n` });
  assert.is(short, undefined, JSON.stringify(short));
});

test('a tree names stored fields of its resource; the path and full name are read-only text', () => {
  const from = onlyProblem(TREE_FIELDS, TREE.replace('from: name', 'from: nme'));
  assert.equal([from.at, from.line, from.message], ['tree.fullName.from', 15, '"nme" is not a stored field of this resource']);
  const writable = onlyProblem(TREE_FIELDS.replace('parent_path: { type: string, readOnly: true }', 'parent_path: { type: string }'), TREE);
  assert.equal([writable.at, writable.line], ['tree.path', 14]);
  assert.match(writable.message, /"parent_path" is written by the engine: mark it readOnly: true/);
  const unknown = onlyProblem(TREE_FIELDS, `${TREE}  sideways: true\n`);
  assert.match(unknown.message, /unknown key/);
});

test('append needs a stored integer field that is not required', () => {
  const text = onlyProblem('  sort: { type: string, append: true }\n');
  assert.equal([text.at, text.line, text.message], ['fields.sort.append', 9, 'append applies to a stored integer field']);
  const required = onlyProblem('  sort: { type: integer, required: true, append: true }\n');
  assert.equal([required.at, required.line], ['fields.sort.append', 9]);
  assert.match(required.message, /cannot be required/);
});

test.run();
