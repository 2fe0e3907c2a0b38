// The engine's own "today" (engine/keys/company-today.ts) is the record's company's date, at a
// fixed moment: 2026-12-31 10:30 UTC is already 2027-01-01 at UTC+14 (Kiritimati) and still
// 2026-12-30 at UTC−11 (Pago Pago). A date defaulted to now, a date stamped by a flag, an
// action's `set: now` on a date and a sequence's `{year}` each follow the company's calendar; a
// record with no company follows the writer's default company.
import knexFactory, { type Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Behaviours } from '../../engine/behaviours/types.ts';
import type { Registry } from '../../engine/definition/registry.ts';
import { applySet } from '../../engine/keys/set.ts';
import { registerFormats } from '../../engine/schema/string-formats.ts';
import { definitionFixtures } from '../helpers/definition-fixtures.ts';
import { testUnits } from '../helpers/write-unit.ts';

const VISITS = `table: visits
label: Visit
path: /support/visits
operations: [list, create, show, update]
search: false
fields:
  company_id: { type: integer, nullable: true }
  name: { type: string, readOnly: true, sequence: { code: 'visits.{year}', prefix: 'V/{year}/' } }
  visit_on: { type: date, defaultFrom: { now: true } }
  done: { type: boolean, default: false }
  done_on: { type: date, stampedBy: done }
  closed_on: { type: date, readOnly: true, nullable: true }
actions:
  close: { set: { closed_on: now }, message: Visit closed. }
`;

const MOMENT = Date.parse('2026-12-31T10:30:00Z');
const ZONES: Record<number, string> = { 1: 'Pacific/Kiritimati', 2: 'Pacific/Pago_Pago' };
/** The writer's default company: a record with none is dated by it. */
const WRITERS_COMPANY = 2;

const test = suite('today in the record’s company’s time zone');
const fixtures = definitionFixtures('erp-company-today');
let knex: Knex;
let registry: Registry;
const behaviours: Behaviours = { hooks: {}, batches: {}, computed: {}, subqueries: {}, actions: {} };
const RealDate = Date;

/** Runs `work` with the clock stopped at MOMENT (every `new Date()` and `Date.now()` of the engine). */
async function atMoment<T>(work: () => Promise<T>): Promise<T> {
  class StoppedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(MOMENT);
      else super(...(args as [string]));
    }
    static override now() {
      return MOMENT;
    }
  }
  globalThis.Date = StoppedDate as DateConstructor;
  try {
    return await work();
  } finally {
    globalThis.Date = RealDate;
  }
}

const units = () =>
  testUnits(knex, registry, behaviours, undefined, {
    companyTimeZone: async (_db, companyId) => (companyId === null ? 'UTC' : ZONES[companyId]!),
    userCompany: WRITERS_COMPANY,
  });

const create = (values: Record<string, unknown>) => atMoment(() => units().run(({ context }) => context.records('support/visits').create(values)));
const stored = (id: number) => knex('visits').where('id', id).first();

test.before(async () => {
  registerFormats();
  const loaded = fixtures.load({ 'support/visits.yaml': VISITS });
  assert.ok(loaded.registry, JSON.stringify(loaded.problems));
  registry = loaded.registry!;
  knex = knexFactory({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  await knex.schema.createTable('visits', (table) => {
    table.increments('id');
    table.integer('company_id');
    table.string('name');
    table.date('visit_on');
    table.boolean('done');
    table.date('done_on');
    table.date('closed_on');
    table.datetime('created_at');
    table.datetime('updated_at');
  });
  await knex.schema.createTable('sequences', (table) => {
    table.increments('id');
    table.string('code');
    table.integer('company_id');
    table.string('prefix');
    table.integer('padding');
    table.integer('next_number');
    table.datetime('created_at');
    table.datetime('updated_at');
    table.unique(['code', 'company_id']);
  });
});

test.after(async () => {
  await knex?.destroy();
  fixtures.removeAll();
});

test('a company east of UTC: its record is dated and numbered in the new year while UTC is still in the old one', async () => {
  const row = await stored(await create({ company_id: 1, done: true }));
  assert.is(row.visit_on, '2027-01-01', 'defaultFrom: {now: true}');
  assert.is(row.done_on, '2027-01-01', 'stampedBy');
  assert.is(row.name, 'V/2027/00001', 'the sequence’s {year}');
  assert.ok(await knex('sequences').where({ code: 'visits.2027', company_id: 1 }).first(), 'the counter is the new year’s');
});

test('a company west of UTC: the day before UTC’s', async () => {
  const row = await stored(await create({ company_id: 2, done: true }));
  assert.is(row.visit_on, '2026-12-30');
  assert.is(row.done_on, '2026-12-30');
  assert.is(row.name, 'V/2026/00001');
});

test('a record of no company is dated by the writer’s default company', async () => {
  const row = await stored(await create({ done: true }));
  assert.is(row.visit_on, '2026-12-30');
  assert.is(row.done_on, '2026-12-30');
});

test('an action’s `set: now` on a date is the company’s today', async () => {
  const east = await create({ company_id: 1 });
  const west = await create({ company_id: 2 });
  const def = registry.get('support/visits');
  for (const id of [east, west]) {
    await atMoment(() => units().run(({ trx, changes }) => applySet({ trx, registry, changes }, def, def.actions.get('close')!, id)));
  }
  assert.is((await stored(east)).closed_on, '2027-01-01');
  assert.is((await stored(west)).closed_on, '2026-12-30');
});

test('without a calendar (no companies’ zones), every date is UTC’s', async () => {
  const id = await atMoment(() => testUnits(knex, registry, behaviours).run(({ context }) => context.records('support/visits').create({ company_id: 1, done: true })));
  const row = await stored(id);
  assert.is(row.visit_on, '2026-12-31');
  assert.is(row.done_on, '2026-12-31');
});

test.run();
