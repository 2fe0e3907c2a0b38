// The Markdown reference (docs/api.md): one section per module and resource, with its routes,
// fields (types and rules), relations, filters, sorts and includes. Generated from the registry;
// the OpenAPI document supplies the service's own routes (login, logout, health, docs).
import { FILTER_KINDS } from './parameters.ts';
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import type { Operation, ScopeValue } from '../definition/format.ts';
import { scopeTest } from '../definition/scope.ts';
import { routeKey, routeTable } from '../definition/route-table.ts';
import { IMPORT_MARK, importRow } from './import-operation.ts';
import { exportRows } from './export-operation.ts';
import { aggregateRow } from './aggregate-operation.ts';
import { generatedRoutes } from './generated-routes.ts';
import { orderedResources, resourceNames } from '../definition/names.ts';
import { visibleToNames } from './descriptions.ts';
import { bodyMarkdown } from './action-bodies.ts';
import { escapeCell, valueRuleWords } from './markdown-cells.ts';
import { describeLocks } from '../keys/locks.ts';
import type { OpenApiDocument } from './openapi.ts';
import { searchWords } from './parameters.ts';

export interface MarkdownOptions {
  prefix: string;
  title: string;
  /** Paragraphs after the title (how to regenerate, where the interactive reference is). */
  preface: string;
  /** Markdown sections before the resources (authentication, conventions). */
  introduction: string;
  /** The document: its non-resource routes are listed too. */
  document: OpenApiDocument;
}

const OPERATION_NAMES = { list: 'List', create: 'Create', show: 'Show', update: 'Update', delete: 'Delete', restore: 'Restore', forceDelete: 'Force delete' };

