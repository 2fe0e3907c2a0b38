// `npm run bench:cluster`: the UOM show, list and create of `npm run bench` with one process on one
// MariaDB server beside three processes on the three nodes of a Galera cluster (the load shared
// among them, as a load balancer would), and one process on one node with and without causal
// reads (DB_CAUSAL_READS): what scaling out across nodes gives, and what reading one's own writes
// through any node costs.
//   npm run bench:cluster -- --galera mysql://root@127.0.0.1:3311,mysql://root@127.0.0.1:3312,mysql://root@127.0.0.1:3313
//     [--mysql mysql://root@127.0.0.1:3306] [--uoms 10000] [--duration 10] [--connections 48]
// Start a cluster on this machine with `bash test/cluster/galera.sh start`. Every process and node
// shares this machine's cores, so the figures compare setups, not capacities.
import type { ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { benchLogin, measure, prepareBenchDatabase, startBenchServer, stopBenchServer, uomScenarios, type Measured } from './load.ts';

const { values: options } = parseArgs({
  options: {
    galera: { type: 'string' },
    mysql: { type: 'string', default: 'mysql://root@127.0.0.1:3306' },
    uoms: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '48' },
  },
});
if (!options.galera) {
  console.error('--galera needs the nodes, e.g. mysql://root@127.0.0.1:3311,mysql://root@127.0.0.1:3312,mysql://root@127.0.0.1:3313');
  process.exit(2);
}
const nodes = options.galera.split(',').map((url) => url.trim().replace(/\/$/, ''));
const DATABASE = 'erp_bench_cluster';

interface Setup {
  name: string;
  urls: string[];
  env?: Record<string, string>;
}

/** One row per setup: its processes started, each scenario measured against all of them, stopped. */
async function run(setup: Setup): Promise<Measured[]> {
  const servers: ChildProcess[] = [];
  try {
    for (const [i, url] of setup.urls.entries()) servers.push(await startBenchServer({ DATABASE_URL: url, PORT: String(3920 + i), ...setup.env }));
    const bases = setup.urls.map((_, i) => `http://127.0.0.1:${3920 + i}/admin/api/v1`);
    const token = await benchLogin(bases[0]!);
    const results = [];
    for (const scenario of await uomScenarios(bases[0]!, token)) {
      results.push(
        await measure(
          scenario,
          bases,
          token,
          servers.map((server) => server.pid!),
          { duration: Number(options.duration), connections: Number(options.connections) },
        ),
      );
    }
    return results;
  } finally {
    for (const server of servers) await stopBenchServer(server);
  }
}

async function main(): Promise<void> {
  const single = `${options.mysql.replace(/\/$/, '')}/${DATABASE}`;
  await prepareBenchDatabase(single, Number(options.uoms));
  await prepareBenchDatabase(`${nodes[0]}/${DATABASE}`, Number(options.uoms));
  const setups: Setup[] = [
    { name: 'one process, one server', urls: [single] },
    { name: `${nodes.length} processes, ${nodes.length} Galera nodes`, urls: nodes.map((node) => `${node}/${DATABASE}`) },
    { name: 'one process, one Galera node, causal reads', urls: [`${nodes[0]}/${DATABASE}`] },
    { name: 'one process, one Galera node, DB_CAUSAL_READS=off', urls: [`${nodes[0]}/${DATABASE}`], env: { DB_CAUSAL_READS: 'off' } },
  ];
  const rows: Array<{ setup: string; results: Measured[] }> = [];
  for (const setup of setups) rows.push({ setup: setup.name, results: await run(setup) });
  const cell = (r: Measured) => `${r.rps} (p99 ${r.p99} ms${r.non2xx > 0 ? `, ${r.non2xx} non-2xx` : ''})`;
  console.log(`\n| Setup | ${rows[0]!.results.map((r) => `${r.name} req/s`).join(' | ')} |\n|---|${rows[0]!.results.map(() => '---:').join('|')}|`);
  for (const row of rows) console.log(`| ${row.setup} | ${row.results.map(cell).join(' | ')} |`);
  console.log(`\n(${options.uoms} UOMs, ${options.duration} s per request, ${options.connections} connections shared among the processes.)`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
