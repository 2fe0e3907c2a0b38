// The plan behind the runnable collection: resources after what they need, every action on a walk
// whose states allow it, bodies that point at the run's records and carry the run's suffix.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createBody, idVariable, runOrder } from '../../engine/docs/postman-plan.ts';
import { planWalks } from '../../engine/docs/postman-walk.ts';
import { loadResources } from '../../src/app/build-app.ts';

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

test.run();
