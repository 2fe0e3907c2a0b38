// GET /health for load balancers: 200 while the database answers, 503 otherwise. No token.
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { databaseAnswers } from './db.ts';

export function registerHealth(app: FastifyInstance, knex: Knex): void {
  app.get('/health', { config: { rateLimit: false } }, async (_request, reply) => {
    if (await databaseAnswers(knex)) return reply.send({ status: 'ok' });
    return reply.code(503).send({ status: 'unavailable', message: 'The database does not answer.' });
  });
}
