// Imported first by test/run.ts (and by any process that runs test files): test files get uvu
// through ./visible-hooks.ts (./uvu-hooks.mjs redirects the import).
import { register } from 'node:module';

register('./uvu-hooks.mjs', import.meta.url);
