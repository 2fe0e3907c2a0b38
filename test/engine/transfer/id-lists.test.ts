// A record's own lists of ids through export and import (engine/transfer/id-lists.ts,
// export/export-rows.ts, import/resolve-id-lists.ts): a partner's tags export as their ids and,
// when `fields=` asks, their names; a file naming tags stores those tags (the names win over the
// ids beside them); an unknown name is the row's error and nothing is written; and an export reads
// the tags of a batch in one statement, so its statements do not grow with its rows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { parseCsv } from '../../../engine/transfer/import/parse-csv.ts';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';
import { countStatements } from '../../helpers/statements.ts';

const PARTNERS = `${API}/partners/partners`;
const TAGS = `${API}/partners/tags`;
const CSV = { 'content-type': 'text/csv' };
const JSONL = { 'content-type': 'application/x-ndjson' };

for (const target of databaseTargets()) {
  const test = suite(`a record's lists of ids through export and import [${target.name}]`);
  const run = `${target.name}-${Math.random().toString(36).slice(2, 7)}`;
  let app: TestApp & { token: string };
  const tags: Record<string, number> = {};
  const tagName = (name: string) => `${name} ${run}`;

  const exported = async (query: string) => {
    const response = await request(new URL(`${PARTNERS}/export?${query}`, app.client.baseUrl), { headers: { authorization: `Bearer ${app.token}` } });
    const text = await response.body.text();
    assert.is(response.statusCode, 200, text);
    return text;
  };
  const lines = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  const createPartner = async (name: string, tagIds: number[]) => {
    const response = await app.client.post(PARTNERS, { token: app.token, body: { account_type: 'company', name, tags: tagIds } });
    assert.is(response.status, 201, response.text);
    return response.body.data.id as number;
  };
  const importInto = (rawBody: string, headers = CSV, query: Record<string, string> = {}) => app.client.post(`${PARTNERS}/import`, { token: app.token, rawBody, headers, query });
  const partnersNamed = async (name: string) => (await app.knex('partners_partners').where({ name }).pluck('id')).map(Number);
  /** A partner's tags as a person reads them (GET with the include), by name. */
  const tagsOf = async (id: number) => {
    const shown = await app.client.get(`${PARTNERS}/${id}?include=tags`, { token: app.token });
    assert.is(shown.status, 200, shown.text);
    return (shown.body.data.tags as Array<{ name: string }>).map((tag) => tag.name).sort();
  };
  /** Statements run while `work` runs (every statement: knex's and the engine's prepared ones). */
  const counted = (work: () => Promise<unknown>) => countStatements(app.knex, work);

  test.before(async () => {
    app = await sharedApp(target);
    for (const name of ['VIP', 'Retail', 'Wholesale']) {
      const response = await app.client.post(TAGS, { token: app.token, body: { name: tagName(name) } });
      assert.is(response.status, 201, response.text);
      tags[name] = response.body.data.id;
    }
  });

  test('a partner with two tags exports their ids by default, and their names beside them when asked', async () => {
    const id = await createPartner(`Tagged ${run}`, [tags.Retail!, tags.VIP!]);
    const [plain] = lines(await exported(`format=jsonl&filter[id]=${id}`));
    // In the order of their ids, as the include shows them.
    assert.equal(plain.tags, [tags.VIP, tags.Retail]);
    assert.not.ok('tags_names' in plain, 'the names are not a default column');
    const named = lines(await exported(`format=jsonl&fields=id,tags,tags_names&filter[id]=${id}`));
    assert.equal(named, [{ id, tags: [tags.VIP, tags.Retail], tags_names: [tagName('VIP'), tagName('Retail')] }]);
    const csv = parseCsv(await exported(`format=csv&fields=id,tags,tags_names&filter[id]=${id}`));
    assert.equal(
      csv.map((row) => row.values),
      [{ id: String(id), tags: JSON.stringify([tags.VIP, tags.Retail]), tags_names: JSON.stringify([tagName('VIP'), tagName('Retail')]) }],
    );
    const untagged = await createPartner(`Untagged ${run}`, []);
    assert.equal(lines(await exported(`format=jsonl&fields=tags,tags_names&filter[id]=${untagged}`)), [{ tags: [], tags_names: [] }]);
  });

  test('a CSV naming tags stores those tags, the names winning over the ids beside them; JSON lines likewise, and an update', async () => {
    const name = `Imported ${run}`;
    const names = JSON.stringify([tagName('VIP'), tagName('Retail')]).replace(/"/g, '""');
    const csv = `account_type,name,tags,tags_names\ncompany,${name},"[99999999,${tags.Wholesale}]","${names}"\n`;
    const response = await importInto(csv);
    assert.is(response.status, 200, response.text);
    assert.equal(response.body.rejected, []);
    assert.is(response.body.created, 1);
    const [id] = await partnersNamed(name);
    assert.equal(await tagsOf(id!), [tagName('Retail'), tagName('VIP')]);

    // The ids alone (an export's column, or a comma list) are taken as they are.
    const byIds = `Imported by ids ${run}`;
    assert.is((await importInto(`account_type,name,tags\ncompany,${byIds},"${tags.Wholesale},${tags.VIP}"\n`)).status, 200);
    assert.equal(await tagsOf((await partnersNamed(byIds))[0]!), [tagName('VIP'), tagName('Wholesale')]);

    const jsonl = `${JSON.stringify({ id, tags_names: [tagName('Wholesale')] })}\n`;
    const updated = await importInto(jsonl, JSONL);
    assert.is(updated.status, 200, updated.text);
    assert.is(updated.body.updated, 1);
    assert.equal(await tagsOf(id!), [tagName('Wholesale')]);
  });

  test('an unknown tag name is the row’s error under tags_names (422), and nothing of the file is written', async () => {
    const good = `Not imported ${run}`;
    const bad = `Unknown tag ${run}`;
    const csv = [
      'account_type,name,tags,tags_names',
      `company,${good},,"[""${tagName('VIP')}""]"`,
      `company,${bad},"[${tags.VIP}]","[""${tagName('VIP')}"",""Gold ${run}""]"`,
      `company,${bad} 2,,VIP`,
      '',
    ].join('\n');
    const response = await importInto(csv);
    assert.is(response.status, 422, response.text);
    assert.equal(response.body.rejected, [
      { row: 3, errors: { tags_names: [`The tags name "Gold ${run}" matches no Tag record by name.`] } },
      { row: 4, errors: { tags_names: ['The tags names field must be a JSON list of names, as an export writes it (["VIP", "Retail"]).'] } },
    ]);
    assert.equal(await partnersNamed(good), []);
    assert.equal(await partnersNamed(bad), []);
  });

  test('an export reads the tags of its rows in one statement a batch: as many statements for 12 partners as for 2', async () => {
    const few = `Few ${run}`;
    const many = `Many ${run}`;
    for (let i = 0; i < 2; i++) await createPartner(`${few} ${i}`, [tags.VIP!, tags.Retail!]);
    for (let i = 0; i < 12; i++) await createPartner(`${many} ${i}`, i % 2 ? [tags.VIP!] : [tags.Retail!, tags.Wholesale!]);
    const exportOf = (name: string) => () => exported(`format=csv&fields=id,name,tags,tags_names&filter[name]=${encodeURIComponent(name)}`);
    await exportOf(few)(); // the token's and the permissions' reads, cached from then on
    const forFew = await counted(exportOf(few));
    const forMany = await counted(exportOf(many));
    assert.is(forMany, forFew, `${forMany} statements for 12 partners, ${forFew} for 2`);
    assert.is(parseCsv(await exportOf(many)()).length, 12);
  });

  test.run();
}
