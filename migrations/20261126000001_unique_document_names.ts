// Document names come from their sequence, one number per document: a unique key on each
// company's names is the backstop that no path (a sequence edited by hand, a future behaviour,
// several processes or cluster nodes at once) can store a name twice.
import type { Knex } from 'knex';

const DOCUMENTS = ['inventories_operations', 'sales_orders'];

export async function up(knex: Knex): Promise<void> {
  for (const table of DOCUMENTS) {
    await knex.schema.alterTable(table, (t) => {
      t.unique(['company_id', 'name'], { indexName: `${table}_company_id_name_unique` });
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of DOCUMENTS) {
    await knex.schema.alterTable(table, (t) => {
      t.dropUnique(['company_id', 'name'], `${table}_company_id_name_unique`);
    });
  }
}
