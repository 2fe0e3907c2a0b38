// `npm start`: migrate, seed what is missing, and serve the API.
import { DefinitionError } from '../engine/index.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createKnex } from './db.ts';
import { resolveJwtSecret } from './jwt-secret.ts';
import { migrateLatest } from './migrate.ts';
import { seed } from './seed/index.ts';
import { API_PREFIX, buildServer } from './server.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const knex = createKnex(config.database);
  try {
    await migrateLatest(knex);
    const seeded = await seed(knex, config);
    const app = await buildServer({ config, knex, jwtSecret: resolveJwtSecret(config) });
    const shutdown = async () => {
      await app.close();
      await knex.destroy();
      process.exit(0);
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.log(`ERP admin API listening on http://${config.host}:${port}${API_PREFIX}`);
    if (seeded.admin?.generatedPassword) {
      console.log(`Administrator created: ${seeded.admin.email} / ${seeded.admin.generatedPassword}  (shown once; set ADMIN_PASSWORD to choose it)`);
    }
  } catch (error) {
    await knex.destroy();
    throw error;
  }
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DefinitionError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
