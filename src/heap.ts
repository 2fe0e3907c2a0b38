// How the process's heap grows under load. After each full collection V8 lets the old generation
// grow to up to 4× what survived before collecting again: under a steady load of short requests
// that is mostly garbage, promoted young while requests waited for the database (a MariaDB
// create: 40 MB live, the heap at 125 MB before the next full collection, 210 MB resident). At
// 1.5× the process stays near 130 MB at the same throughput (full collections run concurrently
// and took ~10 ms each). Set here rather than on the command line so that every way of starting
// the server (npm start, npm run dev, node --import tsx src/main.ts) runs the same; a
// --heap-growing-percent given to node wins. The flag is read at each collection, so setting it
// at start-up takes effect.
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

export function limitHeapGrowth(): void {
  if (process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
