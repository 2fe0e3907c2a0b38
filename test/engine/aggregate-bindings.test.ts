// An aggregate's constants (`where: {location.type: internal}`, `quantity: {'>': 0}`) reach the
// database as bindings, never inlined into its SQL. No database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { aggregateSql } from '../../engine/sql/aggregate.ts';
import { loadResources } from '../../src/app/build-app.ts';

const test = suite('aggregate bindings');
const registry = loadResources();

test('the where constants of an aggregate are bindings, in the order of their placeholders', () => {
  const def = registry.get('inventories/packages');
  const { sql, params } = aggregateSql(def, def.fields.get('product_count')!, registry, '`inventories_packages`');
  assert.not.match(sql, /internal|'/);
  assert.equal(params, [0, 'internal']);
  assert.is(sql.split('?').length - 1, params.length);
});

test('every aggregate of the definitions inlines no constant', () => {
  for (const def of registry.all()) {
    for (const field of def.fields.values()) {
      if (!field.aggregate) continue;
      const { sql, params } = aggregateSql(def, field, registry, '`t`');
      assert.not.match(sql, /'/, `${def.name}.${field.name}`);
      assert.is(sql.split('?').length - 1, params.length, `${def.name}.${field.name}`);
    }
  }
});

test.run();
