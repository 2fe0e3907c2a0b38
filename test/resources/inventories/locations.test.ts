// Locations form a tree: full_name and parent_path follow a location's name and parent, down to
// its sub-locations; a location cannot move under itself, and one with sub-locations is not
// deleted for good.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const LOCATIONS = `${API}/inventories/locations`;

for (const target of databaseTargets()) {
  const test = suite(`inventory locations [${target.name}]`);

  const stockLocation = async (client: any, token: string) => {
    const list = await client.get(`${LOCATIONS}?filter[barcode]=WHSTOCK`, { token });
    return list.body.data[0];
  };

  test('a sub-location of WH/Stock is named after it and takes its company and warehouse', async () => {
    const { client, token } = await sharedApp(target);
    const stock = await stockLocation(client, token);
    const shelf = await client.post(LOCATIONS, { token, body: { name: 'Shelf A', type: 'internal', parent_id: stock.id } });
    assert.is(shelf.status, 201, shelf.text);
    assert.is(shelf.body.message, 'Location created successfully.');
    const data = shelf.body.data;
    assert.is(data.full_name, 'WH/Stock/Shelf A');
    assert.is(data.parent_path, `${stock.parent_path}${data.id}/`);
    assert.is(data.company_id, stock.company_id);
    assert.is(data.warehouse_id, stock.warehouse_id);
    assert.is(data.is_scrap, false);

    const view = await client.post(LOCATIONS, { token, body: { name: 'Annex', type: 'view', parent_id: stock.id, company_id: null } });
    assert.is(view.body.data.full_name, 'Annex', 'a view location shows its own name');
    assert.is(view.body.data.company_id, null, 'a company sent (even null) wins');
    const root = await client.post(LOCATIONS, { token, body: { name: 'Overflow', type: 'internal' } });
    assert.is(root.body.data.full_name, 'Overflow');
    assert.is(root.body.data.parent_path, `${root.body.data.id}/`);
  });

  test('renaming or moving a location renames everything below it; it cannot move under itself', async () => {
    const { client, token } = await sharedApp(target);
    const stock = await stockLocation(client, token);
    const aisle = (await client.post(LOCATIONS, { token, body: { name: 'Aisle 1', type: 'internal', parent_id: stock.id } })).body.data;
    const shelf = (await client.post(LOCATIONS, { token, body: { name: 'Shelf 1', type: 'internal', parent_id: aisle.id } })).body.data;
    const bin = (await client.post(LOCATIONS, { token, body: { name: 'Bin 1', type: 'internal', parent_id: shelf.id } })).body.data;
    assert.is(bin.full_name, 'WH/Stock/Aisle 1/Shelf 1/Bin 1');

    const renamed = await client.put(`${LOCATIONS}/${aisle.id}`, { token, body: { name: 'Aisle 9' } });
    assert.is(renamed.status, 200, renamed.text);
    assert.is(renamed.body.data.full_name, 'WH/Stock/Aisle 9');
    assert.is((await client.get(`${LOCATIONS}/${bin.id}`, { token })).body.data.full_name, 'WH/Stock/Aisle 9/Shelf 1/Bin 1');

    const other = (await client.post(LOCATIONS, { token, body: { name: 'Cold room', type: 'internal', parent_id: stock.id } })).body.data;
    const moved = await client.put(`${LOCATIONS}/${shelf.id}`, { token, body: { parent_id: other.id } });
    assert.is(moved.status, 200, moved.text);
    assert.is(moved.body.data.full_name, 'WH/Stock/Cold room/Shelf 1');
    assert.is(moved.body.data.parent_path, `${other.parent_path}${shelf.id}/`);
    const movedBin = (await client.get(`${LOCATIONS}/${bin.id}`, { token })).body.data;
    assert.is(movedBin.full_name, 'WH/Stock/Cold room/Shelf 1/Bin 1');
    assert.is(movedBin.parent_path, `${other.parent_path}${shelf.id}/${bin.id}/`);

    for (const parentId of [shelf.id, bin.id]) {
      const cycle = await client.put(`${LOCATIONS}/${shelf.id}`, { token, body: { parent_id: parentId } });
      assert.is(cycle.status, 422, `parent ${parentId}`);
      assert.equal(cycle.body.errors, { parent_id: ['The parent id cannot be the location itself or one of its sub-locations.'] });
    }
  });

  test('a location with sub-locations, trashed ones included, is not deleted for good (409)', async () => {
    const { client, token } = await sharedApp(target);
    const parent = (await client.post(LOCATIONS, { token, body: { name: 'Mezzanine', type: 'view' } })).body.data;
    const child = (await client.post(LOCATIONS, { token, body: { name: 'Mezzanine rack', type: 'internal', parent_id: parent.id } })).body.data;
    assert.is((await client.delete(`${LOCATIONS}/${child.id}`, { token })).status, 200);
    const blocked = await client.delete(`${LOCATIONS}/${parent.id}/force`, { token });
    assert.is(blocked.status, 409, blocked.text);
    const listed = await client.get(`${LOCATIONS}/${parent.id}?include=children`, { token });
    assert.equal(listed.body.data.children, [], 'trashed sub-locations are not shown');
    assert.is((await client.delete(`${LOCATIONS}/${child.id}/force`, { token })).status, 200);
    const removed = await client.delete(`${LOCATIONS}/${parent.id}/force`, { token });
    assert.equal(removed.body, { message: 'Location permanently deleted successfully.' });
  });

  test('a location used by an operation type is not deleted for good (409)', async () => {
    const { client, token } = await sharedApp(target);
    const dock = (await client.post(LOCATIONS, { token, body: { name: `Dock ${target.name}`, type: 'internal' } })).body.data;
    const type = await client.post(`${API}/inventories/operation-types`, {
      token,
      body: { name: `Docking ${target.name}`, type: 'internal', sequence_code: 'DOCK', create_backorder: 'never', source_location_id: dock.id, destination_location_id: dock.id },
    });
    assert.is(type.status, 201, type.text);
    const blocked = await client.delete(`${LOCATIONS}/${dock.id}/force`, { token });
    assert.is(blocked.status, 409, blocked.text);
    assert.match(blocked.body.message, /^The Location cannot be deleted because it still has Operation type records/, blocked.body.message);
    assert.is((await client.get(`${LOCATIONS}/${dock.id}`, { token })).status, 200);
  });

  test.run();
}
