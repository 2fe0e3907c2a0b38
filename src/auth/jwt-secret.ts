// The JWT signing secret: JWT_SECRET when set; on SQLite otherwise one generated at first start
// and kept beside the database file (so tokens survive a restart); random per process in memory.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Config } from '../app/config.ts';

export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  if (config.database.client !== 'sqlite') throw new Error('JWT_SECRET is required for MySQL'); // loadConfig already refused this
  if (config.database.filename === ':memory:') return randomBytes(48).toString('base64url');
  const file = `${config.database.filename}.jwt-secret`;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
