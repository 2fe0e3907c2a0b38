// Several processes starting at once on one MySQL/MariaDB database: migrations and seeding run in
// one of them at a time (a named server lock), so the reference data and the administrator exist
// once. On SQLite one process owns the file; knex's migration lock covers the rest.
import type { Knex } from 'knex';

const LOCK_NAME = 'erp_admin_api_boot';
const WAIT_SECONDS = 120;

export async function withBootLock<T>(knex: Knex, work: () => Promise<T>): Promise<T> {
  if (knex.client.config.client !== 'mysql2') return work();
  // The lock belongs to a session: it is taken and released on one connection held meanwhile.
  const connection = await knex.client.acquireConnection();
  const query = (sql: string) =>
    new Promise<any>((resolve, reject) => connection.query(sql, [LOCK_NAME], (error: Error | null, rows: any) => (error ? reject(error) : resolve(rows))));
  try {
    const [row] = await query(`SELECT GET_LOCK(?, ${WAIT_SECONDS}) AS acquired`);
    if (Number(row?.acquired) !== 1) throw new Error(`Another process held the start-up lock for ${WAIT_SECONDS} s; start again.`);
    try {
      return await work();
    } finally {
      await query('SELECT RELEASE_LOCK(?)');
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