export function buildMarkdown(registry: Registry, options: MarkdownOptions): string {
  const names = resourceNames(registry);
  const order = orderedResources(registry);
  const out: string[] = [];
  out.push(`# ${options.title}`, '', options.preface, '');

  // Contents
  out.push('## Contents', '');
  const serviceTags = serviceOperations(options.document, registry, options.prefix);
  if (serviceTags.length > 0) out.push(`- [Service routes](#service-routes)`);
  out.push(`- [Conventions](#conventions)`);
  let module = '';
  for (const def of order) {
    const n = names.get(def.name)!;
    if (n.module !== module) {
      module = n.module;
      out.push(`- [${module}](#${anchor(module)})`);
    }
    out.push(`  - [${n.plural}](#${anchor(n.tag)}) — \`${options.prefix}${def.path}\``);
  }
  out.push('');

  if (serviceTags.length > 0) {
    out.push('## Service routes', '', '| Method | Path | Token | What |', '|---|---|---|---|');
    for (const route of serviceTags) out.push(`| ${route.method} | \`${route.path}\` | ${route.token ? 'yes' : 'no'} | ${escapeCell(route.summary)} |`);
    out.push('');
  }
  out.push(options.introduction.trim(), '');

  module = '';
  for (const def of order) {
    const n = names.get(def.name)!;
    if (n.module !== module) {
      module = n.module;
      out.push(`## ${module}`, '');
    }
    out.push(...resourceSection(def, n.tag, options.prefix));
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

function resourceSection(def: ResourceDef, heading: string, prefix: string): string[] {
  const out: string[] = [`### ${heading}`, ''];
  const facts = [`Resource \`${def.name}\``, `table \`${def.table}\``, `label “${def.label}”`];
  if (def.softDelete) facts.push('soft delete');
  if (def.parent) facts.push(`nested under \`${def.parent.resource}\` (\`{${def.parent.param}}\`, stored in \`${def.parent.foreignKey}\`)`);
  const scope = Object.entries(def.scope);
  const limit = ([column, value]: [string, ScopeValue]) => {
    const { operator, operand } = scopeTest(value);
    return `\`${column}\` ${operator} \`${operand}\``;
  };
  if (scope.length > 0) facts.push(`limited to ${scope.map(limit).join(', ')}`);
  if (def.access.companyScope) facts.push("rows of the user's companies only (`bypass_company_scope` lifts it)");
  if (def.access.visibleTo) facts.push(`below the global record scope, only rows whose ${visibleToNames(def)} names the user (\`bypass_ownership_scope\` lifts it)`);
  if (def.access.owner) facts.push(`changes need the user's record scope on \`${def.access.owner}\``);
  if (def.description) out.push(def.description, '');
  out.push(`${facts.join('; ')}.`, '');
  for (const sentence of [...describeLocks(def, 'update'), ...describeLocks(def, 'delete')]) out.push(`- ${sentence}`);
  if (def.locks.length > 0) out.push('');

  out.push('| Method | Path | Operation | Success | Permission |', '|---|---|---|---|---|');
  for (const route of routeTable(def, prefix)) {
    const permissions = (def.access.permissions[routeKey(route)] ?? []).map((name) => `\`${name}\``).join(' + ');
    const action = route.action ? def.actions.get(route.action) : undefined;
    const name = action ? `Action \`${action.name}\`` : OPERATION_NAMES[route.operation as Operation];
    const answer = action
      ? `${action.creates ? 201 : 200} \`{data${action.on === 'collection' ? ': [every record]' : ''}, message}\`: “${action.message}”${
          action.when
            ? `; 422 unless ${Object.entries(action.when)
                .map(([c, v]) => `\`${c}\` ∈ ${v.join('/')}`)
                .join(', ')}`
            : ''
        }`
      : success(def, route.operation);
    out.push(`| ${route.method} | \`${route.path}\` | ${name} | ${answer} | ${permissions} |`);
  }
  if (def.operations.has('create')) out.push(importRow(def, prefix));
  out.push(...exportRows(def, prefix));
  out.push(...aggregateRow(def, prefix));
  out.push('');
  for (const route of routeTable(def, prefix)) {
    const body = route.action ? def.actions.get(route.action)?.body : undefined;
    if (body) out.push(...bodyMarkdown(route.path, body));
  }

  out.push('**Fields**', '', '| Field | Type | Null | Body | Rules |', '|---|---|---|---|---|');
  for (const field of def.fields.values()) {
    if (!field.output && !field.writable) continue;
    out.push(
      `| \`${field.name}\` | ${fieldType(field)} | ${field.name !== 'id' && field.nullable && field.type !== 'strings' ? 'yes' : 'no'} | ${bodyUse(field)} | ${escapeCell(rules(field, def))} |`,
    );
  }
  out.push('');

  if (def.relations.size > 0) {
    out.push('**Relations**', '', '| Key | Kind | Resource | In responses |', '|---|---|---|---|');
    for (const relation of def.relations.values()) {
      const how = def.embed.includes(relation.name) ? 'always' : def.allowedIncludes.has(relation.name) ? `\`include=${relation.name}\`` : 'through a nested include';
      const key = relation.kind === 'manyToMany' ? `via \`${relation.through?.table}\`` : `\`${relation.foreignKey}\``;
      out.push(`| \`${relation.outputKey}\` | ${relation.kind} (${key}) | \`${relation.resource}\` | ${how} |`);
    }
    out.push('');
  }

  if (def.operations.has('list')) {
    if (def.filters.size > 0) {
      out.push('**Filters**', '', '| Parameter | Kind | Matches |', '|---|---|---|');
      for (const filter of def.filters.values()) {
        const matches =
          filter.kind === 'trashed'
            ? `soft-deleted records: ${filter.values.map((value) => `\`${value}\``).join(', ')}`
            : `\`${filter.fieldName}\` (${fieldType(filter.field!)}) ${FILTER_KINDS[filter.kind]}`;
        out.push(`| \`filter[${filter.name}]\` | ${filter.kind} | ${escapeCell(matches)} |`);
      }
      out.push('');
    }
    if (def.search.length > 0) out.push(`**Search:** \`search=<terms>\`. ${searchWords(def)}`, '');
    const defaultSort = def.defaultSort.map((s) => (s.descending ? '-' : '') + s.name).join(',');
    out.push(`**Sorts:** ${def.sorts.map((name) => `\`${name}\``).join(', ')} (\`-\` for descending; default \`${defaultSort}\`).`, '');
  }
  const includes = [...def.allowedIncludes];
  out.push(`**Includes:** ${includes.length > 0 ? includes.map((name) => `\`${name}\``).join(', ') : 'none'}.`, '');

  const behaviours = Object.entries(def.behaviours).filter(([, list]) => list.length > 0);
  if (behaviours.length > 0) out.push(`**Behaviours:** ${behaviours.map(([phase, list]) => `${phase}: ${list.map((name: string) => `\`${name}\``).join(', ')}`).join('; ')}.`, '');
  if (def.invalidates.length > 0) out.push(`**Invalidates:** ${def.invalidates.map((name) => `\`${name}\``).join(', ')} (on every write).`, '');
  return out;
}

function success(def: ResourceDef, operation: string): string {
  switch (operation) {
    case 'list':
      return '200 `{data, links, meta}`';
    case 'create':
      return `201 \`{data, message}\`: “${def.messages.created}”`;
    case 'show':
      return '200 `{data}`';
    case 'update':
      return `200 \`{data, message}\`: “${def.messages.updated}”`;
    case 'delete':
      return `200 \`{message}\`: “${def.messages.deleted}”`;
    case 'restore':
      return `200 \`{data, message}\`: “${def.messages.restored}”`;
    default:
      return `200 \`{message}\`: “${def.messages.forceDeleted}”`;
  }
}

