// Request ids: every response carries X-Request-Id (the client's own when it sends a well-formed
// one, else a new UUID), every log line of the request carries it (`reqId`), and a 500's body
// names it, so a client's report can be found in the log.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

const WELL_FORMED = /^[A-Za-z0-9._:@-]{1,128}$/;

/** Fastify's genReqId: the client's X-Request-Id when it is safe to log and echo. */
export function requestId(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && WELL_FORMED.test(sent) ? sent : randomUUID();
}

export function registerRequestIds(app: FastifyInstance): void {
  // A callback hook: it runs on every answer, and an async one costs a promise each time.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}
