// The route table (docs/routes.md): every resource that has routes, by module, with its path, its
// operations and its actions on one line, linked to its section of the Markdown reference. The
// map of the API that the README points to; generated from the registry, so it cannot miss one.
import type { Operation } from '../definition/format.ts';
import { orderedResources, resourceNames } from '../definition/names.ts';
import type { Registry } from '../definition/registry.ts';
import { anchor } from './markdown.ts';

export interface RouteSummaryOptions {
  prefix: string;
  title: string;
  /** Paragraphs after the title (how to regenerate). */
  preface: string;
  /** The Markdown reference the resources link to, relative to the summary (`api.md`). */
  reference: string;
}

const OPERATION_WORDS: Record<Operation, string> = {
  list: 'list',
  create: 'create',
  show: 'show',
  update: 'update',
  delete: 'delete',
  restore: 'restore',
  forceDelete: 'force delete',
};
const OPERATION_ORDER = Object.keys(OPERATION_WORDS) as Operation[];

export function buildRouteSummary(registry: Registry, options: RouteSummaryOptions): string {
  const names = resourceNames(registry);
  const out: string[] = [`# ${options.title}`, '', options.preface, ''];
  out.push(
    `Paths are under \`${options.prefix}\`. On a resource's path, \`list\` is \`GET\`, \`create\` \`POST\`; on \`{id}\` below it, \`show\` is \`GET\`, \`update\` \`PUT\` and \`PATCH\`, \`delete\` \`DELETE\`; \`restore\` is \`POST {id}/restore\` and \`force delete\` \`DELETE {id}/force\`. An action is \`POST {id}/<action>\`, or \`POST\` on the path itself when marked *(on the collection)*.`,
    '',
  );
  let module = '';
  for (const def of orderedResources(registry)) {
    if (def.operations.size + def.actions.size === 0) continue;
    const n = names.get(def.name)!;
    if (n.module !== module) {
      if (module !== '') out.push('');
      module = n.module;
      out.push(`## ${module}`, '', '| Resource | Path | Operations | Actions |', '|---|---|---|---|');
    }
    const operations = OPERATION_ORDER.filter((operation) => def.operations.has(operation)).map((operation) => OPERATION_WORDS[operation]);
    const actions = [...def.actions.values()].map((action) => `\`${action.name}\`${action.on === 'collection' ? ' *(on the collection)*' : ''}`);
    out.push(`| [${n.plural}](${options.reference}#${anchor(n.tag)}) | \`${def.path}\` | ${operations.join(', ') || '—'} | ${actions.join(', ') || '—'} |`);
  }
  return `${out.join('\n').trim()}\n`;
}
