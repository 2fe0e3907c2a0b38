// The rule keys that have a module of their own (format, normal form, boot check, words in the
// references and step in a write: resources/README.md lists each key's module). The loader takes
// their formats and checks from this list (registry.ts); the write pipeline runs their steps in
// the order of engine/write/steps.ts.
import { aggregate } from './aggregate.ts';
import { append } from './append.ts';
import { createWith } from './create-with.ts';
import { formula } from './formula.ts';
import { indexes } from './indexes.ts';
import { locks } from './locks.ts';
import { onDelete } from './on-delete.ts';
import { search } from './search.ts';
import { sequence } from './sequence.ts';
import { set } from './set.ts';
import { template } from './template.ts';
import { totals } from './totals.ts';
import { tree } from './tree.ts';
import type { RuleKey } from './types.ts';
import { VALUE_KEYS } from './values/value-keys.ts';

export const RULE_KEYS: readonly RuleKey[] = [
  // First: their words come first among a field's, and their check before the others'.
  ...VALUE_KEYS,
  locks,
  sequence,
  append,
  tree,
  formula,
  template,
  createWith,
  onDelete,
  search,
  set,
  aggregate,
  totals,
  indexes,
];
