// How the runnable Postman collection walks the resources where their references and their
// actions' `when`/`to` do not say enough: resources/walkthroughs.yaml, keyed by resource name.
// It only plans that run, so it lives beside the definitions rather than among their domain keys.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { DefinitionProblem } from './definition-error.ts';
import { WalkthroughFormat } from './format.ts';
import { describeFormatError, firstErrorPerPlace, linesOf, WALKTHROUGHS_FILE } from './load.ts';
import type { ParseCache } from './parse-cache.ts';

const WalkthroughsFormat = Type.Record(Type.String({ pattern: '^[a-z][a-z0-9-]*/[a-z][a-z0-9-]*$' }), WalkthroughFormat, { additionalProperties: false });

export interface WalkthroughSource {
  walkthrough: WalkthroughFormat;
  file: string;
  /** Line of a place in the resource's walkthrough (`records.0.actions`). */
  lineOf(at: string): number | undefined;
}

/** The walkthrough of each resource that has one; none when the file is absent. */
export function loadWalkthroughs(dir: string, problems: DefinitionProblem[], cache: ParseCache): Map<string, WalkthroughSource> {
  const full = join(dir, WALKTHROUGHS_FILE);
  const found = new Map<string, WalkthroughSource>();
  if (!existsSync(full)) return found;
  const file = relative(process.cwd(), full);
  const text = readFileSync(full, 'utf8');
  const lineOf = linesOf(text);
  let raw: unknown;
  try {
    raw = cache.parse(text) ?? {};
  } catch (error) {
    problems.push({ file, at: '', message: `YAML: ${(error as Error).message.split('\n')[0]}` });
    return found;
  }
  if (!Value.Check(WalkthroughsFormat, raw)) {
    for (const error of firstErrorPerPlace([...Value.Errors(WalkthroughsFormat, raw)])) {
      const at = error.path.split('/').filter(Boolean).join('.');
      problems.push({ file, at, line: lineOf(at), message: describeFormatError(error) });
    }
    return found;
  }
  for (const [name, walkthrough] of Object.entries(raw)) found.set(name, { walkthrough, file, lineOf: (at) => lineOf(`${name}.${at}`) });
  return found;
}

/** `under` as [the resource whose walk made the record, the walk]: `walk1` is the parent's, `accounts/products.walk1` another view's. */
export function underWalk(under: string, parent: string): [resource: string, walk: string] {
  const dot = under.lastIndexOf('.');
  return dot < 0 ? [parent, under] : [under.slice(0, dot), under.slice(dot + 1)];
}
