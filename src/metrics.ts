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

  // The series of one method, route and status, looked up once: prom-client hashes a label set on
  // every inc() and observe() otherwise. Bounded by the routes and the statuses they answer.
  const series = new Map<string, { requests: { inc(): void }; duration: { observe(value: number): void } }>();
  const seriesOf = (method: string, route: string, status: number) => {
    const key = `${method} ${route} ${status}`;
    let found = series.get(key);
    if (!found) {
      const labels = { method, route, status_code: String(status) };
      series.set(key, (found = { requests: requests.labels(labels), duration: duration.labels(labels) }));
    }
    return found;
  };
  // A callback hook (no promise per request).
  app.addHook('onResponse', (request, reply, done) => {
    if (request.url !== '/metrics') {
      // The route's template (/support/banks/:id), never the raw URL: one series per route.
      const { requests, duration } = seriesOf(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode);
      requests.inc();
      duration.observe(reply.elapsedTime / 1000);
      if (reply.statusCode === 429) rateLimited.inc();
    }
    done();
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
