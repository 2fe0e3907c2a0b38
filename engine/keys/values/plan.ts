// Which value rules a resource's fields declare, worked out once per definition: the fields the
// engine fills (defaults and copies, each after the fields it reads), the stamps, the reference
// checks, and what those rules read of the records the references name.
import type { Registry } from '../../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../../definition/types.ts';
import { checkedInWrite, defaultSources, fillReads, isOwnValue, placeholdersOf, referencedResource, splitPath } from '../../definition/value-rules.ts';
import { perDefinition } from '../../definition/per-definition.ts';

export interface ValuePlan {
  /** Fields with a `defaultFrom`, a `nullMeans`, or a `related` copy, in the order they can be filled. */
  fills: FieldDef[];
  stamps: FieldDef[];
  /** References whose `referencesWhere` reads the record's own values, or that have their own message: checked in the write. */
  domains: FieldDef[];
  companyChecks: FieldDef[];
  /** Fields required while the record has some values (`requiredWhen`). */
  requiredWhen: FieldDef[];
  /** Per reference field, the columns the rules read of the record it names. */
  columns: Map<string, Set<string>>;
  /** The resource declares some value rule: its creates go through the write path. */
  any: boolean;
}

export const valuePlan: (def: ResourceDef, registry: Registry) => ValuePlan = perDefinition(buildPlan);

function buildPlan(def: ResourceDef, registry: Registry): ValuePlan {
  const fields = [...def.fields.values()];
  const columns = new Map<string, Set<string>>();
  const read = (via: string | undefined, column: string) => {
    if (!via) return;
    if (!columns.has(via)) columns.set(via, new Set());
    columns.get(via)!.add(column);
  };
  const readPath = (path: string) => {
    const { via, column } = splitPath(def, path);
    read(via, column);
  };

  const filled = fields.filter((field) => field.related || field.defaultFrom !== undefined || field.nullMeans !== undefined);
  for (const field of filled) {
    if (field.related) readPath(field.related);
    for (const source of defaultSources(field)) {
      if (typeof source === 'string') readPath(source);
      else if ('first' in source) for (const condition of Object.values(source.where ?? {})) if (isOwnValue(condition)) readPath(condition.field);
    }
  }
  const domains = fields.filter(checkedInWrite);
  for (const field of domains) {
    for (const [column, condition] of Object.entries(field.referencesWhere ?? {})) {
      read(field.name, column);
      if (isOwnValue(condition)) readPath(condition.field);
    }
    for (const path of placeholdersOf(field.referencesMessage ?? '')) readPath(path);
  }
  const companyChecks = fields.filter((field) => field.checkCompany);
  for (const field of companyChecks) {
    read(field.name, 'company_id');
    // The message names the record: by its name, when it has one.
    if (registry.get(referencedResource(def, field)!).fields.get('name')?.stored) read(field.name, 'name');
  }
  const stamps = fields.filter((field) => field.stampedBy);
  const requiredWhen = fields.filter((field) => field.requiredWhen);
  return {
    fills: inFillOrder(def, filled),
    stamps,
    domains,
    companyChecks,
    requiredWhen,
    columns,
    any: filled.length + domains.length + companyChecks.length + stamps.length + requiredWhen.length > 0,
  };
}

/** Each field after the filled fields it reads (link.ts refuses a loop). */
function inFillOrder(def: ResourceDef, filled: FieldDef[]): FieldDef[] {
  const names = new Set(filled.map((field) => field.name));
  const ordered: FieldDef[] = [];
  const visiting = new Set<string>();
  const visit = (field: FieldDef) => {
    if (ordered.includes(field) || visiting.has(field.name)) return;
    visiting.add(field.name);
    for (const name of fillReads(def, field)) if (names.has(name) && name !== field.name) visit(def.fields.get(name)!);
    ordered.push(field);
  };
  for (const field of filled) visit(field);
  return ordered;
}
