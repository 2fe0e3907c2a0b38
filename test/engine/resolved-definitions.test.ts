// What the engine makes of resources/: every definition as the registry resolves it (shared parts
// merged, implied references filled in, defaults applied), compared with the committed snapshot:
// one file per resource, resolved-definitions/<module>/<name>.snapshot.json, so that a change to one
// resource reads as a small diff of its file. Routes, validation, make:migration, the API reference
// and the definition-driven suite all read these resolved definitions, so a change to how
// definitions are written that keeps these snapshots keeps all of them. A deliberate change:
// UPDATE_SNAPSHOT=1 npm test -- resolved-definitions (rewrites them, and removes a stale one).
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadResources } from '../../src/app/build-app.ts';

const SNAPSHOTS = fileURLToPath(new URL('./resolved-definitions', import.meta.url));
const SUFFIX = '.snapshot.json';
const fileOf = (name: string) => join(SNAPSHOTS, `${name}${SUFFIX}`);

/**
 * Plain JSON: a Map as its entries in order (the order of fields, relations, filters and actions is
 * the order of responses and of the reference), a Set as a sorted list, object keys sorted, the file
 * it came from left out, and a filter's field by name (the field itself is among the fields).
 */
function plain(value: unknown): unknown {
  if (value instanceof Map) return [...value].map(([key, inner]) => [key, plain(inner)]);
  if (value instanceof Set) return [...value].map(plain).sort();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([key, inner]) => inner !== undefined && key !== 'file' && key !== 'lineOf')
      .map(([key, inner]) => [key, key === 'field' && inner && typeof inner === 'object' ? (inner as { name: string }).name : inner] as const);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, inner]) => [key, plain(inner)]));
  }
  return value;
}

/** The resources the snapshots hold, by name (`accounts/accounts`), each as its file's text. */
function snapshots(): Map<string, string> {
  const found = new Map<string, string>();
  for (const module of readdirSync(SNAPSHOTS, { withFileTypes: true })) {
    if (!module.isDirectory()) continue;
    for (const file of readdirSync(join(SNAPSHOTS, module.name))) {
      if (file.endsWith(SUFFIX)) found.set(`${module.name}/${file.slice(0, -SUFFIX.length)}`, readFileSync(join(SNAPSHOTS, module.name, file), 'utf8'));
    }
  }
  return found;
}

/** UPDATE_SNAPSHOT=1: writes each resource's file where it changed, and removes the files (and folders) of resources gone. */
function updateSnapshots(texts: Map<string, string>): void {
  mkdirSync(SNAPSHOTS, { recursive: true });
  const before = snapshots();
  for (const [name, text] of texts) {
    if (before.get(name) === text) continue;
    mkdirSync(dirname(fileOf(name)), { recursive: true });
    writeFileSync(fileOf(name), text);
  }
  for (const name of before.keys()) if (!texts.has(name)) rmSync(fileOf(name));
  for (const module of readdirSync(SNAPSHOTS)) if (readdirSync(join(SNAPSHOTS, module)).length === 0) rmdirSync(join(SNAPSHOTS, module));
}

const test = suite('resolved definitions');

test('every definition resolves as its snapshot says', () => {
  const resolved = new Map(
    loadResources()
      .all()
      .map((def) => [def.name, plain(def)] as const),
  );
  const texts = new Map([...resolved].map(([name, def]) => [name, `${JSON.stringify(def, null, 1)}\n`] as const));
  if (process.env.UPDATE_SNAPSHOT === '1') updateSnapshots(texts);
  const expected = snapshots();
  assert.ok(expected.size >= 50, 'the snapshots hold the registry');
  const update = 'a deliberate change: UPDATE_SNAPSHOT=1 npm test -- resolved-definitions';
  const missing = [...resolved.keys()].filter((name) => !expected.has(name)).sort();
  assert.equal(missing, [], `resources without a snapshot (${update})`);
  const extra = [...expected.keys()].filter((name) => !resolved.has(name)).sort();
  assert.equal(extra, [], `snapshots of resources the registry no longer has (${update})`);
  const differing = [...resolved.keys()].filter((name) => expected.get(name) !== texts.get(name)).sort();
  for (const name of differing) {
    assert.equal(
      resolved.get(name),
      JSON.parse(expected.get(name)!),
      `${name} differs from ${relative(process.cwd(), fileOf(name))} (all that differ: ${differing.join(', ')}; ${update})`,
    );
  }
});

test.run();
