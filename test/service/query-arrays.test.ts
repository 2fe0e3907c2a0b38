// The array forms clients write for a list's parameters (axios and qs: `include[]=a&include[]=b`;
// PHP's http_build_query: `include[0]=a`) answer as the comma lists they stand for. Before, a list
// read them as unknown keys and answered every record, unsorted, without the includes asked.
// The query string is parsed before any database is reached: SQLite alone.
import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedApp, type TestApp } from '../helpers/app.ts';
import { asAdmin } from '../helpers/as-admin.ts';

const test = suite('query arrays');
let app: TestApp & { token: string };
const admin = asAdmin(() => app);
const word = `Qarr${randomBytes(4).toString('hex')}`;
const ids: number[] = [];
const PARTNERS = '/partners/partners';

test.before(async () => {
  app = await sharedApp({ name: 'sqlite', databaseUrl: 'sqlite::memory:' });
  const country = (await admin.get('/support/countries?per_page=1')).data[0].id;
  for (const name of ['Alpha', 'Beta', 'Gamma']) ids.push((await admin.created(PARTNERS, { name: `${word} ${name}`, account_type: 'company', country_id: country })).id);
});

/** The answer's status and body, with the links aside (they repeat the query as it was sent). */
async function listed(path: string) {
  const response = await admin.call('get', path);
  assert.is(response.status, 200, `${path}: ${response.text}`);
  const { links: _links, ...body } = response.body;
  if (body.meta?.links) body.meta = { ...body.meta, links: undefined, path: undefined };
  return body;
}

const mine = () => `filter[id]=${ids.join(',')}`;

test('include[]= and include[0]= ask for the same relations as include=a,b', async () => {
  const plain = await listed(`${PARTNERS}?search=${word}&include=country,creator`);
  assert.is(plain.data.length, 3);
  assert.ok(
    plain.data.every((row: any) => row.country?.id && row.creator?.id),
    'the comma list includes both',
  );
  assert.equal(await listed(`${PARTNERS}?search=${word}&include[]=country&include[]=creator`), plain);
  assert.equal(await listed(`${PARTNERS}?search=${word}&include[1]=creator&include[0]=country`), plain);
  assert.equal(await listed(`${PARTNERS}?search=${word}&include%5B%5D=country&include%5B%5D=creator`), plain, 'brackets percent-encoded');
  assert.equal(await listed(`${PARTNERS}?search=${word}&include%5b%5d=country&include%5b%5d=creator`), plain, 'in lower case too');
});

test('filter[id][]= is the comma list of the filter; sort[]= sorts; search[]= searches', async () => {
  const two = await listed(`${PARTNERS}?filter[id][]=${ids[0]}&filter[id][]=${ids[2]}`);
  assert.equal(
    two.data.map((row: any) => row.id),
    [ids[0], ids[2]],
  );
  assert.equal(two, await listed(`${PARTNERS}?filter[id]=${ids[0]},${ids[2]}`));
  const sorted = await listed(`${PARTNERS}?filter[id]=${ids.join(',')}&sort[]=-name`);
  assert.equal(
    sorted.data.map((row: any) => row.name),
    ['Gamma', 'Beta', 'Alpha'].map((name) => `${word} ${name}`),
  );
  const searched = await listed(`${PARTNERS}?search[]=${word}`);
  assert.equal(searched.meta.total, 3, 'only the partners with the word, not every partner');
});

test('page[]= and per_page[]= page as the plain keys do', async () => {
  const paged = await listed(`${PARTNERS}?${mine()}&page[]=2&per_page[]=1`);
  assert.equal([paged.meta.current_page, paged.meta.per_page, paged.data.length, paged.data[0].id], [2, 1, 1, ids[1]]);
});

test('a grouped total reads group_by[]= and measures[]= as the comma lists', async () => {
  const plain = await listed(`${PARTNERS}/aggregate?search=${word}&group_by=account_type,country&measures=count,name:count_distinct`);
  assert.equal(plain.meta.group_by, ['account_type', 'country']);
  assert.is(plain.data[0].measures.count, 3);
  assert.equal(await listed(`${PARTNERS}/aggregate?search=${word}&group_by[]=account_type&group_by[]=country&measures[0]=count&measures[1]=name:count_distinct`), plain);
});

test('keys that name an object property fold like any other, without changing the answer', async () => {
  const plain = await listed(`${PARTNERS}?${mine()}`);
  assert.equal(await listed(`${PARTNERS}?${mine()}&__proto__[]=1&constructor[0]=2&toString[]=3`), plain);
  const unknown = await admin.call('get', `${PARTNERS}?filter[0]=x`);
  assert.is(unknown.status, 400, 'an index on filter is no filter name');
});

test.run();
