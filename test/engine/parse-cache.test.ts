// The definitions' parse cache: an unchanged file is read back from node_modules/.cache, an edited
// one is parsed again, a project without node_modules keeps no cache, and what JSON cannot carry
// is never served from it. No database.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DefinitionProblem } from '../../engine/definition/definition-error.ts';
import { definitionFormats } from '../../engine/definition/definition-formats.ts';
import { loadDefinitionFiles } from '../../engine/definition/load.ts';
import { RULE_KEYS } from '../../engine/keys/index.ts';
import { openParseCache } from '../../engine/definition/parse-cache.ts';

const test = suite('parse cache');
const dirs: string[] = [];

const DEFINITION = `table: things
label: Thing
path: /support/things
operations: [list, show]
fields:
  name: { type: string, required: true, maxLength: 100 }
`;

function project({ nodeModules = true } = {}): { resources: string; cacheFile: string } {
  const root = mkdtempSync(join(tmpdir(), 'parse-cache-'));
  dirs.push(root);
  mkdirSync(join(root, 'resources', 'support'), { recursive: true });
  if (nodeModules) mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'resources', 'support', 'things.yaml'), DEFINITION);
  return { resources: join(root, 'resources'), cacheFile: join(root, 'node_modules', '.cache', 'erp-admin-api', 'definitions.json') };
}

function load(resources: string) {
  const problems: DefinitionProblem[] = [];
  const files = loadDefinitionFiles(resources, definitionFormats(RULE_KEYS), problems);
  return { files, problems };
}

/** Rewrites what the cache holds for every file, to tell a cached answer from a parsed one. */
function tamper(cacheFile: string, change: (raw: any) => void): void {
  const cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
  for (const key of Object.keys(cache.parsed)) {
    const raw = JSON.parse(cache.parsed[key]);
    change(raw);
    cache.parsed[key] = JSON.stringify(raw);
  }
  writeFileSync(cacheFile, JSON.stringify(cache));
}

test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('an unchanged definition is read back from the cache', () => {
  const { resources, cacheFile } = project();
  const first = load(resources);
  assert.equal(first.problems, []);
  assert.ok(existsSync(cacheFile), 'the cache is written');
  tamper(cacheFile, (raw) => {
    raw.label = 'From the cache';
  });
  const second = load(resources);
  assert.is(second.files[0]!.raw.label, 'From the cache');
});

test('an edited definition is parsed again', () => {
  const { resources, cacheFile } = project();
  load(resources);
  tamper(cacheFile, (raw) => {
    raw.label = 'From the cache';
  });
  writeFileSync(join(resources, 'support', 'things.yaml'), DEFINITION.replace('label: Thing', 'label: Edited thing'));
  assert.is(load(resources).files[0]!.raw.label, 'Edited thing');
  assert.is(load(resources).files[0]!.raw.label, 'Edited thing', 'and the cache now holds the edit');
});

test('each start gets its own copy of a cached definition', () => {
  const { resources } = project();
  load(resources);
  const first = load(resources).files[0]!.raw;
  (first as any).label = 'changed by the first';
  assert.is(load(resources).files[0]!.raw.label, 'Thing');
});

test('invalid YAML is reported with its line, cache or not', () => {
  const { resources, cacheFile } = project();
  load(resources);
  writeFileSync(join(resources, 'support', 'things.yaml'), `${DEFINITION}fields: [unclosed\n`);
  const { problems } = load(resources);
  assert.is(problems.length > 0, true);
  assert.match(problems[0]!.message, /^YAML: /);
  assert.ok(problems[0]!.line! >= 7, `line ${problems[0]!.line}`);
  assert.ok(existsSync(cacheFile));
});

test('a value JSON cannot carry (.inf) is never served from the cache', () => {
  const { resources } = project();
  const text = 'limit: .inf\nname: x\n';
  const first = openParseCache(resources);
  assert.equal(first.parse(text), { limit: Number.POSITIVE_INFINITY, name: 'x' });
  first.save();
  // JSON would have given null back.
  assert.equal(openParseCache(resources).parse(text), { limit: Number.POSITIVE_INFINITY, name: 'x' });
});

test('a project without node_modules keeps no cache', () => {
  const { resources, cacheFile } = project({ nodeModules: false });
  assert.equal(load(resources).problems, []);
  assert.not.ok(existsSync(cacheFile));
  assert.not.ok(existsSync(join(resources, '..', 'node_modules')));
});

test('a corrupt cache is ignored and replaced', () => {
  const { resources, cacheFile } = project();
  load(resources);
  writeFileSync(cacheFile, '{ not json');
  assert.is(load(resources).files[0]!.raw.label, 'Thing');
  assert.not.throws(() => JSON.parse(readFileSync(cacheFile, 'utf8')));
});

test.run();
