// Load shedding: when the event loop lags, or the heap or resident memory pass their limits
// (MAX_EVENT_LOOP_DELAY_MS, MAX_HEAP_USED_MB, MAX_RSS_MB), new requests get 503 {message} with
// Retry-After at once instead of queueing until clients time out. /health and /metrics still
// answer, and /health reports the pressure (a load balancer then routes around the process).
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../app/config.ts';

export const OVERLOADED = 'The service is overloaded right now. Retry in a moment.';
const RETRY_AFTER_SECONDS = 5;
/** Building the app blocks the event loop: its first samples after start say nothing of load. */
const GRACE_AFTER_START_MS = 2000;
const readyAt = new WeakMap<FastifyInstance, number>();

/** Under pressure, past the grace period after start. */
export function overloaded(app: FastifyInstance): boolean {
  if (Date.now() - (readyAt.get(app) ?? Infinity) <= GRACE_AFTER_START_MS) return false;
  return app.isUnderPressure();
}

export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  app.addHook('onReady', async () => {
    readyAt.set(app, Date.now());
  });
  /** When the process is overloaded: a 503 with Retry-After, and the body to send; else undefined. */
  const shed = (request: FastifyRequest, reply: FastifyReply): { message: string } | undefined => {
    if (request.url === '/health' || request.url === '/metrics') return undefined; // they report it
    if (!overloaded(app)) return undefined;
    request.log.warn('shedding load: 503');
    reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
    return { message: OVERLOADED };
  };
  await app.register(underPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    maxHeapUsedBytes: config.maxHeapUsedMb * 1024 * 1024,
    maxRssBytes: config.maxRssMb * 1024 * 1024,
    // The plugin reads a sample without a single timer tick (the loop was busy the whole sample)
    // as an infinite delay. So a sample must last as long as the delay allowed: with 100 ms samples
    // a busy but healthy process (one event-loop turn of 150 ms under load) shed everything.
    sampleInterval: Math.max(100, config.maxEventLoopDelayMs),
    // Called only when a sample passes a limit. The plugin sends a body the handler returns, and
    // lets the request through on undefined; its types only allow void.
    pressureHandler: shed as unknown as NonNullable<FastifyUnderPressureOptions['pressureHandler']>,
  });
}

/** What /health says of the pressure. */
export function pressureReport(app: FastifyInstance) {
  const usage = app.memoryUsage();
  return {
    overloaded: overloaded(app),
    // A loop blocked for a whole sample has no finite delay to report.
    event_loop_delay_ms: Number.isFinite(usage.eventLoopDelay) ? Math.round(usage.eventLoopDelay * 10) / 10 : null,
    heap_used_mb: Math.round(usage.heapUsed / 1024 / 1024),
    rss_mb: Math.round(usage.rssBytes / 1024 / 1024),
  };
}
