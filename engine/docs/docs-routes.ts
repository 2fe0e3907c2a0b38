// Serves the reference: the interactive page (Swagger UI, its assets from the npm package, no
// outside calls), the OpenAPI document and the Postman collection. No token, no rate limit.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../errors/http-errors.ts';
import type { OpenApiDocument } from './openapi.ts';
import type { PageDocument } from './page-documents.ts';
import type { PostmanCollection } from './postman.ts';
import { swaggerUiForwarder } from './swagger-ui-app.ts';

export interface DocsRoutesOptions {
  /** The page's title (the document's `info.title`). */
  title: string;
  /** The document, built on the first request that needs it: boot does not pay for the reference. */
  document: () => OpenApiDocument;
  /** Where the page lives; the files are at `<prefix>/openapi.json`, `<prefix>.openapi`, `<prefix>.postman`. */
  prefix: string;
  /** The runnable collection (buildPostmanCollection), served with `baseUrl` naming this host; built on first use too. */
  postman: () => PostmanCollection;
  /**
   * The page's documents, one per module (pageDocuments), served at `<prefix>/modules/<slug>` and
   * offered by the page's selector; built on first use. Without them the page shows `document`.
   */
  modules?: () => PageDocument[];
}

/** The address the client reached this installation at (X-Forwarded-* when TRUST_PROXY is set). */
export function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The document with `servers` naming the host that serves it, so "Try it out" calls this host. */
export function documentFor(document: OpenApiDocument, baseUrl: string): OpenApiDocument {
  return { ...document, servers: [{ url: baseUrl, description: 'This installation' }] };
}

export async function registerDocsRoutes(app: FastifyInstance, { title, document, prefix, postman, modules }: DocsRoutesOptions): Promise<void> {
  // The serialized files (the document, the collection, the modules' documents), per address the
  // installation is reached at (few: bounded anyway).
  const cache = new Map<string, string>();
  const cached = (key: string, build: () => unknown) => {
    let text = cache.get(key);
    if (text === undefined) {
      text = JSON.stringify(build());
      if (cache.size > 64) cache.clear();
      cache.set(key, text);
    }
    return text;
  };
  const openapi = (request: FastifyRequest) => cached(`openapi ${baseUrlOf(request)}`, () => documentFor(document(), baseUrlOf(request)));

  await app.register(async (docs) => {
    // Every route of this scope (also the UI's assets) is public and not rate limited.
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), rateLimit: false } as typeof route.config;
    });
    // The page and its assets: a Fastify app of their own, built on the first request for them.
    const selector = modules && (() => modules().map((module) => ({ name: module.name, url: `${prefix}/modules/${module.slug}` })));
    const ui = swaggerUiForwarder({ title, prefix, log: docs.log, document: (baseUrl) => documentFor(document(), baseUrl), modules: selector });
    docs.addHook('onClose', () => ui.close());
    const page = { schema: { hide: true } };
    const toPage = (request: FastifyRequest, reply: FastifyReply) => ui.handle(request, reply, baseUrlOf(request));
    docs.get(prefix, page, toPage);
    docs.get(`${prefix}/*`, page, toPage);

    const json = 'application/json; charset=utf-8';
    docs.get(`${prefix}/openapi.json`, async (request, reply) => reply.type(json).send(openapi(request)));
    // The original installation's addresses (Scribe): the OpenAPI document and a Postman collection.
    // JSON is also valid YAML, so clients that read the original's YAML read this too.
    docs.get(`${prefix}.openapi`, async (request, reply) => reply.type(json).send(openapi(request)));
    if (modules) {
      docs.get<{ Params: { module: string } }>(`${prefix}/modules/:module`, async (request, reply) => {
        const module = modules().find((candidate) => candidate.slug === request.params.module);
        if (!module) throw new NotFoundError();
        return reply.type(json).send(cached(`module ${module.slug} ${baseUrlOf(request)}`, () => documentFor(module.document(), baseUrlOf(request))));
      });
    }
    docs.get(`${prefix}.postman`, async (request, reply) =>
      reply.type(json).send(
        cached(`postman ${baseUrlOf(request)}`, () => {
          const collection = postman();
          const variable = collection.variable.map((entry: { key: string }) => (entry.key === 'baseUrl' ? { ...entry, value: baseUrlOf(request) } : entry));
          return { ...collection, variable };
        }),
      ),
    );
  });
}
