// What the engine makes of resources/: every definition as the registry resolves it (shared parts
// merged, implied references filled in, defaults applied), compared with the committed snapshot.
// Routes, validation, make:migration, the API reference and the definition-driven suite all read
// these resolved definitions, so a change to how definitions are written that keeps this snapshot
// keeps all of them. A deliberate change: UPDATE_SNAPSHOT=1 npm test -- resolved-definitions.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadResources } from '../../src/app/build-app.ts';

const SNAPSHOT = fileURLToPath(new URL('./resolved-definitions.snapshot.json', import.meta.url));

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

const test = suite('resolved definitions');

test('every definition resolves as the snapshot says', () => {
  const resolved = plain(
    Object.fromEntries(
      loadResources()
        .all()
        .map((def) => [def.name, def]),
    ),
  );
  const text = `${JSON.stringify(resolved, null, 1)}\n`;
  if (process.env.UPDATE_SNAPSHOT === '1') writeFileSync(SNAPSHOT, text);
  const expected = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
  assert.ok(Object.keys(expected).length >= 50, 'the snapshot holds the registry');
  for (const name of Object.keys(expected)) assert.equal((resolved as Record<string, unknown>)[name], expected[name], name);
  assert.equal(Object.keys(resolved as object).sort(), Object.keys(expected).sort(), 'the same resources');
});

test.run();
