// `npm start`: the compiled sources as they are now (scripts/build.mjs compiles them when they
// changed), run in this process so that the node flags `npm start` gives apply to the server.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from './build.mjs';

let folder;
try {
  folder = await build({ user: process.pid });
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
await import(pathToFileURL(join(folder, 'src/main.js')).href);
