// `npm start` and `npm run dev`: migrate and seed what is missing (or wait for the release step to have done it,
// with MIGRATE_ON_START=false), and serve the API. On SIGTERM or SIGINT it stops
// taking connections, lets the requests in flight finish (10 s at most), closes the database
// pool and exits 0.
import { DefinitionError } from '../engine/index.ts';
import { ConfigError, loadConfig } from './app/config.ts';
import { createKnex } from './database/connection.ts';
import { resolveJwtSecret } from './auth/jwt-secret.ts';
import { DatabaseNotPrepared, prepareDatabase, waitForPreparedDatabase } from './database/prepare-database.ts';
import { StartupLockTimeout } from './database/startup-lock.ts';
import { API_PREFIX, buildServer, loadResources } from './app/build-app.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const knex = createKnex(config.database);
  try {
    // Read once: seeding (the permissions) and the server both need the definitions.
    const registry = loadResources();
    // Processes starting together take turns: the reference data and the administrator exist once.
    const seeded = config.migrateOnStart ? await prepareDatabase(knex, config, registry) : await waitForPreparedDatabase(knex, config);
    const app = await buildServer({ config, knex, registry, jwtSecret: resolveJwtSecret(config) });
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down: finishing the requests in flight');
      const timer = setTimeout(() => {
        app.log.warn('requests still running after 10 s: exiting anyway');
        process.exit(1);
      }, SHUTDOWN_TIMEOUT_MS);
      timer.unref();
      await app.close();
      await knex.destroy();
      process.exit(0);
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.log(`ERP admin API listening on http://${config.host}:${port}${API_PREFIX}`);
    if (seeded?.admin?.generatedPassword) {
      console.log(`Administrator created: ${seeded.admin.email} / ${seeded.admin.generatedPassword}  (shown once; set ADMIN_PASSWORD to choose it)`);
    }
  } catch (error) {
    await knex.destroy();
    throw error;
  }
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DefinitionError || error instanceof DatabaseNotPrepared || error instanceof StartupLockTimeout) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
