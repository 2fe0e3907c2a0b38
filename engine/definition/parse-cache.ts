// Parsing the definitions' YAML is most of what reading the registry costs at start-up (~200 ms
// of ~290 ms for 56 files). What a file parses to depends only on its text and on the parser's
// version, so it is kept, as JSON, in node_modules/.cache beside the definitions (the usual
// place for a tool's cache; nothing to commit or clean). Every start still reads each file and
// looks its text up by hash: an edited file is parsed again, and an unchanged one is read back
// with JSON.parse (~10 ms for all). A cache that is missing, unreadable or from another parser
// version is ignored; one that cannot be written is not kept.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { YAML_VERSION, yaml } from './yaml.ts';

const FORMAT = 1;
const PARSER = `yaml ${YAML_VERSION}`;

interface CacheFile {
  format: number;
  parser: string;
  /** sha1 of a file's text → what it parses to, as JSON. */
  parsed: Record<string, string>;
}

export interface ParseCache {
  /** What `text` parses to (YAML.parse; throws as it does on invalid YAML). */
  parse(text: string): unknown;
  /** Writes what was parsed anew, when there was any; keeps only the texts seen this time. */
  save(): void;
}

/** The cache of the definitions in `resourcesDir`; none when the project has no node_modules. */
export function openParseCache(resourcesDir: string): ParseCache {
  const nodeModules = join(resourcesDir, '..', 'node_modules');
  if (!existsSync(nodeModules)) return { parse: parseYaml, save() {} };
  const path = join(nodeModules, '.cache', 'erp-admin-api', 'definitions.json');
  const known = readCache(path);
  const seen: Record<string, string> = {};
  let changed = false;
  return {
    parse(text) {
      const key = createHash('sha1').update(text).digest('hex');
      if (key in known) {
        seen[key] = known[key]!;
        // A fresh copy: the registry may keep or change what it is given.
        return JSON.parse(known[key]!);
      }
      const value = parseYaml(text);
      const json = JSON.stringify(value);
      // Only what JSON gives back unchanged (a YAML .inf or .nan would not be).
      if (json !== undefined && isDeepStrictEqual(JSON.parse(json), value)) seen[key] = json;
      changed = true;
      return value;
    },
    save() {
      if (!changed && Object.keys(seen).length === Object.keys(known).length) return;
      writeCache(path, seen);
    },
  };
}

function parseYaml(text: string): unknown {
  return yaml().parse(text, { prettyErrors: false });
}

function readCache(path: string): Record<string, string> {
  try {
    const cache = JSON.parse(readFileSync(path, 'utf8')) as CacheFile;
    if (cache.format === FORMAT && cache.parser === PARSER && cache.parsed && typeof cache.parsed === 'object') return cache.parsed;
  } catch {
    // Missing or unreadable: parse everything.
  }
  return {};
}

function writeCache(path: string, parsed: Record<string, string>): void {
  const cache: CacheFile = { format: FORMAT, parser: PARSER, parsed };
  try {
    mkdirSync(dirname(path), { recursive: true });
    // Written aside, then renamed: processes starting together never read half a file.
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(cache));
    renameSync(partial, path);
  } catch {
    // A read-only install: start-up parses every time.
  }
}
