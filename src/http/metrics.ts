// GET /metrics in Prometheus' text format: requests and their latency per route template and
// status (src/http/request-metrics.ts), rate-limit rejections, the database pool (in use, free,
// waiting), write conflicts run again or given up, and the process's event-loop lag and memory (prom-client's default metrics). With
// METRICS_TOKEN set, it asks for that bearer token; it is never rate limited.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { retryCounts, UnauthenticatedError, type Statements } from '../../engine/index.ts';
import type { Config } from '../app/config.ts';
import { RequestMetrics } from './request-metrics.ts';

export function registerMetrics(app: FastifyInstance, knex: Knex, statements: Statements, config: Config): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestMetrics();
  const rateLimited = new Counter({ name: 'http_rate_limit_rejections_total', help: 'Requests refused with 429 by the rate limit.', registers: [registry] });
  const pool = () => (knex.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
  new Gauge({
    name: 'db_pool_connections_in_use',
    help: "Database connections in use (running a statement, or lent to the engine's statements).",
    registers: [registry],
    collect() {
      this.set(pool()?.numUsed() ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_connections_free',
    help: 'Database connections idle in the pool.',
    registers: [registry],
    collect() {
      this.set(pool()?.numFree() ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_acquires_pending',
    help: 'Requests waiting for a database connection (in the pool, or for a connection lent to statements).',
    registers: [registry],
    collect() {
      this.set((pool()?.numPendingAcquires() ?? 0) + statements.waiting());
    },
  });

  new Counter({
    name: 'db_write_conflicts_retried_total',
    help: 'Units of writing run again after losing a race with a concurrent write (a deadlock, or a Galera certification failure).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(retryCounts.retried);
    },
  });
  new Counter({
    name: 'db_write_conflicts_given_up_total',
    help: 'Units of writing that kept losing races for the whole retry budget (answered 503 with Retry-After).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(retryCounts.gaveUp);
    },
  });

  // A callback hook (no promise per request).
  app.addHook('onResponse', (request, reply, done) => {
    if (request.url !== '/metrics') {
      // The route's template (/support/banks/:id), never the raw URL: one series per route.
      requests.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) rateLimited.inc();
    }
    done();
  });

  app.get('/metrics', { config: { rateLimit: false } }, async (request, reply) => {
    if (config.metricsToken && !sameToken(request.headers.authorization, config.metricsToken)) throw new UnauthenticatedError();
    return reply.header('content-type', registry.contentType).send(requests.render() + (await registry.metrics()));
  });
}

function sameToken(header: string | undefined, token: string): boolean {
  const sent = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
