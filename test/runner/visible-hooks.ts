// uvu as the test files import it (./uvu-hooks.mjs redirects 'uvu' here), with one difference:
// when a suite's `before` hook throws, uvu counts all its tests as failed without printing why
// (its runner returns from a `finally`), and a process running the file alone exits 0; here the
// error is printed, naming the suite, and the process fails.
import { suite as uvuSuite } from 'uvu';

export * from 'uvu';

/** uvu sets the exit code from the failures it printed, which leave this one out: set again at exit. */
let beforeFailed = false;
process.on('exit', () => {
  if (beforeFailed) process.exitCode = 1;
});

export function suite<T = any>(name = '', state?: T): ReturnType<typeof uvuSuite<T>> {
  const created = uvuSuite<T>(name, state);
  const before = created.before;
  created.before = Object.assign(
    (hook: (state: any) => unknown) =>
      before(async (context: any) => {
        try {
          await hook(context);
        } catch (error) {
          console.error(`\n${name || 'suite'}: its before hook failed, so none of its tests ran:\n`, error);
          beforeFailed = true;
          throw error;
        }
      }),
    { each: before.each },
  ) as typeof before;
  return created;
}

export const test = suite();
