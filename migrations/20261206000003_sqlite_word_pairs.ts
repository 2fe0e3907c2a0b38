// On SQLite, search reads the same (word, id) pairs as on MySQL/MariaDB (engine/sql/search-index.ts)
// instead of the FTS5 index 20261206000001 made: FTS5 wrote each transaction's words as a segment
// of its own at commit, which doubled the cost of a one-row create (60 µs against 32 with the
// pairs, docs/performance.md), and its triggers went with the table whenever SQLite rebuilt it
// for a migration. The pairs are filled from the words each row already stores. Nothing changes
// on MySQL/MariaDB (20261206000002).
import type { Knex } from 'knex';
import { addWordPairs, dialectOf, fillWordPairs } from '../engine/index.ts';

const TRIGGERS = ['insert', 'delete', 'update'] as const;

/** The searched tables whose words an FTS5 table indexes (`<table>_search`). */
async function withFts5(knex: Knex): Promise<string[]> {
  const rows: Array<{ name: string }> = await knex.raw(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_search' ESCAPE '\\' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'",
  );
  return rows.map((row) => row.name.slice(0, -'_search'.length));
}

/** The searched tables with word pairs. */
async function withPairs(knex: Knex): Promise<string[]> {
  const rows: Array<{ name: string }> = await knex.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_search' ESCAPE '\\' AND sql LIKE '%WITHOUT ROWID%'");
  return rows.map((row) => row.name.slice(0, -'_search'.length));
}

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'sqlite') return;
  // A database migrated after the pairs came has them from 20261206000001 already.
  for (const table of await withFts5(knex)) {
    for (const trigger of TRIGGERS) await knex.raw(`DROP TRIGGER IF EXISTS "${table}_search_${trigger}"`);
    await knex.raw(`DROP TABLE "${table}_search"`);
    await addWordPairs(knex, table);
    await fillWordPairs(knex, table);
  }
}

/** FTS5 as 20261206000001 made it before the pairs, with its triggers, filled from the stored words. */
export async function down(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'sqlite') return;
  for (const table of await withPairs(knex)) {
    const fts = `"${table}_search"`;
    await knex.raw(`DROP TABLE ${fts}`);
    await knex.raw(
      `CREATE VIRTUAL TABLE ${fts} USING fts5(search_words, content='${table}', content_rowid='id', tokenize='unicode61 remove_diacritics 0', detail=none, prefix='4 5')`,
    );
    const forget = `INSERT INTO ${fts} (${fts}, rowid, search_words) SELECT 'delete', old.id, old.search_words WHERE old.search_words IS NOT NULL;`;
    const learn = `INSERT INTO ${fts} (rowid, search_words) SELECT new.id, new.search_words WHERE new.search_words IS NOT NULL;`;
    await knex.raw(`CREATE TRIGGER "${table}_search_insert" AFTER INSERT ON "${table}" BEGIN ${learn} END`);
    await knex.raw(`CREATE TRIGGER "${table}_search_delete" AFTER DELETE ON "${table}" BEGIN ${forget} END`);
    await knex.raw(`CREATE TRIGGER "${table}_search_update" AFTER UPDATE OF search_words ON "${table}" BEGIN ${forget} ${learn} END`);
    await knex.raw(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`);
  }
}
