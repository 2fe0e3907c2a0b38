// The YAML parser, loaded on first use: a start-up whose definitions all come from the parse
// cache (parse-cache.ts) does not load it at all (~40 ms and its modules' memory).
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

const require = createRequire(import.meta.url);
let loaded: Yaml | undefined;

export function yaml(): Yaml {
  loaded ??= require('yaml') as Yaml;
  return loaded;
}

export const YAML_VERSION = (require('yaml/package.json') as { version: string }).version;
