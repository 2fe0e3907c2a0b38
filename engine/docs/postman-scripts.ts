// The scripts of the runnable Postman collection (they run in Postman's sandbox, as text): the
// status and envelope checks of each request, keeping ids in collection variables, and waiting
// out a 429 or 503 as its Retry-After says before sending the request again.

/**
 * Each request's test: on 429 or 503 with Retry-After, wait and send the same request again (at
 * most 5 times in a row), skipping its checks meanwhile; otherwise run them. It is part of every
 * request's own test rather than a collection-level one: newman runs each script in a sandbox of
 * its own, and one script a request instead of two took a sixth off a run's time.
 */
export function retryingOr(checks: string[]): string[] {
  return [
    "const retryAfter = Number(pm.response.headers.get('Retry-After'));",
    "const tries = Number(pm.collectionVariables.get('retries') || 0);",
    'if ((pm.response.code === 429 || pm.response.code === 503) && retryAfter > 0 && tries < 5) {',
    "  pm.collectionVariables.set('retries', tries + 1);",
    '  setTimeout(() => {}, Math.min(retryAfter, 60) * 1000);',
    '  postman.setNextRequest(pm.info.requestId);',
    '} else {',
    "  pm.collectionVariables.set('retries', 0);",
    ...checks.map((line) => `  ${line}`),
    '}',
  ];
}

/** The documented success status and, for JSON, the envelope's keys (those of the documented example). */
export function expectations(statuses: number[], example: unknown): string[] {
  const lines = [`pm.test('status ${statuses.join(' or ')}', () => pm.expect(pm.response.code).to.be.oneOf(${JSON.stringify(statuses)}));`];
  if (example && typeof example === 'object' && !Array.isArray(example)) {
    const keys = Object.keys(example).filter((key) => ['data', 'message', 'links', 'meta', 'token', 'status'].includes(key));
    if (keys.length > 0) lines.push(`pm.test('body has ${keys.join(', ')}', () => pm.expect(pm.response.json()).to.include.keys(${JSON.stringify(keys)}));`);
  }
  return lines;
}

/** After a create: keep the new record's id (and the columns others name it by) for the requests that follow. */
export function storeCreated(variable: string, keys: Array<{ column: string; variable: string }>): string[] {
  return [
    'const created = pm.response.code === 201 || pm.response.code === 200 ? pm.response.json().data : undefined;',
    `if (created) pm.collectionVariables.set('${variable}', created.id);`,
    ...keys.map((key) => `if (created) pm.collectionVariables.set('${key.variable}', created['${key.column}']);`),
  ];
}

/** For a resource nobody creates through the API (currencies, permissions): its first record. */
export function storeFirstListed(variable: string, keys: Array<{ column: string; variable: string }>): string[] {
  return [
    'const rows = pm.response.json().data || [];',
    "pm.test('lists a record to use', () => pm.expect(rows.length).to.be.above(0));",
    `if (rows.length > 0) pm.collectionVariables.set('${variable}', rows[0].id);`,
    ...keys.map((key) => `if (rows.length > 0) pm.collectionVariables.set('${key.variable}', rows[0]['${key.column}']);`),
  ];
}

/** After a create that included a relation: keep the id of its first record (the move a return names). */
export function storeFirstChild(variable: string, key: string): string[] {
  return [
    `const firstOf${variable} = created && Array.isArray(created['${key}']) ? created['${key}'][0] : undefined;`,
    `if (firstOf${variable}) pm.collectionVariables.set('${variable}', firstOf${variable}.id);`,
  ];
}
