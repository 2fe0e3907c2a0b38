// A unit that writes one record twice leaves one change of it (engine/changes/record-changes.ts),
// and that change names the fields of both writes: a consumer that syncs only the changed fields
// would otherwise miss the second write's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { distinct } from '../../engine/changes/record-changes.ts';

test('two updates of one record: one change naming the fields of both', () => {
  const kept = distinct([
    { resource: 'sales/orders', id: 1, kind: 'updated', changed: ['state'] },
    { resource: 'sales/orders', id: 2, kind: 'updated', changed: ['note'] },
    { resource: 'sales/orders', id: 1, kind: 'updated', changed: ['amount_total', 'state'] },
  ]);
  assert.equal(kept, [
    { resource: 'sales/orders', id: 1, kind: 'updated', changed: ['state', 'amount_total'] },
    { resource: 'sales/orders', id: 2, kind: 'updated', changed: ['note'] },
  ]);
});

test('an update that does not say what it changed: the fields are not known', () => {
  const kept = distinct([
    { resource: 'sales/orders', id: 1, kind: 'updated', changed: ['state'] },
    { resource: 'sales/orders', id: 1, kind: 'updated' },
  ]);
  assert.equal(kept, [{ resource: 'sales/orders', id: 1, kind: 'updated' }]);
});

test('a created record stays created: its later updates in the unit are part of it', () => {
  const kept = distinct([
    { resource: 'sales/orders', id: 1, kind: 'created' },
    { resource: 'sales/orders', id: 1, kind: 'updated', changed: ['state'] },
  ]);
  assert.equal(kept, [{ resource: 'sales/orders', id: 1, kind: 'created' }]);
});

test.run();
