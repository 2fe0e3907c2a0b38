// The three-node Galera cluster the cluster suite runs on (test/cluster/galera.sh starts it; CI
// sets TEST_GALERA_URLS to its nodes' server URLs, comma-separated), and what the suite does with
// it: a fresh database on every node, a service process per node, a node leaving and rejoining.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { startService, type ServiceProcess } from '../helpers/service-process.ts';

const SCRIPT = fileURLToPath(new URL('./galera.sh', import.meta.url));

/** The nodes' server URLs (mysql://root@127.0.0.1:3311 ...), or none when no cluster runs. */
export function galeraNodes(): string[] {
  return (process.env.TEST_GALERA_URLS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}

/** A knex on one node, for what the suite reads or sets itself. */
export function nodeKnex(serverUrl: string, database?: string): Knex {
  const config = parseDatabaseUrl(`${serverUrl.replace(/\/$/, '')}/${database ?? 'mysql'}`);
  if (config.client !== 'mysql') throw new Error('TEST_GALERA_URLS holds mysql:// URLs');
  return knexFactory({
    client: 'mysql2',
    connection: { host: config.host, port: config.port, user: config.user, password: config.password, database, dateStrings: true },
    pool: { min: 0, max: 4 },
  });
}

export interface ClusterDatabase {
  name: string;
  /** The database's URL through each node. */
  urls: string[];
  /** A knex through each node. */
  knexes: Knex[];
  drop(): Promise<void>;
}

/** A new, empty database (created through the first node: the cluster replicates it). */
export async function clusterDatabase(name: string): Promise<ClusterDatabase> {
  const nodes = galeraNodes();
  const admin = nodeKnex(nodes[0]!);
  await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
  const knexes = nodes.map((node) => nodeKnex(node, name));
  return {
    name,
    urls: nodes.map((node) => `${node.replace(/\/$/, '')}/${name}`),
    knexes,
    async drop() {
      for (const knex of knexes) await knex.destroy();
      const admin = nodeKnex(nodes[0]!);
      await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.destroy();
    },
  };
}

/**
 * One service process per node, all started at the same moment. Load shedding is off: three
 * database nodes, three services and the suite share two cores, so event-loop delays say more
 * about the machine than about the service.
 */
export function startOnEveryNode(database: ClusterDatabase, env: Record<string, string> = {}): Promise<ServiceProcess[]> {
  return Promise.all(database.urls.map((url) => startService({ DATABASE_URL: url, MAX_EVENT_LOOP_DELAY_MS: '0', ...env })));
}

/** Node n (1-based) leaves the cluster cleanly, or comes back and waits until it is synced. */
export async function stopNode(n: number): Promise<void> {
  await promisify(execFile)('bash', [SCRIPT, 'node-stop', String(n), galeraDir()]);
}

export async function startNode(n: number): Promise<void> {
  await promisify(execFile)('bash', [SCRIPT, 'node-start', String(n), galeraDir()], { timeout: 120_000 });
}

function galeraDir(): string {
  return process.env.TEST_GALERA_DIR ?? '/tmp/erp-galera';
}

/**
 * Cuts node n off from the others without stopping it (Galera's gmcast.isolate): it becomes a
 * non-primary component, still answers `SELECT 1`, and refuses every table statement with 1047.
 */
export async function isolateNode(n: number, isolated: boolean): Promise<void> {
  const knex = nodeKnex(galeraNodes()[n - 1]!);
  try {
    await knex.raw(`SET GLOBAL wsrep_provider_options = 'gmcast.isolate=${isolated ? 1 : 0}'`);
  } finally {
    await knex.destroy();
  }
}

/**
 * Holds node n behind the cluster: FLUSH TABLES WITH READ LOCK desyncs a Galera node and pauses
 * its applying of what the other nodes commit, so that its reads lag for as long as the test
 * wants, deterministically. A session with causal reads waits on that node until resume().
 */
export async function holdBehind(n: number): Promise<{ resume(): Promise<void> }> {
  const knex = nodeKnex(galeraNodes()[n - 1]!);
  const connection = await knex.client.acquireConnection();
  const query = (sql: string) => new Promise<void>((resolve, reject) => connection.query(sql, (error: Error | null) => (error ? reject(error) : resolve())));
  await query('FLUSH TABLES WITH READ LOCK');
  return {
    async resume() {
      await query('UNLOCK TABLES');
      await knex.client.releaseConnection(connection);
      await knex.destroy();
    },
  };
}

/** A node's wsrep status value, e.g. wsrep_local_state_comment. */
export async function nodeStatus(n: number, variable: string): Promise<string | undefined> {
  const knex = nodeKnex(galeraNodes()[n - 1]!);
  try {
    const [rows] = await knex.raw('SHOW GLOBAL STATUS LIKE ?', [variable]);
    return (rows as Array<{ Value: string }>)[0]?.Value;
  } finally {
    await knex.destroy();
  }
}

/** Waits until `check` holds, polling every 200 ms, for at most `ms`. */
export async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
}
