// GET /health for load balancers: 200 while the database answers, 503 (within 2 s) otherwise. No token.
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { databaseAnswers } from './db.ts';

const HEALTH_TIMEOUT_MS = 2000;

export function registerHealth(app: FastifyInstance, knex: Knex): void {
  app.get('/health', { config: { rateLimit: false } }, async (_request, reply) => {
    const timeout = new Promise<false>((resolve) => setTimeout(resolve, HEALTH_TIMEOUT_MS, false).unref());
    if (await Promise.race([databaseAnswers(knex), timeout])) return reply.send({ status: 'ok' });
    return reply.code(503).send({ status: 'unavailable', message: 'The database does not answer.' });
  });
}
