// The interactive page (Swagger UI and its assets) runs as a small Fastify app of its own, built on
// the first request for the page and reached by inject. A process that serves only the API never
// loads @fastify/swagger, @fastify/swagger-ui, @fastify/static and their modules, nor registers
// the assets' routes: ~3 MB of heap in every process, paid only where someone opens the page.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { OpenApiDocument } from './openapi.ts';

export interface SwaggerUiOptions {
  /** The page's title. */
  title: string;
  /** Where the page lives, as the outer app serves it (the inner app uses the same paths). */
  prefix: string;
  /** The document the page shows, naming `baseUrl` as its server. */
  document: (baseUrl: string) => OpenApiDocument;
  /** Where the inner app reports its errors (the service's logger). */
  log: FastifyBaseLogger;
  /** The documents the page offers, one per module (its selector shows them; it opens the first). Without them, `document`. */
  modules?: () => Array<{ name: string; url: string }>;
}

/** Tells the inner app the address the client reached the outer one at; set by the forwarder only. */
const BASE_URL_HEADER = 'x-erp-docs-base-url';
/** Hop-by-hop or recomputed by the outer reply: not copied from the inner response. */
const NOT_FORWARDED = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);
const gzip = promisify(gzipCallback);

/** One asset as the inner app answered it, and its gzip form once a client accepted it. */
interface Asset {
  headers: Record<string, string>;
  body: Buffer;
  gzipped?: Promise<Buffer>;
}

export interface SwaggerUiForwarder {
  /** Answers a GET under the page's prefix with what the inner app answers (its 404 and 5xx as the outer app's). */
  handle(request: FastifyRequest, reply: FastifyReply, baseUrl: string): Promise<FastifyReply>;
  /** Closes the inner app if it was built. */
  close(): Promise<void>;
}

export function swaggerUiForwarder(options: SwaggerUiOptions): SwaggerUiForwarder {
  let built: Promise<FastifyInstance> | undefined;
  const inner = () => {
    built ??= buildSwaggerUiApp(options).catch((error: unknown) => {
      built = undefined; // a failed build is tried again by the next request
      throw error;
    });
    return built;
  };
  // The assets (Swagger UI's bundle, styles, its initializer) never change while the process runs:
  // each is read from the inner app once, then answered from memory, gzipped for clients that take
  // it (the bundle is 1.7 MB, 0.45 MB gzipped), so a visit costs the server next to nothing.
  const assets = new Map<string, Asset>();
  const staticPrefix = `${options.prefix}/static/`;
  return {
    async handle(request, reply, baseUrl) {
      const path = request.url.split('?')[0]!;
      const asset = assets.get(path);
      if (asset) return sendAsset(request, reply, asset);
      const app = await inner();
      // GET also for HEAD: the outer reply drops the body of a HEAD itself.
      const response = await app.inject({ method: 'GET', url: request.url, headers: { ...request.headers, [BASE_URL_HEADER]: baseUrl } });
      if (response.statusCode === 404) {
        reply.callNotFound(); // the service's own 404 body
        return reply;
      }
      // The inner app logged the cause; the client gets the service's own error body.
      if (response.statusCode >= 500) throw new Error(`The reference page failed (${response.statusCode})`);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined && !NOT_FORWARDED.has(name)) headers[name] = String(value);
      }
      if (response.statusCode === 200 && path.startsWith(staticPrefix)) {
        const kept: Asset = { headers, body: response.rawPayload };
        assets.set(path, kept);
        return sendAsset(request, reply, kept);
      }
      return reply
        .code(response.statusCode)
        .headers(headers)
        .send(response.rawPayload.length > 0 ? response.rawPayload : undefined);
    },
    async close() {
      if (built) await (await built.catch(() => undefined))?.close();
    },
  };
}

async function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset): Promise<FastifyReply> {
  const etag = asset.headers.etag;
  if (etag !== undefined && request.headers['if-none-match'] === etag)
    return reply
      .code(304)
      .headers({ etag, 'cache-control': asset.headers['cache-control'] ?? 'no-cache' })
      .send();
  reply.headers(asset.headers).header('vary', 'accept-encoding');
  if (asset.body.length >= 1024 && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    asset.gzipped ??= gzip(asset.body);
    return reply.header('content-encoding', 'gzip').send(await asset.gzipped);
  }
  return reply.send(asset.body);
}

async function buildSwaggerUiApp({ title, prefix, document, log, modules }: SwaggerUiOptions): Promise<FastifyInstance> {
  const [{ default: fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([import('fastify'), import('@fastify/swagger'), import('@fastify/swagger-ui')]);
  // Its errors go to the service's log; its requests are already logged there (info).
  const level = ['error', 'fatal', 'silent'].includes(log.level) ? log.level : 'warn';
  const app = fastify({ loggerInstance: log.child({ app: 'reference-page' }, { level }) });
  // Static mode: the document is generated (openapi.ts), not collected from route schemas. The
  // plugin holds a placeholder; the page's copy is the real document (transformSpecification).
  const placeholder = { openapi: '3.1.0', info: { title, version: '' }, paths: {} };
  await app.register(swagger, { mode: 'static', specification: { document: placeholder as any } });
  await app.register(swaggerUi, {
    routePrefix: prefix,
    theme: { title },
    uiConfig: {
      deepLinking: true,
      docExpansion: 'none',
      filter: true,
      persistAuthorization: true,
      displayRequestDuration: true,
      defaultModelsExpandDepth: 0,
      tryItOutEnabled: false,
      // One module at a time (engine/docs/page-documents.ts): `?urls.primaryName=<module>` opens another.
      ...(modules && { urls: modules() }),
    },
    // The page loads `<prefix>/json`: the same document, naming the host the client reached.
    transformSpecificationClone: false,
    transformSpecification: (_placeholder, request) => document(String(request.headers[BASE_URL_HEADER])),
  });
  await app.ready();
  return app;
}
