// The engine's folders form layers: no folder imports one that imports it back (type imports
// count: a cycle of types is still two folders that cannot be understood apart), no file of the
// engine or the app imports a file that imports it back, and the engine never imports the app
// (src/). Read from the sources, so a new import that closes a loop fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = join(ROOT, 'engine');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    return statSync(full).isDirectory() ? sources(full) : entry.endsWith('.ts') ? [full] : [];
  });
}

/** engine/<folder>/... → folder; a file directly in engine/ → '(engine)'. */
const folderOf = (file: string) => {
  const parts = relative(ENGINE, file).split('/');
  return parts.length > 1 ? parts[0]! : '(engine)';
};

const SRC = join(ROOT, 'src');
/** Every relative import between the files of engine/ and src/. */
const fileImports = new Map<string, string[]>();
for (const file of [...sources(ENGINE), ...sources(SRC)]) {
  fileImports.set(
    file,
    [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(([, specifier]) => normalize(join(dirname(file), specifier!))),
  );
}

/** The groups of files that import each other in a circle (Tarjan's strongly connected components). */
function fileCircles(): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of fileImports.get(file) ?? []) {
      if (!fileImports.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(relative(ROOT, member));
    } while (member !== file);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const file of fileImports.keys()) if (!index.has(file)) visit(file);
  return circles;
}

const edges = new Map<string, Map<string, string>>();
const outside: string[] = [];
const folders = new Set<string>();
for (const file of sources(ENGINE)) {
  folders.add(folderOf(file));
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = normalize(join(dirname(file), specifier!));
    if (!target.startsWith(ENGINE)) {
      if (target.startsWith(ROOT)) outside.push(`${relative(ROOT, file)} imports ${relative(ROOT, target)}`);
      continue;
    }
    const [from, to] = [folderOf(file), folderOf(target)];
    if (from === to || from === '(engine)') continue;
    if (!edges.has(from)) edges.set(from, new Map());
    edges.get(from)!.set(to, relative(ROOT, file));
  }
}

/** A path of folder imports from `start` back to it, if there is one. */
function loopFrom(start: string): string[] | undefined {
  const walk = (at: string, path: string[], seen: Set<string>): string[] | undefined => {
    for (const next of edges.get(at)?.keys() ?? []) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next], seen);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start], new Set());
}

const test = suite('engine layering');

test('the engine imports nothing of the app', () => {
  assert.equal(outside, []);
});

test('no folder of engine/ imports a folder that imports it back', () => {
  const loops = [...edges.keys()].map(loopFrom).filter((loop): loop is string[] => loop !== undefined);
  const described = loops.map((loop) => loop.map((folder, i) => (i === 0 ? folder : `${folder} (${edges.get(loop[i - 1]!)!.get(folder)})`)).join(' → '));
  assert.equal(described, []);
});

test('no file of engine/ or src/ imports a file that imports it back', () => {
  assert.equal(fileCircles(), []);
});

test('it reads the folders and their imports (the check cannot pass by reading nothing)', () => {
  for (const folder of ['definition', 'contract', 'sql', 'routes', 'docs', 'serialize']) assert.ok(folders.has(folder), folder);
  assert.ok([...edges.values()].reduce((sum, targets) => sum + targets.size, 0) > 20, 'imports between folders were found');
  assert.ok([...fileImports.values()].reduce((sum, targets) => sum + targets.length, 0) > 500, 'imports between files were found');
});

test.run();
