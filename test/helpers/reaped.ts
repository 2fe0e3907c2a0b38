// Service processes a test starts (a server, `npm start`) outlive a test process that ends without
// stopping them: an assertion that failed before the test's own stop, a worker that crashed. Their
// piped output closed, such a server keeps running and takes the machine's cores from the rest of
// the run (one was found running an hour and a half later). Every process given here is killed
// when this test process exits, if it has not exited by then.
import type { ChildProcess } from 'node:child_process';

const running = new Map<ChildProcess, { group: boolean }>();

process.once('exit', () => {
  for (const [child, { group }] of running) {
    try {
      if (group) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
});

/** Kills `child` (its whole process group when `group`: one started `detached`) if it still runs when this process exits. */
export function reapOnExit(child: ChildProcess, { group = false } = {}): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  running.set(child, { group });
  child.once('exit', () => running.delete(child));
}
