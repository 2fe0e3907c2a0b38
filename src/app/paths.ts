// Where the project's own files are, whether this code runs from src/ (tsx, in development and
// tests) or compiled from dist/src/ (npm start): resources/ is read in place, not copied.
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** src/ (or dist/src/): this file is in src/app/. */
const SRC_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const compiled = basename(dirname(SRC_DIR)) === 'dist';

export const PROJECT_ROOT = compiled ? dirname(dirname(SRC_DIR)) : dirname(SRC_DIR);
export const RESOURCES_DIR = join(PROJECT_ROOT, 'resources');
/** The migrations beside this code: TypeScript under tsx, their compiled JavaScript under dist/. */
export const MIGRATIONS_DIR = join(dirname(SRC_DIR), 'migrations');
