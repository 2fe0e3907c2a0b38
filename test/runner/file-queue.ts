// The order in which a run's workers take its files (test/run.ts): the longest first, so that no
// worker is left with a minute-long file once the others are done. The times are those of the
// last run on this checkout (test/.last-run-timings.json); a fresh clone has none, and starts
// with the files known to be long.
import { existsSync, readFileSync } from 'node:fs';

/**
 * Seconds each of these took in a run on both databases (2-core CI host, 2026-12-06), the
 * longest on either: the order on a checkout without its own timings.
 */
const KNOWN_LONG: Record<string, number> = {
  'docs/postman-run.test.ts': 99,
  'conformance/all-resources.test.ts': 82,
  'cluster/cluster.test.ts': 74,
  'docs/guides.test.ts': 55,
  'service/webhooks.test.ts': 40,
  'service/cli.test.ts': 31,
  'service/start-together.test.ts': 26,
  'service/change-feed.test.ts': 25,
  'service/import-cli.test.ts': 23,
  'service/processes.test.ts': 23,
  'resources/products/attribute-values-migration.test.ts': 23,
  'conformance/hostile-input.test.ts': 19,
  'engine/transfer/xlsx-stream.test.ts': 16,
  'docs/openapi-typescript.test.ts': 11,
  'docs/openapi.test.ts': 11,
  'service/operability.test.ts': 9,
  'service/change-feed-replica.test.ts': 9,
  'service/boot-modules.test.ts': 8,
  'docs/typed-client.test.ts': 7,
};

/** Seconds `file` (relative to test/) is expected to take on `database`: its last time there, else the known ones. */
export function expectedSeconds(timingsFile: string): (file: string, database: string) => number {
  let last: Record<string, number> = {};
  if (existsSync(timingsFile)) {
    try {
      last = JSON.parse(readFileSync(timingsFile, 'utf8')).files ?? {};
    } catch {
      // A file cut short (a run stopped while writing it) orders nothing.
    }
  }
  return (file, database) => {
    const ms = last[`${database}:${file}`];
    return ms === undefined ? (KNOWN_LONG[file] ?? 0) : ms / 1000;
  };
}

/** `files` longest first by `seconds` (a stable sort: files of equal time keep their order). */
export function longestFirst(files: readonly string[], seconds: (file: string) => number): string[] {
  return [...files].sort((a, b) => seconds(b) - seconds(a));
}
