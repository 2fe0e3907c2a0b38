// GET /metrics in Prometheus' text format (prom-client): requests and their latency per route
// template and status, rate-limit rejections, the database pool (in use, free, waiting), and
// the process's event-loop lag and memory (prom-client's default metrics). With METRICS_TOKEN
// set, it asks for that bearer token; it is never rate limited.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HttpError } from '../engine/index.ts';
import type { Config } from './config.ts';

export function registerMetrics(app: FastifyInstance, knex: Knex, config: Config): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'Requests answered, by route template and status.', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer, by route template and status.',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const rateLimited = new Counter({ name: 'http_rate_limit_rejections_total', help: 'Requests refused with 429 by the rate limit.', registers: [registry] });
  const pool = () => (knex.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
  new Gauge({
    name: 'db_pool_connections_in_use',
    help: 'Database connections lent out.',
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
    help: 'Requests waiting for a database connection.',
    registers: [registry],
    collect() {
      this.set(pool()?.numPendingAcquires() ?? 0);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    if (request.url === '/metrics') return;
    // The route's template (/support/banks/:id), never the raw URL: one series per route.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) rateLimited.inc();
  });

  app.get('/metrics', { config: { rateLimit: false } }, async (request, reply) => {
    if (config.metricsToken && !sameToken(request.headers.authorization, config.metricsToken)) throw new HttpError(401, 'Unauthenticated.');
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}

function sameToken(header: string | undefined, token: string): boolean {
  const sent = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
