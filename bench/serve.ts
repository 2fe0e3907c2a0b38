// A benchmark server: the real service on DATABASE_URL, with the authorization check on, or off
// (BENCH_POLICY=allow-all: every request allowed, every row visible) to measure what it costs.
// Never used in production: `npm start` always runs src/access/policy.ts.
import type { Policy } from '../engine/index.ts';
import { loadConfig } from '../src/app/config.ts';
import { createKnex } from '../src/database/connection.ts';
import { buildServer } from '../src/app/build-app.ts';

const allowAll: Policy = { authorize: () => true, rowScope: () => undefined, checkValues: () => undefined, defaultCompany: () => null };

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000' });
const knex = createKnex(config.database);
const app = await buildServer({ config, knex, jwtSecret: config.jwtSecret!, policy: process.env.BENCH_POLICY === 'allow-all' ? allowAll : undefined });
await app.listen({ port: config.port, host: '127.0.0.1' });
process.send?.('ready');
process.once('SIGTERM', async () => {
  await app.close();
  await knex.destroy();
  process.exit(0);
});
