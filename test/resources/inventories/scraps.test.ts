// Scraps on the stock ledger: their defaults, validation moving stock to the scrap location
// through a done move (lots and packages included), refusals that change nothing, and two
// validations at once never scrapping more than is there.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`inventory scraps [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const patch = (path: string, body: unknown) => app.client.send('PATCH', `${API}${path}`, { token: app.token, body });
  const get = (path: string) => app.client.get(`${API}${path}`, { token: app.token });
  let productCount = 0;
  const product = async (name: string, extra: Record<string, unknown> = {}) => {
    const response = await post('/inventories/products', { type: 'goods', name: `${name} ${target.name} ${++productCount}`, price: 10, category_id: ids.category, ...extra });
    assert.is(response.status, 201, response.text);
    return response.body.data.id as number;
  };
  const act = async (path: string, expected = 200) => {
    const response = await post(path);
    assert.is(response.status, expected, `${path}: ${response.text}`);
    return response.body;
  };
  /** Counts `quantity` of the product (lot, package) into WH/Stock and applies the count. */
  const count = async (productId: number, quantity: number, extra: Record<string, unknown> = {}) => {
    const counted = await post('/inventories/quantities', { product_id: productId, location_id: ids.stock, counted_quantity: quantity, ...extra });
    assert.is(counted.status, 201, counted.text);
    await act(`/inventories/quantities/${counted.body.data.id}/apply`);
    return counted.body.data.id as number;
  };
  /** What /inventories/quantities shows for the product at WH/Stock: [lot_id, package_id, quantity, reserved] per row. */
  const stock = async (productId: number) =>
    (await get(`/inventories/quantities?filter[product_id]=${productId}&filter[location_id]=${ids.stock}&sort=id`)).body.data.map((row: any) => [
      row.lot_id,
      row.package_id,
      row.quantity,
      row.reserved_quantity,
    ]);
  const scrap = async (body: Record<string, unknown>) => {
    const response = await post('/inventories/scraps', body);
    assert.is(response.status, 201, response.text);
    return response.body.data;
  };

  test.before(async () => {
    app = await sharedApp(target);
    ids.category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.stock = (await app.knex('inventories_locations').where('full_name', 'WH/Stock').first('id')).id;
    ids.scrap = (await app.knex('inventories_locations').where('is_scrap', true).orderBy('id').first('id')).id;
    ids.company = (await app.knex('companies').orderBy('id').first('id')).id;
  });

  test('a scrap left to its defaults: the product unit, WH/Stock, the scrap location, the company and an SP/ name', async () => {
    const vase = await product('Vase');
    const created = await post('/inventories/scraps?include=uom,sourceLocation,destinationLocation', { product_id: vase, qty: 2 });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Scrap created successfully.');
    const data = created.body.data;
    const stored = await app.knex('products_products').where('id', vase).first('uom_id');
    assert.equal(
      [data.state, data.qty, data.uom_id, data.source_location_id, data.destination_location_id, data.company_id, data.closed_at],
      ['draft', 2, stored.uom_id, ids.stock, ids.scrap, ids.company, null],
    );
    assert.match(data.name, /^SP\/\d{5}$/);
    assert.is(data.source_location.full_name, 'WH/Stock');
    const next = await scrap({ product_id: vase, qty: 1 });
    assert.is(Number(next.name.slice(3)), Number(data.name.slice(3)) + 1, 'names follow the sequence');
    // The stored unit is the fallback on update (the original asks for the product or unit again).
    const updated = await patch(`/inventories/scraps/${data.id}`, { qty: 3 });
    assert.is(updated.status, 200, updated.text);
    assert.equal([updated.body.data.qty, updated.body.data.uom_id, updated.body.message], [3, stored.uom_id, 'Scrap updated successfully.']);
  });

  test('bad references and locations of two companies answer 422 with the field', async () => {
    const vase = await product('Vase');
    const other = await product('Bowl');
    const lot = await post('/inventories/lots', { name: 'L-OTHER', product_id: other });
    assert.is(lot.status, 201, lot.text);
    const wrongLot = await post('/inventories/scraps', { product_id: vase, qty: 1, lot_id: lot.body.data.id });
    assert.equal([wrongLot.status, wrongLot.body.errors], [422, { lot_id: ['The lot is not a lot of this product.'] }]);
    const small = await post('/inventories/scraps', { product_id: vase, qty: 0.5 });
    assert.is(small.status, 422);
    assert.ok(small.body.errors.qty, 'qty below 1');
    const { currency_id } = await app.knex('companies').where('id', ids.company).first('currency_id');
    const [company] = await app
      .knex('companies')
      .insert({ name: `Other company ${target.name}`, currency_id, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00' });
    const [elsewhere] = await app.knex('inventories_locations').insert({ name: 'Elsewhere', full_name: 'Elsewhere', type: 'inventory', is_scrap: true, company_id: company });
    // A lot of the user's company for a product of another company (the original's CrossCompanyException).
    await app.knex('products_products').where('id', other).update({ company_id: company });
    const foreign = await post('/inventories/lots', { name: 'L-FOREIGN', product_id: other });
    assert.is(foreign.status, 422, foreign.text);
    assert.equal(foreign.body.errors.product_id, [`These records belong to a different company: Bowl ${target.name} ${productCount}. Change them or switch the company back.`]);
    const crossing = await post('/inventories/scraps', { product_id: vase, qty: 1, destination_location_id: elsewhere });
    assert.is(crossing.status, 422, crossing.text);
    assert.match(
      crossing.body.errors.destination_location_id[0],
      /^A transfer cannot move stock directly between locations that belong to different companies \(WH\/Stock and Elsewhere\)/,
    );
  });

  test('validate: the stock leaves WH/Stock through a done move listed in inventories/moves; a done scrap stays as it is', async () => {
    const vase = await product('Vase');
    await count(vase, 10);
    const draft = await scrap({ product_id: vase, qty: 3, origin: 'Broken in transit' });
    const validated = await act(`/inventories/scraps/${draft.id}/validate`);
    assert.is(validated.message, 'Scrap validated successfully.');
    assert.is(validated.data.state, 'done');
    assert.ok(validated.data.closed_at, 'closed_at is set');
    assert.equal(await stock(vase), [[null, null, 7, 0]]);
    const shown = await get(`/inventories/products/${vase}`);
    assert.is(shown.body.data.on_hand_quantity, 7);

    const moves = await get(`/inventories/moves?filter[scrap_id]=${draft.id}`);
    assert.equal(
      moves.body.data.map((move: any) => [move.name, move.state, move.quantity, move.is_scraped, move.source_location_id, move.destination_location_id, move.product_id]),
      [[draft.name, 'done', 3, true, ids.stock, ids.scrap, vase]],
    );

    assert.equal(await act(`/inventories/scraps/${draft.id}/validate`, 422), { message: 'Only draft scraps can be validated.' });
    const update = await patch(`/inventories/scraps/${draft.id}`, { qty: 1 });
    assert.equal([update.status, update.body], [422, { message: 'Done scraps cannot be updated.' }]);
    const remove = await app.client.delete(`${API}/inventories/scraps/${draft.id}`, { token: app.token });
    assert.equal([remove.status, remove.body], [422, { message: 'Done scraps cannot be deleted.' }]);
    assert.equal(await stock(vase), [[null, null, 7, 0]]);

    const other = await scrap({ product_id: vase, qty: 1 });
    const deleted = await app.client.delete(`${API}/inventories/scraps/${other.id}`, { token: app.token });
    assert.equal([deleted.status, deleted.body.message], [200, 'Scrap deleted successfully.']);
  });

  test('stock short of the scrap, reservations counted, is refused and nothing changes', async () => {
    const vase = await product('Vase');
    const none = await scrap({ product_id: vase, qty: 1 });
    assert.equal(await act(`/inventories/scraps/${none.id}/validate`, 422), { message: 'Insufficient source quantity for this scrap.' });
    await count(vase, 5);
    // A delivery reserves 4 of the 5: only 1 is free to scrap.
    const delivery = await post('/inventories/deliveries', { moves: [{ product_id: vase, product_uom_qty: 4 }] });
    assert.is(delivery.status, 201, delivery.text);
    await act(`/inventories/deliveries/${delivery.body.data.id}/todo`);
    assert.equal(await stock(vase), [[null, null, 5, 4]]);
    const two = await scrap({ product_id: vase, qty: 2 });
    assert.equal(await act(`/inventories/scraps/${two.id}/validate`, 422), { message: 'Insufficient source quantity for this scrap.' });
    assert.equal(await stock(vase), [[null, null, 5, 4]]);
    assert.is((await get(`/inventories/scraps/${two.id}`)).body.data.state, 'draft');
    assert.is((await get(`/inventories/moves?filter[scrap_id]=${two.id}`)).body.meta.total, 0);
    const one = await scrap({ product_id: vase, qty: 1 });
    await act(`/inventories/scraps/${one.id}/validate`);
    assert.equal(await stock(vase), [[null, null, 4, 4]]);
  });

  test('a lot-tracked product: the scrap names its lot, and only that lot is scrapped', async () => {
    const wine = await product('Wine', { tracking: 'lot' });
    const missing = await post('/inventories/scraps', { product_id: wine, qty: 1 });
    assert.is(missing.status, 422, missing.text);
    assert.ok(missing.body.errors.lot_id, 'lot_id is named');
    const lot = async (name: string) => {
      const response = await post('/inventories/lots', { name, product_id: wine });
      assert.is(response.status, 201, response.text);
      return response.body.data.id as number;
    };
    const [a, b] = [await lot('L-A'), await lot('L-B')];
    await count(wine, 5, { lot_id: a });
    await count(wine, 2, { lot_id: b });
    // A count of lot A again updates its row (upsertOn with the lot).
    await count(wine, 6, { lot_id: a });
    assert.equal(await stock(wine), [
      [a, null, 6, 0],
      [b, null, 2, 0],
    ]);
    const shown = await get(`/inventories/lots/${a}?include=location,product`);
    assert.equal([shown.body.data.quantity, shown.body.data.location_id, shown.body.data.location.full_name, shown.body.data.product.id], [6, ids.stock, 'WH/Stock', wine]);

    const tooMuch = await scrap({ product_id: wine, qty: 3, lot_id: b });
    assert.equal(await act(`/inventories/scraps/${tooMuch.id}/validate`, 422), { message: 'Insufficient source quantity for this scrap.' });
    const fromA = await scrap({ product_id: wine, qty: 4, lot_id: a });
    await act(`/inventories/scraps/${fromA.id}/validate`);
    assert.equal(await stock(wine), [
      [a, null, 2, 0],
      [b, null, 2, 0],
    ]);
    const move = (await get(`/inventories/moves?filter[scrap_id]=${fromA.id}&include=lot`)).body.data[0];
    assert.equal([move.lot_id, move.lot.name], [a, 'L-A']);
    const lots = await get(`/inventories/lots?filter[product_id]=${wine}&sort=id`);
    assert.equal(
      lots.body.data.map((row: any) => [row.name, row.quantity]),
      [
        ['L-A', 2],
        ['L-B', 2],
      ],
    );
  });

  test('a lot or package still in stock quantities or moves cannot be deleted (409); an unused one can', async () => {
    const wine = await product('Wine', { tracking: 'lot' });
    const used = (await post('/inventories/lots', { name: 'L-USED', product_id: wine })).body.data.id;
    const unused = (await post('/inventories/lots', { name: 'L-UNUSED', product_id: wine })).body.data.id;
    const box = (await post('/inventories/packages', { name: 'BOX-1' })).body.data.id;
    await count(wine, 3, { lot_id: used, package_id: box });
    const lotDelete = await app.client.delete(`${API}/inventories/lots/${used}`, { token: app.token });
    assert.is(lotDelete.status, 409, lotDelete.text);
    assert.match(lotDelete.body.message, /Lot cannot be deleted/);
    const packageDelete = await app.client.delete(`${API}/inventories/packages/${box}`, { token: app.token });
    assert.is(packageDelete.status, 409, packageDelete.text);
    const fine = await app.client.delete(`${API}/inventories/lots/${unused}`, { token: app.token });
    assert.equal([fine.status, fine.body.message], [200, 'Lot deleted successfully.']);

    const shown = await get(`/inventories/packages/${box}`);
    assert.equal([shown.body.data.quantity, shown.body.data.product_count, shown.body.data.location_id], [3, 1, ids.stock]);
    assert.ok(shown.body.data.pack_date, 'packed when stock went in');
    // The package's stock is scrapped by naming it; the package is then empty and nowhere.
    const scrapped = await scrap({ product_id: wine, qty: 3, lot_id: used, package_id: box });
    await act(`/inventories/scraps/${scrapped.id}/validate`);
    const emptied = await get(`/inventories/packages/${box}`);
    assert.equal([emptied.body.data.quantity, emptied.body.data.product_count, emptied.body.data.location_id], [0, 0, null]);
  });

  test('two scraps that together exceed the stock, validated at once: one is refused, the stock never negative', async () => {
    const plate = await product('Plate');
    await count(plate, 10);
    const [first, second] = [await scrap({ product_id: plate, qty: 6 }), await scrap({ product_id: plate, qty: 6 })];
    const results = await Promise.all([post(`/inventories/scraps/${first.id}/validate`), post(`/inventories/scraps/${second.id}/validate`)]);
    assert.equal(results.map((r) => r.status).sort(), [200, 422], results.map((r) => r.text).join(' | '));
    assert.equal(await stock(plate), [[null, null, 4, 0]]);
  });

  test('a location names its storage category', async () => {
    const category = await post('/inventories/storage-categories', { name: 'Cold room', allow_new_products: 'mixed', max_weight: 500 });
    assert.is(category.status, 201, category.text);
    assert.equal([category.body.data.max_weight, category.body.data.company_id, category.body.message], ['500.0000', ids.company, 'Storage category created successfully.']);
    const location = await post('/inventories/locations', { name: 'Fridge', type: 'internal', parent_id: ids.stock, storage_category_id: category.body.data.id });
    assert.is(location.status, 201, location.text);
    const shown = await get(`/inventories/locations/${location.body.data.id}?include=storageCategory`);
    assert.equal([shown.body.data.storage_category_id, shown.body.data.storage_category.name], [category.body.data.id, 'Cold room']);
    const listed = await get(`/inventories/storage-categories/${category.body.data.id}?include=locations`);
    assert.equal(
      listed.body.data.locations.map((row: any) => row.name),
      ['Fridge'],
    );
  });

  test('a list of lots with their quantities takes as many statements for 12 lots as for 2', async () => {
    const wine = await product('Counted wine', { tracking: 'lot' });
    const statements = async () => {
      let n = 0;
      const listener = () => n++;
      app.knex.on('query', listener);
      try {
        const response = await get(`/inventories/lots?filter[product_id]=${wine}&include=product,location&per_page=50`);
        assert.is(response.status, 200, response.text);
      } finally {
        app.knex.off('query', listener);
      }
      return n;
    };
    for (let i = 0; i < 2; i++) await count(wine, 1 + i, { lot_id: (await post('/inventories/lots', { name: `C-${i}`, product_id: wine })).body.data.id });
    const few = await statements();
    for (let i = 2; i < 12; i++) await count(wine, 1 + i, { lot_id: (await post('/inventories/lots', { name: `C-${i}`, product_id: wine })).body.data.id });
    const many = await statements();
    assert.is(many, few);
    const listed = await get(`/inventories/lots?filter[product_id]=${wine}&per_page=50&sort=id`);
    assert.equal(
      listed.body.data.map((row: any) => row.quantity),
      Array.from({ length: 12 }, (_, i) => 1 + i),
    );
  });

  test.run();
}
