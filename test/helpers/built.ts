// The compiled sources, as `npm start` runs them (scripts/build.mjs: dist/<hash of the sources>/,
// compiled once for every process of a run, under the build's lock). Tests that start the service
// or the command line as a process run these rather than the sources through tsx, which costs
// each process over a second of CPU to compile what the build compiled once.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let folder: Promise<string> | undefined;

function builtFolder(): Promise<string> {
  folder ??= new Promise((resolve, reject) =>
    execFile(process.execPath, ['scripts/build.mjs'], { cwd: ROOT }, (error, stdout, stderr) =>
      error ? reject(new Error(`the build failed: ${stderr || error.message}`)) : resolve(stdout.trim()),
    ),
  );
  return folder;
}

/** The compiled file of a source (`src/main.ts` → `dist/<hash>/src/main.js`), to run with `node`. */
export async function builtEntry(source: string): Promise<string> {
  return join(await builtFolder(), source.replace(/\.ts$/, '.js'));
}
