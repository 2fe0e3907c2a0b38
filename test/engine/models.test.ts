// The Objection models generated from the registry (engine/models) load what the API's includes
// return: for every listed resource with includes, on a database with the demo data, each record
// of a page has the same related records through its model's relations as under its include key.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildModels } from '../../engine/index.ts';
import { loadResources } from '../../src/app/build-app.ts';
import { seedDemo } from '../../src/seed/demo.ts';
import { API, startApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.ts';
import { databaseTargets, freshDatabase } from '../helpers/targets.ts';

const registry = loadResources();

for (const target of databaseTargets()) {
  const test = suite(`models [${target.name}]`);
  let app: TestApp;
  let token: string;
  let drop: () => Promise<void>;

  test.before(async () => {
    const fresh = await freshDatabase(target, 'models', { migrated: true });
    drop = fresh.drop;
    app = await startApp(fresh.target);
    await seedDemo(app.knex, app.config, TEST_JWT_SECRET);
    token = await app.login();
    // A product with a live tag and a trashed one: lists of related rows show live rows only.
    const tags = [];
    for (const name of ['Models live tag', 'Models trashed tag']) tags.push((await app.client.post(`${API}/products/tags`, { token, body: { name } })).body.data.id);
    const product = (await app.client.get(`${API}/products/products`, { token })).body.data[0].id;
    assert.is((await app.client.put(`${API}/products/products/${product}`, { token, body: { tags } })).status, 200);
    assert.is((await app.client.delete(`${API}/products/tags/${tags[1]}`, { token })).status, 200);
  });

  test.after(async () => {
    await app.close();
    await drop();
  });

  test('a model per resource, with its table, id and every relation of its definition', () => {
    const models = buildModels(registry, app.knex);
    for (const def of registry.all()) {
      const model = models[def.name]!;
      assert.is(model.tableName, def.table, def.name);
      assert.is(model.idColumn, 'id');
      for (const relation of def.relations.keys()) assert.ok(model.getRelation(relation), `${def.name}: ${relation}`);
    }
  });

  test('every include of every listed resource: the model loads the same related records as the API', async () => {
    const models = buildModels(registry, app.knex);
    let compared = 0;
    for (const def of registry.all()) {
      if (!def.operations.has('list')) continue;
      const relations = [...new Set(def.includes.map((include) => include.split('.')[0]!))].map((name) => def.relations.get(name)!);
      if (relations.length === 0) continue;
      const path = await listPath(def);
      if (!path) continue;
      const response = await app.client.get(`${API}${path}`, { token, query: { include: relations.map((relation) => relation.name).join(','), per_page: 20 } });
      assert.is(response.status, 200, `${def.name}: ${response.text}`);
      const rows = response.body.data as Array<Record<string, any>>;
      if (rows.length === 0) continue;
      const loaded = await models[def.name]!.query()
        .findByIds(rows.map((row) => row.id))
        .withGraphFetched(`[${relations.map((relation) => relation.name).join(', ')}]`);
      const byId = new Map(loaded.map((record) => [Number((record as any).id), record as any]));
      for (const row of rows) {
        for (const relation of relations) {
          const api = row[relation.outputKey];
          const model = byId.get(row.id)?.[relation.name];
          const ids = (value: any) => (Array.isArray(value) ? value.map((item) => Number(item.id)) : value ? Number(value.id) : null);
          assert.equal(ids(model), ids(api), `${def.name} ${row.id}: ${relation.name}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 200, `compared ${compared} relations of records`);
  });

  /** The list path of a resource; a nested one under a parent that has such records (none: skipped). */
  async function listPath(def: typeof registry extends { get(name: string): infer D } ? D : never): Promise<string | undefined> {
    if (!def.parent) return def.path;
    const row = await app.knex(def.table).whereNotNull(def.parent.foreignKey).first(def.parent.foreignKey);
    return row ? def.path.replace(`{${def.parent.param}}`, String(row[def.parent.foreignKey])) : undefined;
  }

  test.run();
}
