// GET /health for load balancers: 200 while the database answers and the process is not
// overloaded, 503 (within 2 s) otherwise, with the pressure it is under. On a Galera node the
// database answers only while the node is ready: synced and in the primary component (a node cut
// off from the others still answers `SELECT 1`, and refuses every table statement). No token.
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { dialectOf } from '../../engine/index.ts';
import { pressureReport } from './load-shedding.ts';

const HEALTH_TIMEOUT_MS = 2000;

/** What /health says of the database: null while it serves, else why not. */
type DatabaseProblem = string | null;

export function registerHealth(app: FastifyInstance, knex: Knex): void {
  app.get('/health', { config: { rateLimit: false } }, async (_request, reply) => {
    const timeout = new Promise<DatabaseProblem>((resolve) => setTimeout(resolve, HEALTH_TIMEOUT_MS, 'The database does not answer.').unref());
    const pressure = pressureReport(app);
    const problem = await Promise.race([databaseProblem(knex), timeout]);
    if (problem !== null) return reply.code(503).header('retry-after', '5').send({ status: 'unavailable', message: problem, pressure });
    if (pressure.overloaded) return reply.code(503).send({ status: 'overloaded', message: 'The service is overloaded right now.', pressure });
    return reply.send({ status: 'ok', pressure });
  });
}

const GALERA_STATE = `SELECT @@wsrep_on AS wsrep_on, ${['WSREP_READY', 'WSREP_CLUSTER_STATUS', 'WSREP_LOCAL_STATE_COMMENT']
  .map((name) => `(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '${name}') AS ${name.toLowerCase()}`)
  .join(', ')}`;

async function databaseProblem(knex: Knex): Promise<DatabaseProblem> {
  try {
    if (dialectOf(knex) === 'sqlite') {
      await knex.raw('select 1');
      return null;
    }
    const [[node]] = await knex.raw(GALERA_STATE).catch(async (error: { code?: string }) => {
      if (error.code !== 'ER_UNKNOWN_SYSTEM_VARIABLE') throw error;
      await knex.raw('select 1'); // MySQL: no wsrep variables, not a Galera node
      return [[{ wsrep_on: 0 }]];
    });
    if (Number(node.wsrep_on) !== 1) return null;
    if (node.wsrep_ready === 'ON' && node.wsrep_cluster_status === 'Primary' && node.wsrep_local_state_comment === 'Synced') return null;
    return `The database node is not ready (${node.wsrep_cluster_status ?? 'unknown'} component, ${node.wsrep_local_state_comment ?? 'unknown'}).`;
  } catch {
    return 'The database does not answer.';
  }
}
