// The words of an operation: its summary, its description and who may call it.
import type { HTTPMethods } from 'fastify';
import type { Operation } from '../definition/format.ts';
import type { ResourceDef } from '../definition/types.ts';
import { lowerLabel, withArticle } from '../definition/names.ts';
import { describeLocks } from '../keys/locks.ts';

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function summary(def: ResourceDef, op: Operation, method: HTTPMethods | string, pluralLabel: string): string {
  const one = withArticle(def.label);
  switch (op) {
    case 'list':
      return `List ${lowerLabel(pluralLabel)}`;
    case 'create':
      return `Create ${one}`;
    case 'show':
      return `Show ${one}`;
    case 'update':
      return method === 'PATCH' ? `Update ${one} (PATCH)` : `Update ${one}`;
    case 'delete':
      return def.softDelete ? `Delete ${one} (restorable)` : `Delete ${one}`;
    case 'restore':
      return `Restore ${one}`;
    case 'forceDelete':
      return `Permanently delete ${one}`;
  }
}

export function describe(def: ResourceDef, op: Operation, method: string): string {
  const parts: string[] = [];
  if (def.description) parts.push(def.description);
  switch (op) {
    case 'list':
      parts.push(
        `Paginated (\`page\`, \`per_page\`), sorted by \`${def.defaultSort.map((s) => (s.descending ? '-' : '') + s.name).join(',')}\` unless \`sort\` says otherwise (\`id\` always breaks ties, in the direction of the last key).` +
          (def.softDelete ? ' Soft-deleted records are left out unless `filter[trashed]` asks for them.' : '') +
          (def.search.length > 0 ? ` \`search\` finds records by the words of ${def.search.map((name) => `\`${name}\``).join(', ')}.` : '') +
          ' Unknown filters, sorts or includes answer 400 with the allowed names.',
      );
      break;
    case 'create':
      parts.push(`Answers 201 with the stored record and the message “${def.messages.created}”${def.parent ? ' The record belongs to the parent named in the path.' : ''}`);
      break;
    case 'update':
      parts.push(`Only the fields sent change${method === 'PATCH' ? ' (the same as PUT)' : ''}.`, ...describeLocks(def, 'update'));
      break;
    case 'delete':
      parts.push(
        def.softDelete ? 'A soft delete: the record is hidden from lists and shows until it is restored.' : 'The record is removed for good.',
        ...describeLocks(def, 'delete'),
      );
      break;
    case 'restore':
      parts.push('Brings a soft-deleted record back; restoring a live record answers the same.');
      break;
    case 'forceDelete':
      parts.push('Removes the record for good, trashed or not. It cannot be restored afterwards.');
      break;
    case 'show':
      if (def.softDelete) parts.push('A soft-deleted record is a 404.');
      break;
  }
  if (def.embed.length > 0) parts.push(`Responses always embed ${def.embed.map((name) => `\`${def.relations.get(name)?.outputKey ?? name}\``).join(' and ')}.`);
  parts.push(accessNote(def, op));
  return parts.join('\n\n');
}

/** Who may call the route: its permissions, and the row scopes that apply. */
export function accessNote(def: ResourceDef, op: string): string {
  const names = def.access.permissions[op] ?? [];
  const notes = [`**Permission:** ${names.map((name) => `\`${name}\``).join(' and ')}.`];
  if (def.access.subjectResource !== def.name) notes.push(`(Checked on the parent \`${def.access.subjectResource}\` record.)`);
  if (def.access.companyScope) notes.push("Only records of the user's companies (or of none) are visible, unless the user holds `bypass_company_scope`.");
  if (def.access.visibleTo)
    notes.push(
      `A user whose record scope is not global sees only the records whose ${visibleToNames(def)} names them (group: them or a team mate), unless they hold \`bypass_ownership_scope\`; others answer 404.`,
    );
  if (def.access.owner && op !== 'list' && op !== 'show' && op !== 'create')
    notes.push(`The user's record scope applies to the record's \`${def.access.owner}\` (global, group or individual).`);
  return notes.join(' ');
}

/** The columns and relations of a definition's `visibleTo`, as the documentation names them. */
export function visibleToNames(def: ResourceDef): string {
  const names = (def.access.visibleTo ?? []).map((by) => `\`${'column' in by ? by.column : by.through.table}\``);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
}
