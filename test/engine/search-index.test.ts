// The index `search=` reads follows every kind of write, on each database (engine/sql/search-index.ts:
// the (word, id) pairs the engine writes): a record written through the pipeline, renamed one by
// one or set-based, filled after a direct insert, and removed for good. What is asserted is what a
// search finds: the ids the list's condition selects. And a database whose words had the index of
// before the pairs gets them from its migration: MariaDB's FULLTEXT from 20261206000002, SQLite's
// FTS5 from 20261206000003.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Behaviours, Records } from '../../engine/behaviours/types.ts';
import { loadRegistry } from '../../engine/keys/registry.ts';
import type { Registry } from '../../engine/definition/registry.ts';
import { parseSearch, storedWords } from '../../engine/definition/search-words.ts';
import { registerFormats } from '../../engine/schema/string-formats.ts';
import { addSearchIndex, fillSearchWords, searchCondition } from '../../engine/sql/search-index.ts';
import { createKnex } from '../../src/database/connection.ts';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { databaseTargets, freshDatabase } from '../helpers/targets.ts';
import { testUnits } from '../helpers/write-unit.ts';
import * as pairsMigration from '../../migrations/20261206000002_search_word_pairs.ts';
import * as sqlitePairsMigration from '../../migrations/20261206000003_sqlite_word_pairs.ts';

const NOTES = `table: notes
label: Note
path: /support/notes
operations: [list, show, delete, forceDelete]
softDelete: true
fields:
  title: { type: string, required: true, maxLength: 60 }
  priority: { type: integer, default: 3 }
`;
const NONE: Behaviours = { hooks: {}, batches: {}, computed: {}, subqueries: {}, actions: {} };

