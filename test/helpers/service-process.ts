// The service as an operator runs it: a real process of the compiled sources (what `npm start`
// runs: ./built.ts), for the tests of several processes on one database and of the Galera cluster
// (test/cluster/).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { builtEntry } from './built.ts';
import { reapOnExit } from './reaped.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PROCESS_SECRET = 'processes-secret-processes-secret-0123456';
export const PROCESS_ADMIN = { email: 'admin@example.com', password: 'processes-password' };

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<number>;
}

/** Starts the compiled `src/main.ts` and resolves once it listens; rejects with its output if it exits first. */
export async function startService(env: Record<string, string>, { timeoutMs = 120_000 } = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [await builtEntry('src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'warn',
      JWT_SECRET: PROCESS_SECRET,
      ADMIN_PASSWORD: PROCESS_ADMIN.password,
      RATE_LIMIT_MAX: '1000000',
      LOGIN_RATE_LIMIT_MAX: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no start within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = () => {
      const match = /listening on (http:\/\/[^/\s]+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        child,
        baseUrl: match[1]!,
        exited,
        output: () => output,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
}

export interface Answer<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

/** One request to a service process; a refused connection answers status 0 rather than throwing. */
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; query?: Record<string, string | number>; timeoutMs?: number } = {},
): Promise<Answer<T>> {
  const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([key, value]) => [key, String(value)]))}` : '';
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await request(`${baseUrl}${path}${query}`, {
      method: method as 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      headersTimeout: options.timeoutMs ?? 30_000,
      bodyTimeout: options.timeoutMs ?? 30_000,
    });
    const text = await response.body.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.statusCode, headers: response.headers, body: body as T };
  } catch {
    return { status: 0, headers: {}, body: undefined as T };
  }
}

export async function loginTo(baseUrl: string, credentials = PROCESS_ADMIN): Promise<string> {
  const response = await call(baseUrl, 'POST', '/admin/api/v1/login', { body: credentials });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.token as string;
}

/** How many answers had each status, e.g. { 200: 59, 503: 1 }. */
export function statusCounts(answers: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
