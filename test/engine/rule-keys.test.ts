// The rule keys with a module of their own (engine/keys/): the loader knows such a key only from
// the list it is given (its meta-schema, normal form and check come with the module), every module's
// step has its place in the write pipeline's order, and a key's words reach the references. No
// database.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DefinitionError } from '../../engine/definition/definition-error.ts';
import { loadDefinitions } from '../../engine/definition/load-registry.ts';
import { RULE_KEYS } from '../../engine/keys/index.ts';
import { WRITE_STEPS } from '../../engine/write/steps.ts';

const test = suite('rule keys');
const dir = mkdtempSync(join(tmpdir(), 'erp-rule-keys-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

mkdirSync(join(dir, 'support'));
writeFileSync(
  join(dir, 'support', 'folders.yaml'),
  `table: folders
label: Folder
path: /support/folders
operations: [list, create, show, update]
fields:
  name: { type: string, maxLength: 100 }
  parent_id: { type: integer, references: support/folders }
  parent_path: { type: string, readOnly: true }
  sort: { type: integer, append: true }
  code: { type: string, maxLength: 20, sequence: { code: support.folder, prefix: F, padding: 3 } }
  archived: { type: boolean }
locks:
  - { when: { name: [Archive] }, forbid: [update], message: The archive folder stays as it is. }
tree: { parent: parent_id, path: parent_path }
search: [name, code]
actions:
  archive: { set: { archived: true }, message: Folder archived. }
`,
);

const problemsWith = (keys: Parameters<typeof loadDefinitions>[1]) => {
  try {
    loadDefinitions(dir, keys, new Set());
    return [];
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return error.problems.map(({ at, message }) => `${at}: ${message}`);
  }
};

test('the loader knows a key only from the modules it is given', () => {
  const problems = problemsWith([]);
  for (const key of ['locks', 'tree', 'search', 'fields.sort.append', 'fields.code.sequence', 'actions.archive.set'])
    assert.ok(
      problems.some((problem) => problem.startsWith(`${key}: unknown key`)),
      `${key}: ${problems.join('; ')}`,
    );
  assert.equal(problemsWith(RULE_KEYS), []);
});

test('each module normalizes its key, and its words reach the field', () => {
  const folders = loadDefinitions(dir, RULE_KEYS, new Set()).get('support/folders');
  assert.equal(folders.tree, { parent: 'parent_id', path: { field: 'parent_path', self: false } });
  assert.is(folders.locks.length, 1);
  assert.equal(folders.fields.get('sort')!.keyWords, ['Last (the highest in its table + 1) when not sent.']);
  assert.equal(folders.search, ['name', 'code']);
  assert.equal(folders.fields.get('code')!.keyWords, ['Numbered when the record is created, without gaps: `F001`, then the next.']);
  assert.is(folders.fields.get('code')!.writable, false, "a number is the engine's to write");
  assert.equal(folders.actions.get('archive')!.set, { archived: true });
  assert.equal(folders.fields.get('parent_path')!.keyWords, ['The ids of the ancestors from the root, between "/" ("/" for a root); kept when `parent_id` changes.']);
});

test('every module with a step has its place in the write pipeline, once', () => {
  for (const key of RULE_KEYS) if (key.step) assert.is(WRITE_STEPS.filter((step) => step === key.step).length, 1, key.key);
  assert.ok(RULE_KEYS.filter((key) => key.step).length >= 3, 'the modules were read');
});

test.run();
