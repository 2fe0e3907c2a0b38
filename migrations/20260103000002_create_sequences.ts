// Gap-free document numbering (WH/IN/00001, S00001), shared by stock operations and sales orders.
//
// One row per (code, company): `code` names what is numbered ("inventories.operation_type.<id>",
// "sales.order"); the next name is `prefix` + `next_number` left-padded with zeros to `padding`.
//
// Intended use, inside the transaction that writes the numbered document:
//   1. UPDATE sequences SET next_number = next_number + 1 WHERE id = ?
//      The UPDATE takes the row's exclusive lock (InnoDB) until commit, or the database's write
//      lock (SQLite, one writer at a time), so concurrent writers queue behind it;
//   2. SELECT next_number FROM sequences WHERE id = ?  (reads the transaction's own increment)
//      and use next_number - 1.
//   A rolled-back document rolls its increment back too, so no number is lost or given twice.
//   Never read-then-write (SELECT next_number, then UPDATE ... = value + 1): two transactions could
//   read the same value.
// A missing row is created with INSERT ... ON CONFLICT (code, company_id) DO NOTHING (INSERT IGNORE
// on MySQL) and then read with SELECT ... FOR UPDATE, which sees a row another transaction has just
// committed even under REPEATABLE READ. The unique key does not hold for company_id NULL (both
// databases treat NULLs as distinct), so callers should always pass a company.
import type { Knex } from 'knex';
import { foreignId, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sequences', (t) => {
    t.increments('id');
    t.string('code', 191).notNullable();
    foreignId(t, 'company_id', 'companies', 'CASCADE').nullable();
    t.string('prefix', 255).nullable();
    t.integer('padding').unsigned().notNullable().defaultTo(5);
    t.bigInteger('next_number').unsigned().notNullable().defaultTo(1);
    timestamps(t);
    t.unique(['code', 'company_id'], { indexName: 'sequences_code_company_id_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sequences');
}
