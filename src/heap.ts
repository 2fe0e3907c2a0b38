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
// scavenges. Start-up, which loads ~300 modules and compiles every definition's schemas, gets it
// there in every isolate it runs (with tsx, also the loader's thread): 30-50 MB kept resident
// that a SQLite request, which allocates ~100 KB and keeps almost nothing, never needs. So the
// young generation keeps its initial size while the server starts (~30 ms longer) and grows once
// it listens, as V8 decides but to 8 MB a semi-space: under any steady load of 50 connections V8
// takes it to its own cap, 2 x 16 MB resident, and at 2 x 8 MB the shared bench measured the same
// throughput on its six rows with a peak 10-15 MB lower. Smaller costs throughput: at 4 MB, 50
// lists in flight on MariaDB served 20 % fewer requests, their records promoted to the old
// generation; at 6 MB, 10 % fewer (p99 up to 2.8× p50 against 1.7×) for a peak ~4 MB lower.
// V8 reads its cap only when the heap is set up, so the cap is kept with the growth factor, which
// V8 reads at each growth: after each collection it is set so that the next growth lands at 8 MB
// at most (1 there; V8 shrinks the young generation again when the server idles).
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;
/** What each semi-space of the young generation may grow to once the server listens. */
export const MAX_SEMI_SPACE_MB = 8;
/** V8's own growth factor of the young generation. */
const SEMI_SPACE_GROWTH_FACTOR = 2;
const MB = 1024 * 1024;

/** First thing at start-up: the old generation's growth, and the young generation held as it is. */
export function limitHeapGrowth(): void {
  if (!flagGiven('--heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (!flagGiven('--semi-space-growth-factor')) setGrowthFactor(1);
}

let capObserver: PerformanceObserver | undefined;

/** Once the server listens: the young generation grows as V8 decides, up to `capMb` a semi-space. */
export function letYoungGenerationGrow(capMb = MAX_SEMI_SPACE_MB): void {
  if (flagGiven('--semi-space-growth-factor')) return;
  // A cap given to node is V8's own: then V8's growth as it is.
  if (flagGiven('--max-semi-space-size')) {
    setGrowthFactor(SEMI_SPACE_GROWTH_FACTOR);
    return;
  }
  const keepUnderCap = () => setGrowthFactor(growthFactorUnder(capMb, semiSpaceMegabytes()));
  keepUnderCap();
  if (capObserver) return;
  // One callback per collection (a scavenge every few tens of milliseconds under load): a lookup
  // of the heap spaces and a comparison.
  capObserver = new PerformanceObserver(keepUnderCap);
  capObserver.observe({ entryTypes: ['gc'] });
}

/**
 * The factor of the young generation's next growth from `currentMb` a semi-space: V8's own while
 * it stays under the cap, then the one step that lands on the largest multiple under it. Doubling
 * alone reaches only powers of two: from 1 MB, a 6 MB cap would have stopped at 4 (factor 1 there).
 */
export function growthFactorUnder(capMb: number, currentMb: number): number {
  if (currentMb <= 0) return SEMI_SPACE_GROWTH_FACTOR;
  if (currentMb * SEMI_SPACE_GROWTH_FACTOR * SEMI_SPACE_GROWTH_FACTOR <= capMb) return SEMI_SPACE_GROWTH_FACTOR;
  return Math.max(1, Math.floor(capMb / currentMb));
}

/** The capacity of one semi-space of the young generation, in whole megabytes. */
export function semiSpaceMegabytes(): number {
  for (const space of getHeapSpaceStatistics()) {
    // V8 counts a page header out of each semi-space's capacity: 15.7 of 16 MB.
    if (space.space_name === 'new_space') return Math.round((space.space_used_size + space.space_available_size) / MB);
  }
  return 0;
}

/** What the two semi-spaces of the young generation hold reserved, in bytes. */
export function youngGenerationBytes(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size;
  return 0;
}

let growthFactor = 0;

function setGrowthFactor(factor: number): void {
  if (factor === growthFactor) return;
  growthFactor = factor;
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

function flagGiven(flag: string): boolean {
  const given = (arg: string) => arg.startsWith(flag) || arg.startsWith(flag.replaceAll('-', '_').replace('__', '--'));
  return process.execArgv.some(given) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).some(given);
}
