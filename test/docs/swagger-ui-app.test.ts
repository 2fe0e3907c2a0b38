// The Swagger UI page as its own app behind the service's routes: built on the first request for
// it, its answers passed on, and its failures answered with the service's own error bodies.
import Fastify from 'fastify';
import { gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registerDocsRoutes } from '../../engine/docs/docs-routes.ts';
import type { OpenApiDocument } from '../../engine/docs/openapi.ts';
import { errorHandler, notFoundHandler } from '../../engine/routes/error-handler.ts';

const test = suite('swagger ui app');

async function appWithDocs(document: () => OpenApiDocument) {
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler().handler);
  await registerDocsRoutes(app, {
    title: 'Test reference',
    prefix: '/api/docs',
    document,
    postman: () => ({ info: {}, item: [], variable: [] }) as never,
  });
  await app.ready();
  return app;
}

const DOCUMENT = { openapi: '3.1.0', info: { title: 'Test reference', version: 'v1' }, paths: {} } as unknown as OpenApiDocument;

test('the page, its assets and its copy of the document, naming the host the client reached', async () => {
  const app = await appWithDocs(() => DOCUMENT);
  const page = await app.inject({ method: 'GET', url: '/api/docs', headers: { host: 'erp.example.com' } });
  assert.is(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  const css = await app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui.css' });
  assert.is(css.statusCode, 200);
  assert.match(String(css.headers['content-type']), /^text\/css/);
  const cached = await app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui.css', headers: { 'if-none-match': String(css.headers.etag) } });
  assert.is(cached.statusCode, 304, 'the asset’s ETag is passed on');
  const json = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { host: 'erp.example.com', 'x-erp-docs-base-url': 'http://elsewhere' } });
  assert.equal(json.json().servers, [{ url: 'http://erp.example.com', description: 'This installation' }]);
  await app.close();
});

test('the assets are answered from memory after the first read, gzipped for clients that accept it, their ETag still honoured', async () => {
  const app = await appWithDocs(() => DOCUMENT);
  const url = '/api/docs/static/swagger-ui-bundle.js';
  const plain = await app.inject({ method: 'GET', url });
  assert.is(plain.statusCode, 200);
  assert.ok(plain.rawPayload.length > 500_000, 'the whole bundle');
  const zipped = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
  assert.is(zipped.statusCode, 200);
  assert.is(zipped.headers['content-encoding'], 'gzip');
  assert.is(zipped.headers.vary, 'accept-encoding');
  assert.match(String(zipped.headers['content-type']), /javascript/);
  assert.ok(zipped.rawPayload.length < plain.rawPayload.length / 2, `gzipped: ${zipped.rawPayload.length} of ${plain.rawPayload.length} bytes`);
  assert.ok(gunzipSync(zipped.rawPayload).equals(plain.rawPayload), 'the same bytes once unzipped');
  const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': String(plain.headers.etag) } });
  assert.is(again.statusCode, 304);
  assert.is(again.rawPayload.length, 0);
  const initializer = await app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
  assert.is(initializer.statusCode, 200);
  assert.match(initializer.body, /SwaggerUIBundle/);
  await app.close();
});

test('an unknown path under the page answers the service’s 404', async () => {
  const app = await appWithDocs(() => DOCUMENT);
  const response = await app.inject({ method: 'GET', url: '/api/docs/nothing-here' });
  assert.is(response.statusCode, 404);
  assert.equal(response.json(), { message: 'The requested resource was not found.' });
  await app.close();
});

test('a failure inside the page answers the service’s 500, without its cause', async () => {
  const app = await appWithDocs(() => {
    throw new Error('secret internals');
  });
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  assert.is(response.statusCode, 500);
  assert.type(response.json().message, 'string');
  assert.not.match(response.body, /secret internals|at /);
  await app.close();
});

test.run();
