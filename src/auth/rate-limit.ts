// Requests per token (per IP before login) per window, with headers telling a client its limit,
// what remains and when the window resets. Counters live in Redis when REDIS_URL is set, so a
// client gets the same limit whichever process answers; else in each process's memory. A Redis
// outage does not take the API down: requests go unlimited (with a warning) until it is back.
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_MESSAGES, HttpError } from '../../engine/index.ts';
import type { Config } from '../app/config.ts';
import { readTokenFromRequest } from './authenticate.ts';

export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const redis = config.redisUrl ? await sharedCounters(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    ...(redis && { redis, nameSpace: 'erp-rate-limit:', skipOnError: true }),
    // Applied below as an app-level hook instead: the plugin's own per-route hook runs after the
    // route's authentication, which refuses a request with no or a bad token before it is counted.
    global: false,
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    keyGenerator(request: FastifyRequest) {
      // A valid token is its own bucket; the claims are kept for the authentication hook.
      const claims = readTokenFromRequest(app, request);
      if (claims) {
        request.tokenClaims = claims;
        return `token:${claims.jti}`;
      }
      return `ip:${request.ip}`;
    },
    errorResponseBuilder(_request, context) {
      return new HttpError(context.statusCode, ERROR_MESSAGES.tooManyRequests(context.after));
    },
  });
  // App-level hooks run before route-level ones. /health opts out. Login requests count here
  // too (per IP), so one address cannot spray many e-mails; see also loginLimiter().
  const limit = app.rateLimit();
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.rateLimit === false) return;
    await limit.call(app, request, reply);
  });
}

/**
 * The Redis connection of the counters: commands fail at once while it is down (no queue), and it
 * reconnects. The client is loaded only when Redis is configured (it weighs ~20 MB of memory).
 */
async function sharedCounters(app: FastifyInstance, url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => 1000 });
  let warned = 0;
  const warn = (reason: string) => {
    // Once a minute at most: an outage must not flood the log.
    if (Date.now() - warned < 60_000) return;
    warned = Date.now();
    app.log.warn({ reason }, 'Redis unavailable: rate limits are not applied until it is back');
  };
  redis.on('error', (error: Error & { code?: string }) => warn(error.code ?? error.message));
  // A lost connection is retried every second; the first retry says so.
  redis.on('reconnecting', () => warn('connection lost'));
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  // Commands fail at once until the connection is up, and a failed count lets the request through:
  // without this wait the first requests after a boot were not limited. Bounded: a Redis that is
  // down does not hold the boot longer than its connect timeout.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1500);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}

/**
 * The stricter limit on login attempts, per e-mail and IP, checked once the body is parsed.
 * It runs inside the login handler because the plugin applies only one limiter per request.
 */
export function loginLimiter(app: FastifyInstance, config: Config) {
  const check = app.createRateLimit({
    max: config.loginRateLimitMax,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `login:${request.ip}:${loginEmail(request.body)}`,
  });
  return async (request: FastifyRequest): Promise<void> => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new HttpError(429, `Too many login attempts. Retry in ${result.ttlInSeconds} seconds.`, { 'retry-after': String(result.ttlInSeconds) });
    }
  };
}

function loginEmail(body: unknown): string {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}
