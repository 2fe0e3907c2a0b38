// Names made of a record's own values (`template:` on a field): `BO/7` for a blanket order of id 7,
// `{type}/{id}` with the type put in words. Written once the record has its id, and again when an
// update changes a value the name is made of (a new type renames it), in the write's transaction.
import type { Knex } from 'knex';
import type { TemplateFormat } from '../definition/rules-format.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';

const named = new WeakMap<ResourceDef, FieldDef[]>();

/** The fields a resource names from its values, worked out once per definition. */
export function templateFields(def: ResourceDef): FieldDef[] {
  let found = named.get(def);
  if (!found) named.set(def, (found = [...def.fields.values()].filter((field) => field.template)));
  return found;
}

export function fillTemplate(template: TemplateFormat, row: Record<string, unknown>): string {
  return template.text.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => {
    const value = String(row[name] ?? '');
    return template.values?.[name]?.[value] ?? value;
  });
}

/** Writes the names of record `id`, whose values are now `row`, where they differ from the stored ones. */
export async function writeTemplates(trx: Knex.Transaction, def: ResourceDef, id: number, row: Record<string, unknown>): Promise<void> {
  const names: Record<string, string> = {};
  for (const field of templateFields(def)) {
    const text = fillTemplate(field.template!, { ...row, id });
    if (text !== row[field.name]) names[field.name] = text;
  }
  if (Object.keys(names).length > 0) await trx(def.table).where('id', id).update(names);
}
