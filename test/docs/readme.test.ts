// The README is the front door: short enough to read (the walk-throughs live in docs/), and every
// link it and the guides give to a Markdown file leads somewhere, down to the heading.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { anchor } from '../../engine/docs/markdown.ts';

const MAX_README_LINES = 450;
const test = suite('README and docs links');

/** The headings' anchors of a Markdown file, as GitHub makes them. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!.trim())));
}

/** Where the relative links to .md files of a Markdown file lead that is nowhere. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const broken: string[] = [];
  for (const [, target, hash] of text.matchAll(/\]\(((?!https?:)[^)#\s]*\.md)(?:#([^)\s]+))?\)/g)) {
    const path = normalize(join(dirname(file), target!));
    if (!existsSync(path)) broken.push(`${target} (no such file)`);
    else if (hash && !anchors(path).has(hash)) broken.push(`${target}#${hash} (no such heading)`);
  }
  return broken;
}

test('the README’s layout names every folder of engine/', () => {
  const readme = readFileSync('README.md', 'utf8');
  const layout = /## How the code is laid out\n+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const folders = readdirSync('engine', { withFileTypes: true }).filter((entry) => entry.isDirectory());
  assert.ok(folders.length > 10, 'the engine has its folders');
  const unnamed = folders.map((entry) => entry.name).filter((name) => !new RegExp(`(^|[\\s,])(engine/)?${name}/`, 'm').test(layout));
  assert.equal(unnamed, []);
});

test(`the README has at most ${MAX_README_LINES} lines`, () => {
  const lines = readFileSync('README.md', 'utf8').split('\n').length - 1;
  assert.ok(lines <= MAX_README_LINES, `README.md has ${lines} lines: move detail to a guide in docs/`);
});

test('every docs/*.md the README links to exists, with the heading it names', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.ok((readme.match(/\]\(docs\/[^)]+\.md/g) ?? []).length >= 8, 'the README links its guides, the route table and the reference');
  assert.equal(brokenLinks('README.md'), []);
});

test('every Markdown link of docs/*.md leads to a file and heading that exist', () => {
  for (const name of readdirSync('docs').filter((entry) => entry.endsWith('.md'))) assert.equal(brokenLinks(`docs/${name}`), [], `docs/${name}`);
});

test('the quick start commands are the package scripts', () => {
  const readme = readFileSync('README.md', 'utf8');
  const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts;
  assert.ok(readme.includes('npm install && npm start') && scripts.start, 'npm start');
  assert.ok(/^npm test\s/m.test(readme) && scripts.test, 'npm test');
});

test.run();
