import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { concreteRoutes, type ResourceContext } from '../context.ts';

export function authenticationChecks(test: Test, context: () => ResourceContext) {
  test('every route answers 401 without a token', async () => {
    const ctx = context();
    for (const route of concreteRoutes(ctx)) {
      const response = await ctx.client.send(route.method, route.url, { body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
      assert.is(response.status, 401, `${route.method} ${route.url}`);
      assert.equal(response.body, { message: 'Unauthenticated.' });
    }
  });
}
