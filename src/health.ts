// GET /health for load balancers: 200 while the database answers and the process is not
// overloaded, 503 (within 2 s) otherwise, with the pressure it is under. No token.
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { databaseAnswers } from './db.ts';
import { pressureReport } from './pressure.ts';

const HEALTH_TIMEOUT_MS = 2000;

export function registerHealth(app: FastifyInstance, knex: Knex): void {
  app.get('/health', { config: { rateLimit: false } }, async (_request, reply) => {
    const timeout = new Promise<false>((resolve) => setTimeout(resolve, HEALTH_TIMEOUT_MS, false).unref());
    const pressure = pressureReport(app);
    if (!(await Promise.race([databaseAnswers(knex), timeout]))) {
      return reply.code(503).send({ status: 'unavailable', message: 'The database does not answer.', pressure });
    }
    if (pressure.overloaded) return reply.code(503).send({ status: 'overloaded', message: 'The service is overloaded right now.', pressure });
    return reply.send({ status: 'ok', pressure });
  });
}
