// What the value vocabulary of a field says, read from its definition (no I/O): the paths its
// rules read (`uom_id`, `project.company_id`), its default's sources, and whether its reference
// domain is judged in the write. Shared by the boot checks (value-rules-check.ts), the body
// validator and the write path (engine/keys/values).
import type { ConditionValue, DefaultSourceFormat, OwnValue, ScopeValue } from './format.ts';
import type { FieldDef, ResourceDef } from './types.ts';

export function isOwnValue(condition: ConditionValue): condition is OwnValue {
  return typeof condition === 'object' && 'field' in condition;
}

/** `project.company_id` → the field holding the reference (project_id) and the column read; `uom_id` → the field itself. */
export function splitPath(def: ResourceDef, path: string): { via?: string; column: string } {
  const dot = path.indexOf('.');
  if (dot < 0) return { column: path };
  // An unknown relation is link.ts's to report; its name stands for the key meanwhile.
  return { via: def.relations.get(path.slice(0, dot))?.foreignKey ?? path.slice(0, dot), column: path.slice(dot + 1) };
}

/** The field a path starts from: the field itself, or the key of the relation it goes through. */
export function ownField(def: ResourceDef, path: string): string {
  const { via, column } = splitPath(def, path);
  return via ?? column;
}

/** The resource a reference field points at: its `references`, or the resource of its relation (ids, or the belongsTo whose key it is). */
export function referencedResource(def: ResourceDef, field: FieldDef): string | undefined {
  if (field.references) return field.references;
  const relation = field.relation ? def.relations.get(field.relation) : [...def.relations.values()].find((r) => r.kind === 'belongsTo' && r.foreignKey === field.name);
  return relation?.resource;
}

/** The `{project.name}` placeholders of a message (`{field}` is the field's own label). */
export function placeholdersOf(message: string): string[] {
  return [...message.matchAll(/\{([a-zA-Z0-9_.]+)\}/g)].map((match) => match[1]!).filter((path) => path !== 'field');
}

export function defaultSources(field: FieldDef): DefaultSourceFormat[] {
  if (field.defaultFrom === undefined) return [];
  return Array.isArray(field.defaultFrom) ? field.defaultFrom : [field.defaultFrom];
}

/** The record's own fields a field's copy or default reads: they are filled first. */
export function fillReads(def: ResourceDef, field: FieldDef): string[] {
  const reads: string[] = [];
  if (field.related) reads.push(ownField(def, field.related));
  for (const source of defaultSources(field)) {
    if (typeof source === 'string') reads.push(ownField(def, source));
    else if ('first' in source) for (const condition of Object.values(source.where ?? {})) if (isOwnValue(condition)) reads.push(ownField(def, condition.field));
  }
  return reads;
}

/**
 * A reference whose domain reads the record's own values, has its own message, or is a list of
 * ids: judged in the write, on the values the record will have (engine/keys/values/domains.ts). The
 * others' fixed conditions are checked with their existence, by the body validator.
 */
export function checkedInWrite(field: FieldDef): boolean {
  if (!field.referencesWhere) return false;
  return field.referencesMessage !== undefined || field.type === 'ids' || Object.values(field.referencesWhere).some(isOwnValue);
}

/** The conditions the body validator checks with the reference's existence: those not judged in the write. */
export function conditionsInBody(field: FieldDef): Record<string, ScopeValue> | undefined {
  if (checkedInWrite(field)) return undefined;
  return field.referencesWhere as Record<string, ScopeValue> | undefined;
}

/** A path as the documentation says it: `the project's \`company_id\`` or `\`uom_id\``. */
function pathWords(def: ResourceDef, path: string): string {
  const [first, column] = path.split('.') as [string, string | undefined];
  if (column === undefined) return `\`${first}\``;
  return `the ${def.relations.get(first)?.outputKey ?? first}'s \`${column}\``;
}

function sourceWords(def: ResourceDef, field: FieldDef, source: DefaultSourceFormat): string {
  if (typeof source === 'string') return pathWords(def, source);
  if ('user' in source) return source.user === 'id' ? 'the acting user' : "the acting user's default company";
  if ('now' in source) return field.type === 'date' ? 'today' : 'now';
  const where = Object.entries(source.where ?? {}).map(([column, condition]) =>
    isOwnValue(condition)
      ? `\`${column}\` = ${pathWords(def, condition.field)}`
      : `\`${column}\` ${typeof condition === 'object' ? Object.entries(condition)[0]!.join(' ') : `= ${condition}`}`,
  );
  return `the ${source.column ? `\`${source.column}\` of the ` : ''}first \`${source.first}\` record${where.length > 0 ? ` with ${where.join(' and ')}` : ''}`;
}

/** The field's value rules in words, for the API reference (OpenAPI descriptions and docs/api.md). */
export function describeValueRules(def: ResourceDef, field: FieldDef): string[] {
  const words: string[] = [];
  if (field.related) words.push(`A copy of ${pathWords(def, field.related)}, kept in sync when it changes.`);
  const sources = defaultSources(field);
  if (sources.length > 0) {
    const change = field.defaultOnChange
      ? ` (again when ${fillReads(def, field)
          .map((name) => `\`${name}\``)
          .join(' or ')} changes)`
      : '';
    words.push(
      `Defaults to ${sources.map((source) => sourceWords(def, field, source)).join(', else ')}${field.default !== undefined ? `, else ${JSON.stringify(field.default)}` : ''}${change}.`,
    );
  }
  if (field.nullMeans === 'default') words.push('Null means the default.');
  if (field.nullMeans === 'unsent') words.push('Null counts as not sent.');
  if (field.defaultRequired) words.push('Never left empty: a default that finds nothing is a 422.');
  for (const [column, condition] of Object.entries(field.referencesWhere ?? {})) {
    if (isOwnValue(condition)) words.push(`The record named must have \`${column}\` equal to ${pathWords(def, condition.field)}${condition.orNull ? ' (or either empty)' : ''}.`);
  }
  if (field.checkCompany) words.push("The record named must be of this record's company, or of none.");
  if (field.requiredWhen)
    words.push(
      `Required while ${Object.entries(field.requiredWhen.when)
        .map(([column, values]) => `\`${column}\` is ${values.map((value) => `\`${value}\``).join(' or ')}`)
        .join(' and ')} (sent, else stored).`,
    );
  if (field.notBefore) words.push(`Not before \`${field.notBefore}\` when both are sent.`);

  if (field.stampedBy) words.push(`Set when \`${field.stampedBy}\` becomes true (an earlier time is kept), cleared when it becomes false.`);
  words.push(...(field.keyWords ?? []));
  return words;
}
