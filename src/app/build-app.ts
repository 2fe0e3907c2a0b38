// Builds the Fastify app: errors, authentication, rate limiting, health and the generated routes.
import jwt from '@fastify/jwt';
import Fastify, { type FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import type { Knex } from 'knex';
import {
  actionNames,
  behaviourNames,
  invalidatorNames,
  createStatements,
  dialectOf,
  isMariaDb,
  timeLimitedReads,
  supportsInsertReturning,
  missingColumns,
  readSchemaBounds,
  errorHandler,
  loadRegistry,
  notFoundHandler,
  registerFormats,
  registerResources,
  registerImports,
  turnTaken,
  type Policy,
  type Registry,
} from '../../engine/index.ts';
import { companyTimeZone } from '../behaviours/support/company-time-zone.ts';
import { registerApiTokenRoutes } from '../auth/api-tokens.ts';
import { createAuthentication } from '../auth/authenticate.ts';
import { registerRateLimit } from '../auth/rate-limit.ts';
import { registerAuthRoutes } from '../auth/routes.ts';
import { behaviours } from '../behaviours/index.ts';
import type { Config } from './config.ts';
import { recordRoutes, registerApiDocs } from '../http/api-docs.ts';
import { registerHealth } from '../http/health.ts';
import { scheduleCleanUp } from '../database/housekeeping.ts';
import { registerIdempotency } from '../http/idempotency.ts';
import { registerMetrics } from '../http/metrics.ts';
import { registerLoadShedding } from '../http/load-shedding.ts';
import { parseQueryString } from '../http/query-string.ts';
import { registerRequestIds, requestId } from '../http/request-id.ts';
import { policy } from '../access/policy.ts';
import { deliveryWorker } from '../webhooks/deliveries.ts';
import { RESOURCES_DIR } from './paths.ts';

export const API_PREFIX = '/admin/api/v1';
export { RESOURCES_DIR };

export interface ServerOptions {
  config: Config;
  knex: Knex;
  jwtSecret: string;
  resourcesDir?: string;
  /** The definitions, when the caller has loaded them already (else read from resourcesDir). */
  registry?: Registry;
  /** Where logs go (default stdout); tests capture them. */
  logStream?: NodeJS.WritableStream;
  /** Replaces src/access/policy.ts: only the authorization benchmark does, to measure what the check costs. */
  policy?: Policy;
}

export function loadResources(dir = RESOURCES_DIR): Registry {
  registerFormats();
  return loadRegistry(dir, behaviourNames(behaviours), actionNames(behaviours), invalidatorNames(behaviours));
}

export async function buildServer({ config, knex, jwtSecret, resourcesDir, logStream, ...options }: ServerOptions): Promise<FastifyInstance> {
  const registry = options.registry ?? loadResources(resourcesDir);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(logStream && { stream: logStream }),
      // Tokens never reach the logs, whatever a serializer is later changed to print.
      redact: { paths: ['req.headers.authorization', 'req.body.password', 'res.body.token'], censor: '[redacted]' },
    },
    // A hop count is one of Fastify's trustProxy forms; its types only lack the number.
    trustProxy: config.trustProxy as boolean | string[],
    bodyLimit: 1024 * 1024,
    genReqId: requestId,
    // A URL the router cannot decode (broken percent-encoding) gets the same {message} body too.
    frameworkErrors: errorHandler,
    // `include[]=a&include[]=b` (axios, qs) and `include[0]=a` (PHP) read as `include=a,b`.
    routerOptions: { querystringParser: parseQueryString },
  });

  app.setErrorHandler(errorHandler);
  registerRequestIds(app);
  // A request arrives in a turn of the event loop of its own: its slice (engine/sql/breather.ts)
  // starts now, so that a short request runs through without waiting a turn, and a long one lets
  // the others run every few milliseconds of its work.
  app.addHook('onRequest', (_request, _reply, done) => {
    turnTaken();
    done();
  });
  // A request still running when the process stops (SIGTERM) ends its connection with its answer:
  // a client keeping the connection alive would otherwise hold the closing server open.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  if (config.trustProxy === true) {
    app.log.warn('TRUST_PROXY=true trusts any X-Forwarded-For: a client can pick its own address (and rate-limit key). Behind one load balancer, set TRUST_PROXY=1.');
  }
  const notFound = notFoundHandler();
  app.addHook('onRoute', notFound.onRoute);
  recordRoutes(app); // the API reference checks at boot that it documents every route
  app.setNotFoundHandler(notFound.handler);
  acceptEmptyJsonBodies(app);

  // Tokens are signed with HS256 only and must carry exp, sub and jti: any other token is refused.
  await app.register(jwt, {
    secret: jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: config.tokenTtlSeconds },
    verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'sub', 'jti'] },
  });
  await registerLoadShedding(app, config);
  // The engine's own SQL: prepared statements, on SQLite's read connection or on connections
  // lent from knex's pool (engine/sql/statements.ts). /metrics counts the statements waiting.
  const statements = createStatements(knex, { insertReturns: await supportsInsertReturning(knex) });
  app.addHook('onClose', () => statements.close());
  // Grouped totals read under a time limit, beside the requests rather than in their way.
  const reportReads = timeLimitedReads({
    dialect: dialectOf(knex),
    statements,
    limitMs: config.reportTimeLimitSeconds * 1000,
    mariadb: await isMariaDb(knex),
    slots: config.reportConcurrency,
    ...(config.database.client === 'sqlite' && { filename: config.database.filename }),
  });
  app.addHook('onClose', () => reportReads.close());
  registerMetrics(app, knex, statements, config);
  await registerRateLimit(app, config);
  registerHealth(app, knex);

  // Every stored field has its column, and takes no more than it can store.
  const bounds = await readSchemaBounds(knex, registry);
  const missing = missingColumns(registry, bounds);
  if (missing.length > 0) throw new Error(`The resource definitions do not match the database schema:\n  ${missing.join('\n  ')}`);
  const { authenticate, authenticateWithFirstRead } = createAuthentication(app, knex, statements);
  registerIdempotency(app, knex, API_PREFIX);
  scheduleCleanUp(app, knex, config.cleanupIntervalSeconds, config.changesRetentionSeconds);
  registerAuthRoutes(app, knex, config, authenticate, API_PREFIX);
  registerApiTokenRoutes(app, knex, registry, authenticate, API_PREFIX);
  const access = options.policy ?? policy;
  const engine = {
    knex,
    statements,
    bounds,
    registry,
    behaviours,
    authenticate,
    authenticateWithFirstRead,
    policy: access,
    reportReads,
    // Dates that default to today, and grouped totals' datetime buckets, are in the company's zone.
    companyTimeZone,
    prefix: API_PREFIX,
    countAhead: config.listCountAhead,
    importLimits: { maxBytes: config.importMaxBytes, maxRows: config.importMaxRows },
  };
  registerImports(app, engine, registerResources(app, engine));
  await registerApiDocs(app, registry, API_PREFIX);
  const webhooks = deliveryWorker(knex, statements, registry, config, app.log);
  if (config.webhooksWorker) {
    app.addHook('onReady', async () => webhooks.start());
    app.addHook('onClose', async () => webhooks.stop());
  }
  return app;
}

/** `Content-Type: application/json` with no body (a logout, a restore) is no body, not an error. */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      // secure-json-parse (Fastify's own parser) refuses __proto__ and constructor pollution.
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      const error = new SyntaxError('invalid JSON') as SyntaxError & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });
}
