// Every guide in docs/ runs as written: on a fresh installation of each database, its requests
// are sent in order and every answer must be what the guide shows (test/helpers/guide.ts says
// how a guide's blocks are read). A guide that drifts from the service fails here, naming its
// line.
import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp } from '../helpers/app.ts';
import { parseGuide, replayExchange, runProgram, type Step } from '../helpers/guide.ts';
import { databaseTargets, freshDatabase, inThisRun } from '../helpers/targets.ts';

/** docs/*.md that hold requests to replay (the generated reference and the notes hold none). */
function guideFiles(): string[] {
  return readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((file) => parseGuide(readFileSync(file, 'utf8'), file).length > 0);
}

const guides = guideFiles().map((file) => ({ file, steps: parseGuide(readFileSync(file, 'utf8'), file) }));

const setup = suite('the guides');
setup('the guides linked from the README are the ones replayed here', () => {
  const readme = readFileSync('README.md', 'utf8');
  const linked = [...readme.matchAll(/\]\((docs\/[a-z0-9-]+\.md)\)/g)].map((match) => match[1]!);
  const notGuides = ['docs/api.md', 'docs/routes.md', 'docs/performance.md'];
  const expected = [...new Set(linked.filter((file) => !notGuides.includes(file)))].sort();
  assert.ok(expected.length >= 6, `the README links its guides (found ${expected.join(', ')})`);
  assert.equal(
    guides.map((guide) => guide.file),
    expected,
  );
});
// The same on either database of a run on both (test/run.ts): run in the SQLite workers only.
if (inThisRun('sqlite')) setup.run();

// TEST_GUIDES=<regex of file names> replays only the matching guides.
const only = process.env.TEST_GUIDES ? new RegExp(process.env.TEST_GUIDES) : undefined;
for (const target of databaseTargets()) {
  for (const guide of guides.filter((guide) => !only || only.test(guide.file))) {
    const test = suite(`${guide.file} as written [${target.name}]`);
    test(`its ${guide.steps.length} steps answer what it shows, on a fresh installation`, async () => {
      const slug = guide.file.replace(/^docs\/|\.md$/g, '').replace(/-/g, '_');
      const database = await freshDatabase(target, `guide_${slug}`, { migrated: true });
      const app = await startApp(database.target);
      try {
        await replay(app, guide.steps);
      } finally {
        await app.close();
        await database.drop();
      }
    });
    test.run();
  }
}

async function replay(app: Awaited<ReturnType<typeof startApp>>, steps: Step[]): Promise<void> {
  const vars = new Map<string, unknown>([['TOKEN', await app.login()]]);
  for (const step of steps) {
    if (step.kind === 'exchange') await replayExchange(app.client, step, vars);
    else await runProgram(step, app.client.baseUrl, String(vars.get('TOKEN')));
  }
}
