// A small HTTP client over undici for tests that talk to a real server on a free port.
import { request } from 'undici';
import { assertDocumented } from './documented.ts';

export interface Response<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
  /**
   * Fail (throw) when no answer comes within this long. For tests of answers that must not hang:
   * a bound far above the expected time, so that a busy machine does not fail them (timing
   * belongs in the benchmark).
   */
  timeoutMs?: number;
}

export class Client {
  constructor(readonly baseUrl: string) {}

  async send<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<Response<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await request(url, { method: method as any, headers, body, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
    const text = await response.body.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    // Every response must be the one the API reference documents (test/helpers/documented.ts).
    assertDocumented(method, url.toString(), response.statusCode, parsed, response.headers['content-type'] as string | undefined);
    return { status: response.statusCode, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.send<T>('GET', path, options);
  }
  post<T = any>(path: string, options?: RequestOptions) {
    return this.send<T>('POST', path, options);
  }
  put<T = any>(path: string, options?: RequestOptions) {
    return this.send<T>('PUT', path, options);
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.send<T>('DELETE', path, options);
  }
}
