// A write's transaction, retried when the database chose it as a deadlock victim: InnoDB rolls
// the whole transaction back, so running it again is safe and the client never sees the 500.
import type { Knex } from 'knex';

const ATTEMPTS = 3;

export async function inTransaction<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await knex.transaction(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || (error as { code?: string }).code !== 'ER_LOCK_DEADLOCK') throw error;
    }
  }
}
