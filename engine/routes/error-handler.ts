// Every error becomes JSON: {message} (plus errors for 422). A 500 never shows internals;
// the details go to the log.
import type { FastifyError, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { settleAuthentication } from '../sql/pending-authentication.ts';
import { isDatabaseUnavailable } from '../sql/database-errors.ts';
import { HttpError } from '../errors/http-errors.ts';
import { ERROR_MESSAGES } from '../errors/messages.ts';

/** Fastify's own client errors, in the API's words. */
const CLIENT_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ERROR_MESSAGES.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: ERROR_MESSAGES.emptyJson,
  FST_ERR_CTP_BODY_TOO_LARGE: ERROR_MESSAGES.tooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ERROR_MESSAGES.mediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ERROR_MESSAGES.contentLength,
  FST_ERR_BAD_URL: ERROR_MESSAGES.badUrl,
};

export async function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // A request that failed before its token was checked (a malformed query, a missing parent)
  // answers as an unauthenticated one would if the check fails: 401 comes before anything else.
  if (request.pendingAuthentication) {
    try {
      await settleAuthentication(request);
    } catch (authenticationError) {
      error = authenticationError as FastifyError;
    }
  }
  if (error instanceof HttpError) {
    return reply.code(error.statusCode).headers(error.headers).send(error.body());
  }
  if (error instanceof SyntaxError && (error as FastifyError).statusCode === 400) {
    return reply.code(400).send({ message: ERROR_MESSAGES.invalidJson });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ message: CLIENT_MESSAGES[error.code] ?? error.message });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: withoutValues(error) }, 'database unavailable');
    return reply.code(503).header('retry-after', '5').send({ message: ERROR_MESSAGES.databaseUnavailable });
  }
  request.log.error({ err: withoutValues(error) }, 'request failed');
  // The id lets a client's report be matched with this log line.
  return reply.code(500).send({ message: ERROR_MESSAGES.server, request_id: request.id });
}

/**
 * What a server fault logs: its type, code, message and stack, with every quoted or numeric literal
 * (the bound values knex and the drivers write into their messages, which may be personal data)
 * replaced by `?`, so the failing statement shows without them.
 */
export function withoutValues(error: Error & { code?: string; errno?: number; sqlState?: string }) {
  const strip = (text: string) =>
    text
      .replace(/'(?:[^'\\]|\\.|'')*'/g, '?')
      .replace(/"(?:[^"\\]|\\.)*"/g, '?')
      .replace(/\b\d+(\.\d+)?\b/g, '?');
  const message = strip(error.message ?? '');
  const stack = (error.stack ?? '').split('\n').slice(1).join('\n');
  return { type: error.name, code: error.code, errno: error.errno, sqlState: error.sqlState, message, stack: `${error.name}: ${message}\n${stack}` };
}

/** 404 for unknown paths, 405 (with Allow) for a known path asked with the wrong method. */
export function notFoundHandler() {
  const routes: Array<{ pattern: RegExp; method: string }> = [];
  return {
    onRoute(route: RouteOptions) {
      const pattern = new RegExp(`^${route.url.replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);
      for (const method of [route.method].flat()) routes.push({ pattern, method });
    },
    handler(request: FastifyRequest, reply: FastifyReply) {
      const path = request.url.split('?')[0]!;
      const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))].filter((m) => m !== 'HEAD');
      if (allowed.length > 0) {
        return reply
          .code(405)
          .header('allow', allowed.join(', '))
          .send({ message: ERROR_MESSAGES.methodNotAllowed(request.method, allowed) });
      }
      return reply.code(404).send({ message: ERROR_MESSAGES.notFound });
    },
  };
}
