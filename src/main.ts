// `npm start` (and npm run dev): the process's entry. The heap's limits are set before the
// server's modules load, because loading them is what first grows the heap (see heap.ts).
import { limitHeapGrowth } from './heap.ts';

limitHeapGrowth();
await import('./serve.ts');
