// docs/routes.md, the route table the README points to, is generated from the registry and
// committed: it must match what the generator writes today, list every resource that has routes
// by its path with its operations and actions, and link each to a section of docs/api.md.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { anchor } from '../../engine/docs/markdown.ts';
import { MARKDOWN_COMMAND, MARKDOWN_FILE } from '../../src/http/api-docs.ts';
import { buildRouteTable, ROUTES_FILE } from '../../src/http/route-docs.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';

const registry = loadResources();
const generated = buildRouteTable(registry, API_PREFIX);
const test = suite('docs/routes.md');

test('is up to date with resources/', () => {
  let committed = '';
  try {
    committed = readFileSync(ROUTES_FILE, 'utf8');
  } catch {
    assert.unreachable(`${ROUTES_FILE} is missing: run \`${MARKDOWN_COMMAND}\` and commit it`);
  }
  if (committed !== generated) {
    const committedLines = committed.split('\n');
    const line = generated.split('\n').findIndex((text, index) => text !== committedLines[index]);
    assert.unreachable(
      `${ROUTES_FILE} is stale (first difference at line ${line + 1}): run \`${MARKDOWN_COMMAND}\` and commit the result.\n` +
        `  committed: ${JSON.stringify(committedLines[line] ?? '')}\n  generated: ${JSON.stringify(generated.split('\n')[line] ?? '')}`,
    );
  }
});

test('lists every resource that has routes, by its path, with its operations and actions', () => {
  const rows = new Map<string, string>();
  for (const match of generated.matchAll(/^\| \[[^\]]+\]\([^)]+\) \| `([^`]+)` \| (.+) \|$/gm)) rows.set(match[1]!, match[2]!);
  let served = 0;
  for (const def of registry.all()) {
    if (def.operations.size + def.actions.size === 0) {
      assert.not.ok(rows.has(def.path), `${def.name} has no routes and no row`);
      continue;
    }
    served++;
    const row = rows.get(def.path);
    assert.ok(row, `${def.name} (${def.path}) has a row`);
    for (const operation of def.operations) assert.ok(row!.includes(operation === 'forceDelete' ? 'force delete' : operation), `${def.name}: ${operation}`);
    for (const action of def.actions.keys()) assert.ok(row!.includes(`\`${action}\``), `${def.name}: action ${action}`);
  }
  assert.is(rows.size, served, 'one row per resource');
});

test('links every resource to its section of the Markdown reference', () => {
  const reference = readFileSync(MARKDOWN_FILE, 'utf8');
  const headings = new Set([...reference.matchAll(/^#{2,3} (.+)$/gm)].map((match) => anchor(match[1]!)));
  const links = [...generated.matchAll(/\]\(api\.md#([^)]+)\)/g)].map((match) => match[1]!);
  assert.ok(links.length > 0);
  const broken = links.filter((target) => !headings.has(target));
  assert.equal(broken, [], `links to no heading of ${MARKDOWN_FILE}`);
});

test.run();
