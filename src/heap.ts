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
// that a SQLite request, which allocates ~100 KB and keeps almost nothing, never needs. Under a
// load that does need it (50 lists in flight on MariaDB, each holding its rows while it waits),
// V8 grows it again, and must: capped at 4 MB the same list served 20 % fewer requests, its
// records promoted to the old generation. So the young generation keeps its initial size while
// the server starts (~30 ms longer) and grows as V8 decides once it listens. The growth factor
// is read at each growth, so setting it at run time takes effect.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;
/** V8's own growth factor of the young generation. */
const SEMI_SPACE_GROWTH_FACTOR = 2;

/** First thing at start-up: the old generation's growth, and the young generation held as it is. */
export function limitHeapGrowth(): void {
  if (!flagGiven('--heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (!flagGiven('--semi-space-growth-factor')) stopYoungGenerationGrowth();
}

/** Once the server listens: the young generation grows as V8 decides. */
export function letYoungGenerationGrow(): void {
  if (!flagGiven('--semi-space-growth-factor')) setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
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
