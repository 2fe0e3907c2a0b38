// How the process's heap grows under load. Set here rather than on the command line so that every
// way of starting the server (npm start, npm run dev, node --import tsx src/main.ts) runs the same;
// a flag given to node (on its command line or in NODE_OPTIONS) wins.
//
// Old generation: after each full collection V8 lets it grow to up to 4× what survived before
// collecting again. Under a steady load of short requests that is mostly garbage, promoted young
// while requests waited for the database (a MariaDB create: 40 MB live, the heap at 125 MB before
// the next full collection, 210 MB resident). At 1.5× the process stays near 130 MB at the same
// throughput (full collections run concurrently and took ~10 ms each). The flag is read at each
// collection, so setting it at start-up takes effect.
//
// Young generation: V8 doubles each of its two semi-spaces, up to 16 MB, while objects survive
// scavenges, and a start-up that compiles every definition's schemas gets there: 34 MB resident
// that a request, which allocates ~100 KB and keeps almost nothing, never needs. Semi-spaces of
// 4 MB served the same throughput (show, list and create, A/B) 23 MB smaller. The maximum cannot
// be lowered once V8 runs, but the growth factor is read at each growth. So the young generation
// stays at its initial size while the server starts (~30 ms longer, as start-up grows it in
// synchronous bursts no observer could stop in time), then grows once to the cap under load and
// no further.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;
export const SEMI_SPACE_MB = 4;

const MB = 1024 * 1024;

/** First thing at start-up: the old generation's growth, and the young generation held as it is. */
export function limitHeapGrowth(): void {
  if (!flagGiven('--heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (!flagGiven('--max-semi-space-size')) stopYoungGenerationGrowth();
}

/** Once the server listens: the young generation may grow to SEMI_SPACE_MB per semi-space, in one step. */
export function letYoungGenerationGrowToCap(): void {
  if (flagGiven('--max-semi-space-size')) return;
  const semiSpace = youngGenerationBytes() / 2;
  const factor = Math.floor((SEMI_SPACE_MB * MB) / semiSpace);
  if (factor < 2) return;
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  // Growth happens inside a scavenge, once as many bytes as the young generation holds have
  // survived scavenges since the last growth. The observer hears of each collection at the end of
  // that turn of the event loop: long before, as a turn's requests keep far less than that (a
  // synchronous burst that kept more could grow it one step further).
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() / 2 < SEMI_SPACE_MB * MB) return;
    stopYoungGenerationGrowth();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

function stopYoungGenerationGrowth(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** What the two semi-spaces of the young generation hold reserved, in bytes. */
export function youngGenerationBytes(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size;
  return 0;
}

function flagGiven(flag: string): boolean {
  const given = (arg: string) => arg.startsWith(flag) || arg.startsWith(flag.replaceAll('-', '_').replace('__', '--'));
  return process.execArgv.some(given) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).some(given);
}
