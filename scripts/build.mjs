// `npm run build` (and the first step of `npm start`): compiles the TypeScript into
// dist/<hash of its sources>/ and prints that folder. Several processes started at once from one
// checkout must never see another one's build half-written or deleted, so a folder is never
// changed once it exists: it is compiled in a temporary folder and renamed into place whole, and
// the same sources reuse it. Builds take turns under dist/.lock (one compile for N processes);
// under the same lock each start records its process id in the folder it runs (`.users/`) and
// old folders are deleted only when none of the processes recorded in them is alive.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const DIST = join(ROOT, 'dist');
const LOCK = join(DIST, '.lock');
/** What the compiled code depends on: tsconfig.build.json's sources, the settings, the compiler, this script. */
const INPUTS = ['engine', 'src', 'migrations', 'bench/serve.ts', 'tsconfig.json', 'tsconfig.build.json', 'node_modules/typescript/package.json', 'scripts/build.mjs'];
/** A lock its holder stopped touching (it died) is taken over after this long. */
const LOCK_STALE_MS = 30_000;
const LOCK_TOUCH_MS = 5_000;
const LOCK_WAIT_MS = 10 * 60_000;
const USERS = '.users';
/** The argument that makes this script the child that transpiles. */
const TRANSPILE = '--transpile-into';

/** The folder holding the compiled sources as they are now (built if needed); `user` records a process that runs from it. */
export async function build({ user } = {}) {
  mkdirSync(DIST, { recursive: true });
  const hash = sourcesHash();
  const folder = join(DIST, hash);
  await withLock(async () => {
    if (!existsSync(folder)) await compileInto(folder);
    if (user !== undefined) {
      mkdirSync(join(folder, USERS), { recursive: true });
      writeFileSync(join(folder, USERS, String(user)), '');
    }
    prune(hash);
  });
  return folder;
}

function sourcesHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(join(ROOT, input))).sort()) {
    hash.update(`${relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function filesUnder(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => filesUnder(join(path, entry.name)));
}

/**
 * Transpiles each file on its own (types are `npm run typecheck`'s job, as under `npm run dev`):
 * a few seconds instead of the minute a checking compile takes on a small machine, which every
 * first `npm start` of a change waited for. It runs in a child process, so that the compiler's
 * ~100 MB never stay in the server's heap. The settings are tsconfig.build.json's.
 */
async function compileInto(folder) {
  const temporary = join(DIST, `.build-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const args = [fileURLToPath(import.meta.url), TRANSPILE, temporary];
    const code = await new Promise((resolve) => spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] }).once('exit', resolve));
    if (code !== 0) throw new Error(`the sources could not be translated (exit ${code}); dist/ is unchanged`);
    renameSync(temporary, folder); // whole or not at all: no process sees a folder half-written
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** The child's work: every source of tsconfig.build.json as JavaScript and its source map under `out`. */
function transpileAll(outDir) {
  const ts = createRequire(import.meta.url)(join(ROOT, 'node_modules/typescript'));
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.build.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config || config.errors.length) throw new Error('tsconfig.build.json cannot be read');
  const options = { ...config.options, outDir: undefined, noEmit: false, sourceMap: true };
  for (const file of config.fileNames) {
    const out = join(outDir, relative(ROOT, file)).replace(/\.ts$/, '.js');
    const { outputText, sourceMapText, diagnostics } = ts.transpileModule(readFileSync(file, 'utf8'), { fileName: file, compilerOptions: options, reportDiagnostics: true });
    if (diagnostics?.length) throw new Error(`${relative(ROOT, file)}: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, '\n')}`);
    const map = JSON.parse(sourceMapText);
    map.sources = [relative(dirname(out), file)]; // read from the sources where they are, as tsc's own maps do
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
    writeFileSync(`${out}.map`, JSON.stringify(map));
  }
}

/** Deletes the other folders no live process runs from, and builds that died half-way. */
function prune(current) {
  for (const name of readdirSync(DIST)) {
    if (name === current || name === '.lock') continue;
    const path = join(DIST, name);
    const building = /^\.build-(\d+)-/.exec(name);
    if (building ? isAlive(Number(building[1])) : !/^[0-9a-f]{16}$/.test(name) || usersOf(path).some(isAlive)) continue;
    rmSync(path, { recursive: true, force: true });
  }
  // This folder's own record of processes long gone.
  for (const pid of usersOf(join(DIST, current))) if (!isAlive(pid)) rmSync(join(DIST, current, USERS, String(pid)), { force: true });
}

function usersOf(folder) {
  try {
    return readdirSync(join(folder, USERS)).map(Number);
  } catch {
    return [];
  }
}

function isAlive(pid) {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** dist/.lock, created exclusively; its holder touches it while it works, so a dead holder's lock goes stale. */
async function withLock(work) {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(LOCK, 'wx'));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    if (Date.now() > until) throw new Error(`dist/.lock has been held for over ${LOCK_WAIT_MS / 60_000} minutes; delete it if no build is running`);
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { force: true });
    } catch {} // released meanwhile
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
  }
  const touch = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(LOCK, now, now);
    } catch {}
  }, LOCK_TOUCH_MS);
  try {
    return await work();
  } finally {
    clearInterval(touch);
    rmSync(LOCK, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === TRANSPILE) {
  try {
    transpileAll(process.argv[3]);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  build().then(
    (folder) => console.log(relative(process.cwd(), folder)),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
