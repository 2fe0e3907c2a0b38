// `npm run smoke -- --base-url URL --email E --password P [--metrics-token T]`: runs the
// installation's Postman collection against it; exits 1 when a request does not answer as documented.
import { parseArgs } from 'node:util';
import { runSmoke } from './run-collection.ts';

const USAGE = 'Usage: npm run smoke -- --base-url https://erp.example.com --email admin@example.com --password P [--metrics-token T]';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string', default: process.env.SMOKE_BASE_URL ?? 'http://127.0.0.1:3000' },
      email: { type: 'string', default: process.env.SMOKE_EMAIL ?? 'admin@example.com' },
      // From the environment rather than the command line when it should stay out of shell history.
      password: { type: 'string', default: process.env.SMOKE_PASSWORD },
      'metrics-token': { type: 'string', default: process.env.METRICS_TOKEN },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.password) {
    console.error(values.help ? USAGE : `--password (or SMOKE_PASSWORD) is required.\n${USAGE}`);
    return values.help ? 0 : 2;
  }
  const result = await runSmoke({
    baseUrl: values['base-url']!,
    email: values.email!,
    password: values.password,
    metricsToken: values['metrics-token'],
    report: true,
  });
  if (result.failures.length > 0) {
    console.error(`Smoke test failed: ${result.failures.length} failed checks in ${result.requests} requests.`);
    return 1;
  }
  console.log(`Smoke test passed: ${result.requests} requests answered as documented.`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`Smoke test could not run: ${error.message}`);
    process.exit(2);
  },
);
