// Definition folders written for a test, loaded as the boot loads them: the problems it reports
// (each naming file, place and line), or none. Folders are removed by `removeAll`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { DefinitionError, type DefinitionProblem } from '../../engine/definition/definition-error.ts';
import type { Registry } from '../../engine/definition/registry.ts';
import { loadRegistry } from '../../engine/keys/registry.ts';

export interface LoadedFixture {
  /** A file's path as problems name it. */
  fixture: (path: string) => string;
  /** Undefined when the definitions loaded. */
  problems?: DefinitionProblem[];
  /** The definitions, when they loaded. */
  registry?: Registry;
}

export function definitionFixtures(prefix: string) {
  const dirs: string[] = [];
  return {
    /** Writes `files` (path under resources/ → YAML) into a new folder and loads it. */
    load(files: Record<string, string>): LoadedFixture {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
      dirs.push(dir);
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const fixture = (path: string) => relative(process.cwd(), join(dir, path));
      try {
        return { fixture, registry: loadRegistry(dir, new Set()) };
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        return { fixture, problems: error.problems };
      }
    },
    removeAll(): void {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
