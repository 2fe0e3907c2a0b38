// How much of the business lives in code: per resource definition, the behaviour hook names it
// references (under `behaviours:` and actions' `behaviour:`) and the code lines of src/behaviours/
// they reach, then the totals.
// A hook reference is one mention of a name (a hook run before create and before update is two). `node scripts/behaviour-stats.mjs [--markdown]`.
// Code lines: neither blank nor only comment. A resource's lines are those of the files its hooks
// are defined in and of the behaviour files these import, so a file shared by several resources
// counts for each; the total counts every file of src/behaviours/ once.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const behavioursDir = join(root, 'src/behaviours');
const resourcesDir = join(root, 'resources');

function walk(dir, ending) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path, ending);
    return entry.name.endsWith(ending) ? [path] : [];
  });
}

// Lines with code on them; strings are not parsed, which is enough for this source.
function codeLines(text) {
  let inBlock = false;
  let count = 0;
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (inBlock) {
      const end = line.indexOf('*/');
      if (end < 0) continue;
      inBlock = false;
      line = line.slice(end + 2).trim();
    }
    while (line.startsWith('/*')) {
      const end = line.indexOf('*/', 2);
      if (end < 0) {
        inBlock = true;
        line = '';
        break;
      }
      line = line.slice(end + 2).trim();
    }
    if (line === '' || line.startsWith('//')) continue;
    count++;
  }
  return count;
}

const files = walk(behavioursDir, '.ts');
const sources = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
const lines = new Map(files.map((file) => [file, codeLines(sources.get(file))]));

function importsOf(file) {
  const found = [];
  for (const match of sources.get(file).matchAll(/import\s+(?:type\s+)?(?:\{([^}]*)\}|[\w$]+)?\s*(?:from\s*)?'(\.[^']+)'/g)) {
    const target = resolve(dirname(file), match[2]);
    if (sources.has(target)) found.push({ target, names: match[1] ?? '', type: /^import\s+type/.test(match[0]) });
  }
  return found;
}

// hook name -> the file defining it: index.ts maps names to imported functions; a name index.ts
// takes from a spread object is found as a quoted key in the other files.
const index = join(behavioursDir, 'index.ts');
const identFile = new Map();
for (const { target, names } of importsOf(index)) {
  for (const part of names.split(',')) {
    const ident = part.trim().split(/\s+as\s+/).pop();
    if (ident) identFile.set(ident, target);
  }
}
function fileOfHook(name) {
  const quoted = new RegExp(`'${name.replace(/\./g, '\\.')}'\\s*:\\s*([\\w$]+)`);
  const inIndex = sources.get(index).match(quoted);
  if (inIndex && identFile.has(inIndex[1])) return identFile.get(inIndex[1]);
  for (const file of files) if (file !== index && quoted.test(sources.get(file))) return file;
  return undefined;
}

function reach(start) {
  const seen = new Set();
  const todo = [start];
  while (todo.length > 0) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { target, type } of importsOf(file)) if (!type) todo.push(target);
  }
  return seen;
}

// Every mention, in file order: a hook named for two phases is two references.
function hookReferences(definition) {
  const names = [];
  const phases = definition?.behaviours;
  if (phases && typeof phases === 'object') for (const list of Object.values(phases)) for (const name of [list].flat()) if (typeof name === 'string') names.push(name);
  const actions = definition?.actions;
  if (actions && typeof actions === 'object') for (const action of Object.values(actions)) if (typeof action?.behaviour === 'string') names.push(action.behaviour);
  return names;
}

const rows = [];
const allNames = new Set();
let references = 0;
for (const path of walk(resourcesDir, '.yaml').sort()) {
  const definition = parseDocument(readFileSync(path, 'utf8')).toJS();
  const mentioned = hookReferences(definition);
  if (mentioned.length === 0) continue;
  references += mentioned.length;
  const names = new Set(mentioned);
  const reached = new Set();
  const unknown = [];
  for (const name of names) {
    allNames.add(name);
    const file = fileOfHook(name);
    if (file) for (const f of reach(file)) reached.add(f);
    else unknown.push(name);
  }
  const resource = relative(resourcesDir, path).replace(/\.yaml$/, '');
  rows.push({ resource, references: mentioned.length, hooks: names.size, lines: [...reached].reduce((sum, f) => sum + lines.get(f), 0), names: [...names].sort(), unknown });
}

const totalLines = [...lines.values()].reduce((sum, n) => sum + n, 0);
const markdown = process.argv.includes('--markdown');
if (markdown) {
  console.log('| Resource | Behaviour code lines | Hook references | Hook names |');
  console.log('|---|---:|---:|---|');
  for (const row of rows) console.log(`| ${row.resource} | ${row.lines} | ${row.references} | ${row.names.join(', ')} |`);
  console.log(`| **total** (${rows.length} definitions) | **${totalLines}** | **${references}** | **${allNames.size}** distinct |`);
} else {
  const width = Math.max(...rows.map((row) => row.resource.length));
  for (const row of rows) {
    console.log(`${row.resource.padEnd(width)}  ${String(row.lines).padStart(5)} lines  ${String(row.references).padStart(2)} refs  ${row.names.join(' ')}`);
    if (row.unknown.length > 0) console.log(`${''.padEnd(width)}  not found in src/behaviours: ${row.unknown.join(' ')}`);
  }
  console.log(`\n${rows.length} definitions name a behaviour`);
  console.log(`src/behaviours: ${totalLines} code lines in ${files.length} files`);
  console.log(`hook references: ${references} (${allNames.size} distinct names)`);
}
