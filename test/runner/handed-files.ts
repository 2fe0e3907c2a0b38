// A worker of test/run.ts runs the files its parent hands it, one at a time, as it asks for them:
// the workers of a database share one queue, so that a worker that finishes early takes the next
// file instead of a half waiting for its slowest file. uvu's own `run` imports every file before
// it runs any; here each file is imported and its suites run before the next is asked for.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

declare global {
  var UVU_DEFER: number | undefined;
  var UVU_INDEX: number | undefined;
  var UVU_QUEUE: unknown[][];
}

/** The next file (relative to test/) from the parent, or null when its queue is empty. */
export function askParent(): Promise<string | null> {
  return new Promise((resolve) => {
    process.once('message', (message: { file: string | null }) => resolve(message.file));
    process.send!('next');
  });
}

/**
 * Runs each file `next` gives until it gives null. uvu prints each file's name, its suites and
 * its "Total / Passed / Skipped" as its `run` does (test/run.ts counts and times them from that).
 */
export async function runHandedFiles(next: () => Promise<string | null>): Promise<void> {
  // Set before uvu is first imported: its suites then wait for `exec` instead of running themselves.
  globalThis.UVU_DEFER = 1;
  const uvu = await import('uvu');
  for (let file = await next(); file !== null; file = await next()) {
    globalThis.UVU_QUEUE = [[file]];
    globalThis.UVU_INDEX = 0;
    await import(pathToFileURL(join(process.cwd(), 'test', file)).href);
    await uvu.exec(false);
  }
}
