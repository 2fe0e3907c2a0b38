// The databases the suite runs on: SQLite always, MariaDB/MySQL when TEST_MYSQL_URL is set
// (test/run.ts creates a fresh database for the run and passes it as TEST_MYSQL_DATABASE_URL).
export interface Target {
  name: 'sqlite' | 'mysql';
  databaseUrl: string;
}

export function databaseTargets(): Target[] {
  const targets: Target[] = [{ name: 'sqlite', databaseUrl: 'sqlite::memory:' }];
  const mysql = process.env.TEST_MYSQL_DATABASE_URL;
  if (mysql) targets.push({ name: 'mysql', databaseUrl: mysql });
  return targets;
}
