// The plan behind the runnable collection: resources after what they need, every action on a walk
// whose states allow it, bodies that point at the run's records and carry the run's suffix.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createBody, idVariable, runOrder } from '../../engine/docs/postman-plan.ts';
import { planWalks } from '../../engine/docs/postman-walk.ts';
import { routeTable } from '../../engine/definition/route-table.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';
import { buildApiDocument, buildApiPostman } from '../../src/http/api-docs.ts';
import { createChecker } from '../helpers/documented.ts';

const registry = loadResources();
const test = suite('postman plan');

test('a resource comes after its parent, what its create body points at, and its walkthrough.after', () => {
  const position = new Map(runOrder(registry).map((def, index) => [def.name, index]));
  assert.is(position.size, registry.all().length);
  for (const def of registry.all()) {
    const needs = [...def.walkthrough.after, ...(def.parent ? [def.parent.resource] : [])];
    for (const need of needs) assert.ok(position.get(need)! < position.get(def.name)!, `${need} before ${def.name}`);
  }
  const body = createBody(registry.get('sales/orders'), registry, { suffix: '{{run}}' });
  for (const reference of ['partners/partners', 'products/products']) {
    assert.ok(body.includes(`{{${idVariable(registry.get(reference))}}}`), `an order points at the run's ${reference}`);
    assert.ok(position.get(reference)! < position.get('sales/orders')!);
  }
});

test('sales orders: one walk, each action allowed by the state the previous ones leave', () => {
  assert.equal(planWalks(registry.get('sales/orders')), [{ actions: ['confirm', 'cancel', 'set-as-quotation', 'confirm', 'toggle-lock', 'create-invoice'], with: {} }]);
});

test('every action of every resource is on a walk (a collection action is called once, ahead of the list)', () => {
  for (const def of registry.all()) {
    const walked = new Set(planWalks(def).flatMap((walk) => walk.actions));
    for (const action of def.actions.values()) {
      if (action.on === 'collection') assert.not.ok(walked.has(action.name), `${def.name} ${action.name} is not walked on a record`);
      else assert.ok(walked.has(action.name), `${def.name} ${action.name}`);
    }
  }
});

test('unique values carry the suffix of the run, the e-mail in its local part', () => {
  const role = JSON.parse(createBody(registry.get('security/roles'), registry, { suffix: 'abc' }).replace(/\{\{\w+\}\}/g, '0'));
  assert.match(role.name, / abc$/);
  const user = createBody(registry.get('security/users'), registry, { suffix: 'xyz' });
  assert.match(user, /"[^"@]+\.xyz@example\.com"/);
});

test('every walked action that declares a body sends one that fits its documented schema', () => {
  const document = buildApiDocument(registry, API_PREFIX);
  const checker = createChecker(document);
  const requests: Array<Record<string, any>> = [];
  const collect = (items: Array<Record<string, any>>) => {
    for (const item of items) item.item ? collect(item.item) : requests.push(item);
  };
  collect(buildApiPostman(registry, API_PREFIX).item);
  let checked = 0;
  for (const def of registry.all()) {
    for (const route of routeTable(def, API_PREFIX)) {
      const action = route.action ? def.actions.get(route.action) : undefined;
      if (!action?.body) continue;
      const pattern = new RegExp(`^\\{\\{baseUrl\\}\\}${route.path.replace(/\{[a-z_]+\}/g, '[^/]+')}$`);
      const sent = requests.filter((request) => request.request.method === 'POST' && pattern.test(request.request.url.raw));
      assert.ok(sent.length > 0, `${route.path} is walked`);
      const validate = checker.validator(document.paths[route.path].post.requestBody.content['application/json'].schema);
      for (const request of sent) {
        // The run's variables hold ids.
        const body = JSON.parse(request.request.body.raw.replace(/\{\{\w+\}\}/g, '1'));
        assert.ok(Object.keys(body).length > 0, `${route.path} sends a body`);
        assert.ok(validate(body), `${route.path}: ${JSON.stringify(validate.errors)}`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 12, `${checked} action bodies`);
});

test('a return names a move of the record its walk created, which that create includes and keeps', () => {
  const requests = JSON.stringify(buildApiPostman(registry, API_PREFIX));
  assert.ok(requests.includes('"raw":"{{baseUrl}}/admin/api/v1/inventories/receipts?include=moves"'));
  assert.ok(requests.includes("pm.collectionVariables.set('inventories_receipts_id_walk3_first_moves'"));
  assert.ok(requests.includes('\\"id\\": {{inventories_receipts_id_walk3_first_moves}}'));
});

test.run();
