// The reference as the running service serves it: the page and its files answer without a token
// and outside the rate limit, the document names the host that served it, every route of the
// service is in it, and the Postman collection has one request per route.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fastifyPath, routeTable } from '../../engine/definition/route-table.ts';
import { POSTMAN_SCHEMA } from '../../engine/docs/postman.ts';
import { buildApiDocument, registeredRoutes, undocumentedRoutes } from '../../src/http/api-docs.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';
import { sharedApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

type Json = Record<string, any>;
const registry = loadResources();
const document = buildApiDocument(registry, API_PREFIX);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function documentedOperations(): string[] {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/** Every request of a Postman collection, with the folders it sits in. */
function postmanRequests(items: Json[], folders: string[] = []): Array<{ folders: string[]; item: Json }> {
  return items.flatMap((item) => (Array.isArray(item.item) ? postmanRequests(item.item, [...folders, item.name]) : [{ folders, item }]));
}

for (const target of databaseTargets()) {
  const test = suite(`docs served [${target.name}]`);

  test('GET /api/docs is the interactive page, without a token, its assets from this host', async () => {
    const { client } = await sharedApp(target);
    const page = await client.get('/api/docs', { headers: { accept: 'text/html' } });
    assert.is(page.status, 200, page.text);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.text, /swagger-ui/);
    assert.not.match(page.text, /https?:\/\//, 'no outside address in the page');
    assert.is(page.headers['x-ratelimit-limit'], undefined, 'not rate limited');
    for (const asset of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const url = new URL(asset[1]!, `${client.baseUrl}/api/docs`);
      const response = await client.get(url.pathname);
      assert.is(response.status, 200, `${url.pathname}: ${response.status}`);
      if (url.pathname.endsWith('.js')) assert.not.match(response.text, /https?:\/\/(?:unpkg|cdn|fonts)\./, `${url.pathname} loads nothing from outside`);
    }
  });

  test('GET /api/docs/openapi.json and /api/docs.openapi: the document, naming this host as its server', async () => {
    const { client } = await sharedApp(target);
    for (const path of ['/api/docs/openapi.json', '/api/docs.openapi']) {
      const response = await client.get(path);
      assert.is(response.status, 200, `${path}: ${response.text.slice(0, 200)}`);
      assert.match(String(response.headers['content-type']), /^application\/json/, path);
      assert.is(response.headers['x-ratelimit-limit'], undefined, `${path} is not rate limited`);
      assert.equal(response.body.servers, [{ url: client.baseUrl, description: 'This installation' }], `${path}: servers`);
      assert.equal({ ...response.body, servers: document.servers }, document, `${path}: the generated document`);
    }
    const ui = await client.get('/api/docs/json');
    assert.is(ui.status, 200);
    assert.equal(ui.body.servers, [{ url: client.baseUrl, description: 'This installation' }], 'the page’s copy too');
  });

  test('every route of the running service is in the document, and every documented route exists', async () => {
    const { app } = await sharedApp(target);
    const routes = registeredRoutes(app);
    assert.ok(routes.length > 20, `${routes.length} routes recorded`);
    assert.equal(undocumentedRoutes(routes, document), [], 'routes missing from the document');
    for (const operation of documentedOperations()) {
      const [method, path] = operation.split(' ') as [string, string];
      assert.ok(app.hasRoute({ method: method as 'GET', url: fastifyPath(path) }), `${operation} is served`);
    }
  });

  test('GET /api/docs.postman: a runnable v2.1 collection covering every route, a folder per resource, bearer token', async () => {
    const { client } = await sharedApp(target);
    const response = await client.get('/api/docs.postman');
    assert.is(response.status, 200, response.text.slice(0, 200));
    assert.match(String(response.headers['content-type']), /^application\/json/);
    const collection = response.body;
    assert.is(collection.info.schema, POSTMAN_SCHEMA);
    assert.equal(collection.auth, { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}', type: 'string' }] });
    const variables = new Map(collection.variable.map((v: Json) => [v.key, v.value]));
    assert.is(variables.get('baseUrl'), client.baseUrl);
    for (const key of ['email', 'password', 'token', 'run']) assert.ok(variables.has(key), `declares ${key}`);

    const requests = postmanRequests(collection.item);
    // A request's path with its variables as placeholders: `/support/uom-categories/{}/uoms/{}`.
    const template = (path: string) => path.replace(/\{\{[A-Za-z0-9_]+\}\}|\{[^}]+\}/g, '{}');
    const sent = new Set(requests.map(({ item }) => `${item.request.method} ${template(`/${item.request.url.path.join('/')}`)}`));
    for (const operation of documentedOperations()) {
      const [method, path] = operation.split(' ') as [string, string];
      // A placeholder is a variable, or else the example its parameter gives (`/api/docs/modules/support`).
      const parameters: Json[] = document.paths[path][method.toLowerCase()].parameters ?? [];
      const withExamples = path.replace(/\{([^}]+)\}/g, (placeholder, name) => {
        const example = parameters.find((parameter) => parameter.in === 'path' && parameter.name === name)?.example;
        return example === undefined ? placeholder : String(example);
      });
      assert.ok(sent.has(`${method} ${template(path)}`) || sent.has(`${method} ${template(withExamples)}`), `${operation} has a request`);
    }
    for (const { item } of requests) {
      const used = [...JSON.stringify(item.request).matchAll(/\{\{([A-Za-z0-9_]+)\}\}/g)].map((match) => match[1]);
      for (const name of used) assert.ok(variables.has(name), `${item.name}: {{${name}}} is a collection variable`);
      // Variables stand for ids (bare) or strings: the body is JSON once they are filled in.
      if (item.request.body?.options?.raw?.language === 'json') JSON.parse(item.request.body.raw.replace(/\{\{[A-Za-z0-9_]+\}\}/g, '1'));
      assert.ok(item.request.url.raw.startsWith('{{baseUrl}}/'), item.request.url.raw);
      assert.ok(
        item.event?.some((event: Json) => event.listen === 'test' && event.script.exec.join('\n').includes('pm.test(')),
        `${item.name} checks its answer`,
      );
    }

    const folders = collection.item.map((folder: Json) => folder.name);
    assert.is(folders[0], 'Log in', 'Log in first');
    assert.is(folders.at(-1), 'Log out', 'Log out last');
    const login = collection.item[0];
    assert.equal(login.request.auth, { type: 'noauth' });
    assert.equal(JSON.parse(login.request.body.raw), { email: '{{email}}', password: '{{password}}' });
    for (const def of registry.all()) {
      const routes = routeTable(def, API_PREFIX);
      if (routes.length === 0) continue;
      const tag = document.paths[routes[0]!.path][routes[0]!.method.toLowerCase()].tags[0];
      assert.ok(folders.includes(tag), `a folder for ${def.name}`);
    }
  });

  test('the reference answers without a token even when a bad one is sent', async () => {
    const { client } = await sharedApp(target);
    for (const path of ['/api/docs', '/api/docs/openapi.json', '/api/docs.openapi', '/api/docs.postman']) {
      const response = await client.get(path, { headers: { authorization: 'Bearer garbage' } });
      assert.is(response.status, 200, path);
    }
  });

  test.run();
}
