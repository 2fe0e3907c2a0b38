// Names made of a record's own values (`template:` on a field): `BO/7` for a blanket order of id 7,
// `{type}/{id}` with the type put in words. Written once the record has its id, and again when an
// update changes a value the name is made of (a new type renames it), in the write's transaction.
import { Type } from '@sinclair/typebox';
import type { Knex } from 'knex';
import { templatePaths } from '../definition/placeholders.ts';
import { didYouMean } from '../definition/suggest.ts';
import type { ResourceDef, TemplateDef } from '../definition/types.ts';
import type { RuleKey } from './types.ts';
import { wroteColumns } from './written.ts';
import { fieldsWhere } from '../definition/per-definition.ts';

export const template: RuleKey = {
  key: 'template',
  format: {
    at: 'field',
    schema: Type.Object(
      {
        text: Type.String({
          pattern: '^([^{}]|\\{[a-z][a-z0-9_]*\\})*$',
          minLength: 1,
          maxLength: 120,
          description: "the text, `{field}` placeholders being the record's values (`{id}` its id): `{type}/{id}`",
        }),
        values: Type.Optional(
          Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), Type.Record(Type.String({ minLength: 1 }), Type.String()), {
            additionalProperties: false,
            description: 'per placeholder, the words of each of its values: {type: {blanket_order: BO, purchase_template: PT}}',
          }),
        ),
      },
      { additionalProperties: false, description: "a name made of the record's own values: `{type}/{id}`, a value put in other words by `values`" },
    ),
  },
  writtenByEngine: true,
  check(def, _resources, problem) {
    for (const named of templateFields(def)) {
      const { text, values } = named.template!;
      const at = `fields.${named.name}.template`;
      if (named.type !== 'string' || !named.stored) problem(at, "a name made of the record's values is a stored string field");
      const placeholders = templatePaths(text);
      for (const name of placeholders)
        if (name === named.name) problem(`${at}.text`, 'the name cannot be made of itself');
        else if (name !== 'id' && !def.fields.get(name)?.stored) problem(`${at}.text`, `"${name}" is not a field of this resource${didYouMean(name, def.fields.keys())}`);
      for (const [name, words] of Object.entries(values ?? {})) {
        if (!placeholders.includes(name)) problem(`${at}.values.${name}`, `"${name}" is not a placeholder of the text`);
        const allowed = def.fields.get(name)?.enum;
        for (const value of Object.keys(words))
          if (allowed && !allowed.includes(value)) problem(`${at}.values.${name}`, `"${value}" is not one of ${name}'s values (${allowed.join(', ')})`);
      }
    }
  },
  describeField(_def, field) {
    if (!field.template) return [];
    const named = Object.entries(field.template.values ?? {}).map(
      ([name, values]) =>
        `\`{${name}}\` being ${Object.entries(values)
          .map(([value, word]) => `${word} for \`${value}\``)
          .join(', ')}`,
    );
    return [`Named \`${field.template.text}\` from the record's values${named.length > 0 ? ` (${named.join('; ')})` : ''}, again when they change.`];
  },
  // Written once the record has its id, and when the values it is made of change.
  step: {
    key: 'template',
    uses: (def, _registry, phase) => phase !== 'remove' && templateFields(def).length > 0,
    follows: (def) => templateFields(def).flatMap((field) => [...field.template!.text.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((match) => match[1]!)),
    async afterInsert(context, def, written) {
      for (const { id, hook } of written) await writeTemplates(context.trx, def, id, hook.values);
    },
    async afterUpdate(context, def, written) {
      for (const { id, columns, current } of wroteColumns(written)) await writeTemplates(context.trx, def, id, { ...current, ...columns });
    },
  },
};

/** The fields a resource names from its values, worked out once per definition. */
export const templateFields = fieldsWhere((field) => field.template);

export function fillTemplate(template: TemplateDef, row: Record<string, unknown>): string {
  return template.text.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => {
    const value = String(row[name] ?? '');
    return template.values?.[name]?.[value] ?? value;
  });
}

/** Writes the names of record `id`, whose values are now `row`, where they differ from the stored ones. */
async function writeTemplates(trx: Knex.Transaction, def: ResourceDef, id: number, row: Record<string, unknown>): Promise<void> {
  const names: Record<string, string> = {};
  for (const field of templateFields(def)) {
    const text = fillTemplate(field.template!, { ...row, id });
    if (text !== row[field.name]) names[field.name] = text;
  }
  if (Object.keys(names).length > 0) await trx(def.table).where('id', id).update(names);
}
