// Where the project's own files are, whether this code runs from src/ (tsx, in development and
// tests) or compiled from dist/<hash>/src/ (npm start, scripts/build.mjs): resources/ is read in
// place, not copied.
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** src/ (or dist/<hash>/src/): this file is in src/app/. */
const SRC_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const compiled = basename(dirname(dirname(SRC_DIR))) === 'dist';

export const PROJECT_ROOT = compiled ? dirname(dirname(dirname(SRC_DIR))) : dirname(SRC_DIR);
export const RESOURCES_DIR = join(PROJECT_ROOT, 'resources');
/** The migrations beside this code: TypeScript under tsx, their compiled JavaScript under dist/<hash>/. */
export const MIGRATIONS_DIR = join(dirname(SRC_DIR), 'migrations');
