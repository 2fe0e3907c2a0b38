// The post-deploy check: the installation's own Postman collection (GET /api/docs.postman), run
// with newman against it. Every request must answer as documented; a failure names the request.
import newman from 'newman';

export interface SmokeOptions {
  baseUrl: string;
  email: string;
  password: string;
  /** When the installation sets METRICS_TOKEN. */
  metricsToken?: string;
  /** newman's CLI report on standard output (the command line); silent otherwise. */
  report?: boolean;
  /** Only these folders of the collection (by name, in the collection's order); all when absent. */
  folders?: string[];
}

export interface SmokeResult {
  requests: number;
  /** How many responses had each status, retries included (a 429 waited out shows here). */
  statuses: Record<number, number>;
  failures: Array<{ request: string; message: string }>;
}

export async function runSmoke(options: SmokeOptions): Promise<SmokeResult> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const response = await fetch(`${baseUrl}/api/docs.postman`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${baseUrl}/api/docs.postman answered ${response.status}`);
  const collection = await response.json();
  const envVar = [
    { key: 'baseUrl', value: baseUrl },
    { key: 'email', value: options.email },
    { key: 'password', value: options.password },
    { key: 'metricsToken', value: options.metricsToken ?? '' },
  ];
  return new Promise((resolve, reject) => {
    newman.run({ collection, envVar, reporters: options.report ? ['cli'] : [], timeoutRequest: 30_000, ...(options.folders && { folder: options.folders }) }, (error, summary) => {
      if (error) return reject(error);
      const statuses: Record<number, number> = {};
      for (const execution of summary.run.executions) {
        const code = execution.response?.code ?? 0;
        statuses[code] = (statuses[code] ?? 0) + 1;
      }
      resolve({
        requests: summary.run.executions.length,
        statuses,
        failures: summary.run.failures.map((failure) => ({
          request: (failure.source as { name?: string } | undefined)?.name ?? 'collection',
          message: failure.error.message,
        })),
      });
    });
  });
}
