// docs/api.md is generated from the registry and committed: it must match what the generator
// writes today, so a change to resources/ comes with the regenerated reference.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { anchor } from '../../engine/docs/markdown.ts';
import { resourceNames } from '../../engine/definition/names.ts';
import { routeTable } from '../../engine/definition/route-table.ts';
import { buildApiMarkdown, MARKDOWN_COMMAND, MARKDOWN_FILE } from '../../src/http/api-docs.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';

const registry = loadResources();
const generated = buildApiMarkdown(registry, API_PREFIX);
const test = suite('docs/api.md');

test('is up to date with resources/', () => {
  let committed = '';
  try {
    committed = readFileSync(fileURLToPath(new URL(`../../${MARKDOWN_FILE}`, import.meta.url)), 'utf8');
  } catch {
    assert.unreachable(`${MARKDOWN_FILE} is missing: run \`${MARKDOWN_COMMAND}\` and commit it`);
  }
  if (committed !== generated) {
    const committedLines = committed.split('\n');
    const line = generated.split('\n').findIndex((text, index) => text !== committedLines[index]);
    assert.unreachable(
      `${MARKDOWN_FILE} is stale (first difference at line ${line + 1}): run \`${MARKDOWN_COMMAND}\` and commit the result.\n` +
        `  committed: ${JSON.stringify(committedLines[line] ?? '')}\n  generated: ${JSON.stringify(generated.split('\n')[line] ?? '')}`,
    );
  }
});

test('has a section per module and resource, with every route, field, filter, sort and include', () => {
  const names = resourceNames(registry);
  for (const def of registry.all()) {
    const n = names.get(def.name)!;
    assert.ok(generated.includes(`\n## ${n.module}\n`), `module ${n.module}`);
    const start = generated.indexOf(`\n### ${n.tag}\n`);
    assert.ok(start >= 0, `section ${n.tag}`);
    assert.ok(generated.includes(`(#${anchor(n.tag)})`), `contents link to ${n.tag}`);
    const end = generated.indexOf('\n### ', start + 1);
    const section = generated.slice(start, end < 0 ? undefined : end);
    for (const route of routeTable(def, API_PREFIX)) assert.ok(section.includes(`| ${route.method} | \`${route.path}\` |`), `${def.name}: ${route.method} ${route.path}`);
    for (const field of def.fields.values()) if (field.output || field.writable) assert.ok(section.includes(`| \`${field.name}\` |`), `${def.name}: field ${field.name}`);
    if (def.operations.has('list')) {
      for (const filter of def.filters.keys()) assert.ok(section.includes(`\`filter[${filter}]\``), `${def.name}: filter ${filter}`);
      for (const sort of def.sorts) assert.ok(section.includes(`\`${sort}\``), `${def.name}: sort ${sort}`);
    }
    for (const include of def.allowedIncludes) assert.ok(section.includes(`\`${include}\``), `${def.name}: include ${include}`);
  }
});

test.run();
