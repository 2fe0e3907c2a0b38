// The administrator's calls most resource tests make, on an app a suite opens in its `before`
// (hence `app()`): raw calls, and posts that must answer a given status.
import * as assert from 'uvu/assert';
import { API, type TestApp } from './app.ts';
import type { Response } from './http.ts';

export interface AdminCalls {
  /** The raw answer of `method path` with the administrator's token. */
  call(method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown): Promise<Response>;
  /** POSTs, asserts the status (200 unless told), returns the body. */
  post(path: string, body?: unknown, status?: number): Promise<any>;
  /** The body of a GET. */
  get(path: string): Promise<any>;
  /** POSTs a create, asserts 201, returns the record. */
  created(path: string, body: Record<string, unknown>): Promise<Record<string, any>>;
}

export function asAdmin(app: () => TestApp & { token: string }): AdminCalls {
  const call: AdminCalls['call'] = (method, path, body) => app().client[method](`${API}${path}`, { token: app().token, body });
  const post: AdminCalls['post'] = async (path, body, status = 200) => {
    const response = await call('post', path, body);
    assert.is(response.status, status, `${path}: ${response.text}`);
    return response.body;
  };
  return {
    call,
    post,
    get: async (path) => (await call('get', path)).body,
    created: async (path, body) => (await post(path, body, 201)).data,
  };
}
