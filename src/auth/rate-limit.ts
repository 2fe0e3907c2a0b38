// Requests per token (per IP before login) per window, with headers telling a client its limit,
// what remains and when the window resets. Counters live in each process's memory.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../engine/index.ts';
import type { Config } from '../config.ts';
import { readTokenFromRequest } from './authenticate.ts';

export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(rateLimit, {
    global: true,
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
      return new HttpError(context.statusCode, `Too many requests. Retry in ${context.after}.`);
    },
  });
}
