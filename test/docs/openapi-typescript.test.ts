// A client generated from the complete document: openapi-typescript turns it into types, and a
// client written against them, with the document's own examples as values, type-checks (strict);
// a wrong value does not. The time the generator takes is printed.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildApiDocument } from '../../src/http/api-docs.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const document = buildApiDocument(loadResources(), API_PREFIX);

type Json = Record<string, any>;

/** The example of an operation's success response. */
function example(path: string, method: string, status: string): unknown {
  const response: Json = document.paths[`${API_PREFIX}${path}`][method].responses[status];
  return response.content['application/json'].example;
}

const test = suite('openapi-typescript');

test('generates types from the complete document that a strict client type-checks against', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'erp-openapi-ts-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
    const start = Date.now();
    await run(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), join(dir, 'openapi.json'), '-o', join(dir, 'api.d.ts')], {
      maxBuffer: 16 * 1024 * 1024,
    });
    console.log(`\n  openapi-typescript: ${Date.now() - start} ms for ${JSON.stringify(document).length} bytes\n`);

    const paths = (path: string) => `paths['${API_PREFIX}${path}']`;
    writeFileSync(
      join(dir, 'client.ts'),
      `import type { components, paths } from './api';
type BankList = ${paths('/support/banks')}['get']['responses'][200]['content']['application/json'];
type Bank = components['schemas']['SupportBank'];
type NewBank = NonNullable<${paths('/support/banks')}['post']['requestBody']>['content']['application/json'];
type Invoice = ${paths('/accounts/invoices/{id}')}['get']['responses'][200]['content']['application/json'];
type Changes = ${paths('/changes')}['get']['responses'][200]['content']['application/json'];

export const banks: BankList = ${JSON.stringify(example('/support/banks', 'get', '200'))};
export const firstBank: Bank | undefined = banks.data[0];
export const newBank: NewBank = ${JSON.stringify(document.paths[`${API_PREFIX}/support/banks`].post.requestBody.content['application/json'].example)};
export const invoice: Invoice = ${JSON.stringify(example('/accounts/invoices/{id}', 'get', '200'))};
export const changes: Changes = ${JSON.stringify(example('/changes', 'get', '200'))};
// @ts-expect-error an id is a number
export const wrongId: Bank['id'] = 'one';
// @ts-expect-error a list has links and meta
export const wrongList: BankList = { data: [] };
`,
    );
    // The check can fail: a value the types forbid is reported (one run of tsc checks both files).
    writeFileSync(join(dir, 'wrong.ts'), `import type { components } from './api';\nexport const bank: components['schemas']['SupportBank'] = { id: 'one' };\n`);
    const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler'];
    const output = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), ...flags, join(dir, 'client.ts'), join(dir, 'wrong.ts')]).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    const errors = output.split('\n').filter((line) => /error TS/.test(line));
    assert.equal(
      errors.filter((line) => !line.includes('wrong.ts')),
      [],
      'the client type-checks',
    );
    assert.ok(errors.length > 0, 'a wrong value is reported');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
