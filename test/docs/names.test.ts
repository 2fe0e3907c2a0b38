import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Registry } from '../../engine/definition/registry.ts';
import type { ResourceDef } from '../../engine/definition/types.ts';
import { orderedResources } from '../../engine/definition/names.ts';

const test = suite('documentation order');

test('resources sort by module rank, then by code point, whatever the locale would say', () => {
  const defs = [
    { name: 'zeta/b', module: 'zeta', path: '/zeta/b' },
    { name: 'zeta/{x}', module: 'zeta', path: '/zeta/{x}' },
    { name: 'zeta/B', module: 'zeta', path: '/zeta/B' },
    { name: 'zeta/a-b', module: 'zeta', path: '/zeta/a-b' },
    { name: 'zeta/a', module: 'zeta', path: '/zeta/a' },
    { name: 'alpha/a', module: 'alpha', path: '/alpha/a' },
    { name: 'support/banks', module: 'support', path: '/support/banks' },
  ] as unknown as ResourceDef[];
  const registry = { all: () => defs } as unknown as Registry;
  // localeCompare would put "B" after "a" and "b", and "{x}" first.
  assert.equal(
    orderedResources(registry).map((def) => def.name),
    ['support/banks', 'alpha/a', 'zeta/B', 'zeta/a', 'zeta/a-b', 'zeta/b', 'zeta/{x}'],
  );
});

test.run();
