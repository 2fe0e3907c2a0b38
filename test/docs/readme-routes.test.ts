// The README's route table is the front door's map of the API: every served resource is in it,
// under its module, by its path (parameters written `{id}`), so a resource added without a line
// there fails here.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadResources } from '../../src/app/build-app.ts';

const test = suite('README route table');

/** `| \`/module\` | entries |` rows of the README's "Route table" section, by module. */
function routeTable(): Map<string, string> {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Route table'), readme.indexOf('\n## ', readme.indexOf('## Route table') + 1));
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `\/([a-z-]+)` \| (.+) \|$/gm)) rows.set(match[1]!, match[2]!);
  return rows;
}

test('every served resource is listed under its module by its path', () => {
  const rows = routeTable();
  assert.ok(rows.size > 0, 'the README has a route table');
  const missing: string[] = [];
  for (const def of loadResources().all()) {
    if (def.operations.size + def.actions.size === 0) continue;
    const [, module, ...rest] = def.path.split('/');
    const row = rows.get(module!);
    const relative = rest.join('/').replace(/\{[a-z_]+\}/g, '{id}');
    // A module's own root (the webhook subscriptions at /webhooks) is named in words.
    if (!row || (relative !== '' && !row.includes(`\`${relative}\``))) missing.push(`${def.name} (${def.path})`);
  }
  assert.equal(missing, [], `not in the README's route table: ${missing.join(', ')}`);
});

test.run();