function fieldType(field: FieldDef): string {
  switch (field.type) {
    case 'decimal':
      return `decimal (${field.scale ?? 2} places; a string in responses)`;
    case 'date':
      return 'date (`YYYY-MM-DD`; midnight UTC in responses)';
    case 'datetime':
      return 'timestamp';
    case 'strings':
      return 'list of strings';
    case 'ids':
      return 'list of ids';
    case 'records':
      return 'list of records';
    default:
      return field.type;
  }
}

function bodyUse(field: FieldDef): string {
  if (!field.writable) return '—';
  return field.required ? 'required' : 'optional';
}

function rules(field: FieldDef, def: ResourceDef): string {
  const parts = valueRuleWords(field);
  if (field.numericString) parts.push('digits as a string accepted');
  if (field.unique) parts.push(field.unique === 'live' ? 'unique among live records' : 'unique');
  if (field.until) parts.push(`sent together with \`${field.until}\`, not after it`);
  if (field.default !== undefined && field.defaultFrom === undefined) parts.push(`default \`${field.default}\``);
  parts.push(...(field.keyWords ?? []).map((sentence) => sentence.charAt(0).toLowerCase() + sentence.slice(1, -1)));
  if (field.minItems !== undefined) parts.push(`at least ${field.minItems} ${field.minItems === 1 ? 'entry' : 'entries'}`);
  if (field.type === 'ids' || field.type === 'records') {
    const relation = field.relation ? def.relations.get(field.relation) : undefined;
    if (relation)
      parts.push(
        field.type === 'ids'
          ? `replaces the \`${relation.outputKey}\` set (\`${relation.resource}\`)`
          : `written with the record as \`${relation.resource}\` entries (with \`id\`: update)`,
      );
  }
  if (field.computed) parts.push(`computed (\`${field.computed}\`)`);
  if (field.hidden) parts.push('never in responses');
  if (def.parent && field.name === def.parent.foreignKey) parts.push('the parent from the path');
  return parts.join('; ');
}

interface ServiceRoute {
  method: string;
  path: string;
  token: boolean;
  summary: string;
}

/** Routes of the document that no resource generates (login, logout, health, docs). */
function serviceOperations(document: OpenApiDocument, registry: Registry, prefix: string): ServiceRoute[] {
  const generated = generatedRoutes(registry, prefix);
  const routes: ServiceRoute[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, operation] of Object.entries<Record<string, any>>(item)) {
      if (generated.has(`${method.toUpperCase()} ${path}`) || operation[IMPORT_MARK]) continue;
      routes.push({ method: method.toUpperCase(), path, token: !(Array.isArray(operation.security) && operation.security.length === 0), summary: operation.summary ?? '' });
    }
  }
  return routes;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