for (const target of databaseTargets()) {
  const test = suite(`search index [${target.name}]`);
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let knex: Knex;
  let registry: Registry;
  let dir: string;

  const inUnit = <T>(work: (records: Records) => Promise<T>) => testUnits(knex, registry, NONE).run((unit) => work(unit.context.records));
  /** The ids of notes a `search=` of `terms` finds, as a list's condition selects them. */
  const found = async (terms: string): Promise<number[]> => {
    const parsed = parseSearch(terms);
    if ('error' in parsed) throw new Error(parsed.error);
    const where = searchCondition('notes', parsed.terms);
    return (
      await knex('notes')
        .whereRaw(where.sql, where.params as Knex.RawBinding[])
        .orderBy('id')
        .pluck('id')
    ).map(Number);
  };

  test.before(async () => {
    registerFormats();
    dir = mkdtempSync(join(tmpdir(), 'erp-search-index-'));
    mkdirSync(dirname(join(dir, 'support/notes.yaml')), { recursive: true });
    writeFileSync(join(dir, 'support/notes.yaml'), NOTES);
    registry = loadRegistry(dir, new Set());
    database = await freshDatabase(target, 'search_index');
    knex = createKnex(parseDatabaseUrl(database.target.databaseUrl));
    await knex.schema.createTable('notes', (table) => {
      table.increments('id');
      table.string('title', 60);
      table.integer('priority');
      table.datetime('deleted_at');
      table.datetime('created_at');
      table.datetime('updated_at');
    });
    await addSearchIndex(knex, 'notes');
  });

  test.after(async () => {
    await knex?.destroy();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a record is found by the start of each word it was created with, and by nothing else', async () => {
    const id = await inUnit((records) => records('support/notes').create({ title: 'Café Zürich Nord' }));
    assert.equal(await found('zur'), [id]);
    assert.equal(await found('CAFE nord'), [id]);
    assert.equal(await found('rich'), [], 'the start of a word, not its middle');
    assert.equal(await found('zur sud'), [], 'every term is required');
  });

  test('renamed one by one or set-based, a record is found by its new words and no longer by its old ones', async () => {
    const [first, second] = await inUnit(async (records) => [
      await records('support/notes').create({ title: 'Lyon Est' }),
      await records('support/notes').create({ title: 'Lyon Ouest' }),
    ]);
    assert.equal(await found('lyon'), [first, second]);
    await inUnit((records) => records('support/notes').update(first!, { title: 'Genève Est' }));
    assert.equal(await found('lyon'), [second]);
    assert.equal(await found('geneve'), [first]);
    await inUnit(async (records) => void (await records('support/notes').updateMany([first!, second!], { title: 'Straße Basel' })));
    assert.equal(await found('lyon'), []);
    assert.equal(await found('strasse basel'), [first, second]);
    await inUnit((records) => records('support/notes').updateEach([{ id: second!, values: { title: 'Øresund', priority: 1 } }]));
    assert.equal(await found('basel'), [first]);
    assert.equal(await found('oresund'), [second]);
    // A set-based write of other fields leaves the words as they are.
    await inUnit(async (records) => void (await records('support/notes').updateMany([first!, second!], { priority: 2 })));
    assert.equal(await found('basel'), [first]);
    assert.equal(await found('oresund'), [second]);
  });

  test('a row written without the pipeline is found once its words are filled', async () => {
    const [inserted] = await knex('notes').insert({ title: 'Kraków Hafen', priority: 3 });
    const id = Number(inserted);
    assert.equal(await found('krakow'), [], 'no words yet');
    const filled = await fillSearchWords(knex, 'notes', ['title'], (row) => storedWords([row.title]), { missingOnly: true });
    assert.is(filled, 1);
    assert.equal(await found('krakow hafen'), [id]);
  });

  test('a record removed for good takes its words with it', async () => {
    const id = await inUnit((records) => records('support/notes').create({ title: 'Xylander Gone' }));
    assert.equal(await found('xylander'), [id]);
    await inUnit((records) => records('support/notes').forceDeleteMany((query) => query.where('notes.id', id)));
    assert.equal(await found('xylander'), []);
    assert.equal(await knex('notes_search').where('id', id).pluck('word'), [], 'no pair is left behind for an id the table could give again');
  });

  /**
   * On a migrated copy set back to the index of before the pairs (`setBack`), a partner stored then
   * is found by its words once `migrate` has run, and nothing of the old index is left (`oldIndex`).
   */
  const becomesPairs = (setBack: (other: Knex) => Promise<void>, migrate: (other: Knex) => Promise<void>, oldIndex: (other: Knex) => Promise<string[]>) => async () => {
    const migrated = await freshDatabase(target, 'search_pairs_migration', { migrated: true });
    const other = createKnex(parseDatabaseUrl(migrated.target.databaseUrl));
    try {
      await setBack(other);
      const [id] = await other('partners_partners').insert({
        account_type: 'company',
        sub_type: 'partner',
        name: 'Ärzte Zürich AG',
        is_active: true,
        search_words: storedWords(['Ärzte Zürich AG']),
      });
      assert.ok((await oldIndex(other)).length > 0, 'the database is set back to the old index');
      await migrate(other);
      assert.equal(await oldIndex(other), [], 'nothing of the old index is left');
      const where = searchCondition('partners_partners', ['warzte', 'wzur']);
      assert.equal(
        (
          await other('partners_partners')
            .whereRaw(where.sql, where.params as Knex.RawBinding[])
            .pluck('id')
        ).map(Number),
        [Number(id)],
      );
    } finally {
      await other.destroy();
      await migrated.drop();
    }
  };

  if (target.name === 'mysql')
    test(
      'a database whose words had the FULLTEXT index gets word pairs from migration 20261206000002, filled',
      becomesPairs(
        // As 20261206000001 left a MariaDB database before the pairs: a FULLTEXT index and no pairs.
        async (other) => {
          await other.schema.dropTable('partners_partners_search');
          await other.raw('ALTER TABLE partners_partners ADD FULLTEXT INDEX partners_partners_search_words_fulltext (search_words)');
        },
        (other) => pairsMigration.up(other),
        async (other) =>
          (await other.raw("SELECT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND INDEX_TYPE = 'FULLTEXT'"))[0].map(
            (row: { name: string }) => row.name,
          ),
      ),
    );

  if (target.name === 'sqlite')
    test(
      'a database whose words had FTS5 gets word pairs from migration 20261206000003, filled',
      becomesPairs(
        // As 20261206000001 left a SQLite database before the pairs: FTS5 and its triggers.
        (other) => sqlitePairsMigration.down(other),
        (other) => sqlitePairsMigration.up(other),
        async (other) => [
          ...(await other('sqlite_master').where('sql', 'like', 'CREATE VIRTUAL TABLE%fts5%').pluck('name')),
          ...(await other('sqlite_master').where('type', 'trigger').andWhere('name', 'like', '%search%').pluck('name')),
        ],
      ),
    );

  test.run();
}
