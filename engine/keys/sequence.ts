// `sequence:` (on a field): document numbers, S00001, SP/00001, INV/2026/00001, taken when the
// record is created or when an action runs on one that has none:
//
//   name: { type: string, sequence: { code: 'account.move.{journal_id}', prefix: '{journal.code}/{year}/', year: date, on: post } }
//
// Each counter is a row of the `sequences` table, per code and company, incremented inside the
// write's transaction: concurrent writers queue on the row lock (InnoDB) or on SQLite's single
// writer, and a rolled-back document gives its number back, so the numbering has no gaps.
import { Type } from '@sinclair/typebox';
import type { Knex } from 'knex';
import { fieldPathCheck } from '../definition/field-paths.ts';
import { templatePaths } from '../definition/placeholders.ts';
import type { Registry } from '../definition/registry.ts';
import { didYouMean } from '../definition/suggest.ts';
import type { FieldDef, ResourceDef, SequenceDef } from '../definition/types.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';
import { todayFor } from './company-today.ts';
import { plusOne } from '../sql/builder-sql.ts';
import { updateRowWithWords } from './search.ts';
import type { RuleKey } from './types.ts';
import { fieldsWhere } from '../definition/per-definition.ts';

/** `{year}`, a field (`{journal_id}`) or `relation.column` (`{journal.code}`) of the record numbered. */
const Template = Type.String({ pattern: '^([^{}]|\\{([a-z][a-z0-9_]*|[a-z][A-Za-z0-9]*\\.[a-z][a-z0-9_]*)\\})*$' });

const SequenceFormat = Type.Object(
  {
    code: Type.String({
      ...Template,
      minLength: 1,
      maxLength: 120,
      description: 'the counter, a row of the `sequences` table (per company): `sales.order`; `{year}` and `{field}` placeholders give one counter per year or per value',
    }),
    prefix: Type.Optional(Type.String({ ...Template, maxLength: 60, description: 'written before the number: `S`, `SP/`, `{journal.code}/{year}/`' })),
    padding: Type.Optional(Type.Integer({ minimum: 1, maximum: 12, description: 'the digits of the number, zeros in front (default 5)' })),
    perCompany: Type.Optional(Type.Boolean({ description: "one counter per company (the record's company_id); default true when the resource has a company_id" })),
    year: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]*$', description: "the date field whose year `{year}` is (default: today in the record's company's time zone)" })),
    on: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z]*(-[a-z]+)*$',
        description: '`create` (default), or an action of the resource: the number is taken when the action runs on a record that has none yet',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DEFAULT_PADDING = 5;

export const sequence: RuleKey = {
  key: 'sequence',
  format: { at: 'field', schema: SequenceFormat },
  writtenByEngine: true,
  check(def, resources, problem) {
    const path = fieldPathCheck(def, resources, problem);
    for (const numbered of sequenceFields(def)) {
      const sequence = numbered.sequence!;
      const at = `fields.${numbered.name}.sequence`;
      if (numbered.type !== 'string' || !numbered.stored) problem(at, 'a document number is a stored string field');
      for (const key of ['code', 'prefix'] as const) for (const placeholder of templatePaths(sequence[key] ?? '')) path(`${at}.${key}`, placeholder);
      if (sequence.year) {
        const type = def.fields.get(sequence.year)?.type;
        if (type !== 'date' && type !== 'datetime') problem(`${at}.year`, `"${sequence.year}" is not a date or datetime field of this resource`);
      }
      if (sequence.perCompany && !def.fields.get('company_id')?.stored) problem(`${at}.perCompany`, 'this resource has no company_id field');
      const on = sequence.on ?? 'create';
      if (on !== 'create' && !def.actions.has(on)) problem(`${at}.on`, `"${on}" is not an action of this resource${didYouMean(on, def.actions.keys())}`);
    }
  },
  describeField(def, field) {
    const sequence = field.sequence;
    if (!sequence) return [];
    const example = `${sequence.prefix ?? ''}${'1'.padStart(sequence.padding ?? DEFAULT_PADDING, '0')}`;
    const on = (sequence.on ?? 'create') === 'create' ? 'when the record is created' : `when \`${sequence.on}\` runs on a record that has none`;
    const scope = [perCompany(def, sequence) && 'company', ...templatePaths(sequence.code).map((path) => `\`${path}\``), sequence.code.includes('{year}') && 'year']
      .filter(Boolean)
      .join(', ')
      .replace(/, ([^,]+)$/, ' and $1');
    return [`Numbered ${on}, without gaps: \`${example}\`, then the next${scope ? ` (one counter per ${scope})` : ''}.`];
  },
  // A new record takes the next number of each sequence numbered on create (`on: <action>`: numberOnAction).
  step: {
    key: 'sequence',
    uses: (def, _registry, phase) => phase === 'create' && sequenceFields(def).some((field) => (field.sequence!.on ?? 'create') === 'create'),
    beforeCreate: (context, def, hooks) => numberNewRecords(context.trx, context.registry, def, hooks),
  },
};

export function perCompany(def: ResourceDef, sequence: SequenceDef): boolean {
  return sequence.perCompany ?? def.fields.get('company_id')?.stored === true;
}

export interface SequenceKey {
  /** e.g. `sales.order` or `inventories.operation_type.1`. */
  code: string;
  companyId: number | null;
  /** Used when the counter does not exist yet (an existing counter keeps its own, unless `renames`). */
  prefix: string;
  padding: number;
  /**
   * The prefix is made from values that may change (a stock operation type's warehouse code and
   * sequence code): an existing counter takes it with the number, and the numbering goes on.
   */
  renames?: boolean;
}

/** The next number of a counter, with its prefix: for the behaviours that number what they create. */
export async function nextInSequence(trx: Knex.Transaction, key: SequenceKey): Promise<string> {
  const row = (query: Knex.QueryBuilder) =>
    key.companyId === null ? query.where('code', key.code).whereNull('company_id') : query.where({ code: key.code, company_id: key.companyId });
  // UPDATE first: it takes the row's exclusive lock straight away, so concurrent writers queue
  // instead of deadlocking (an INSERT IGNORE on an existing key would take a shared lock first,
  // and two transactions upgrading their shared locks deadlock on InnoDB).
  const take = () => row(trx('sequences')).update({ next_number: plusOne(trx, 'next_number'), ...(key.renames && { prefix: key.prefix }) });
  let updated = await take();
  if (Number(updated) === 0) {
    const now = nowTimestamp();
    await trx('sequences')
      .insert({ code: key.code, company_id: key.companyId, prefix: key.prefix, padding: key.padding, next_number: 1, created_at: now, updated_at: now })
      .onConflict(['code', 'company_id'])
      .ignore();
    updated = await take();
  }
  // The read sees this transaction's own increment (also under MySQL's REPEATABLE READ).
  const sequence = await row(trx('sequences')).first('prefix', 'padding', 'next_number');
  return `${sequence.prefix ?? ''}${String(Number(sequence.next_number) - 1).padStart(Number(sequence.padding ?? 0), '0')}`;
}

/** The fields a resource numbers, worked out once per definition. */
export const sequenceFields = fieldsWhere((field) => field.sequence);

/** Fills a code or prefix from the record's values (those written, else the stored ones). */
async function fill(trx: Knex.Transaction, registry: Registry, def: ResourceDef, template: string, sequence: SequenceDef, value: (name: string) => unknown): Promise<string> {
  let text = template;
  if (text.includes('{year}')) {
    const date = sequence.year ? value(sequence.year) : undefined;
    text = text.replaceAll('{year}', String(date ?? (await todayFor(trx, value('company_id')))).slice(0, 4));
  }
  for (const path of templatePaths(template)) {
    const [first, column] = path.split('.') as [string, string | undefined];
    let found: unknown;
    if (column === undefined) found = value(first);
    else {
      const relation = def.relations.get(first)!;
      const id = value(relation.foreignKey);
      found = id == null ? undefined : (await trx(registry.get(relation.resource).table).where('id', id).first(column))?.[column];
    }
    text = text.replaceAll(`{${path}}`, found == null ? '' : String(found));
  }
  return text;
}

/** The next number of the field's sequence for a record with these values. */
async function nextNumber(trx: Knex.Transaction, registry: Registry, def: ResourceDef, field: FieldDef, value: (name: string) => unknown): Promise<string> {
  const sequence = field.sequence!;
  const company = perCompany(def, sequence) ? value('company_id') : null;
  return nextInSequence(trx, {
    code: await fill(trx, registry, def, sequence.code, sequence, value),
    companyId: company == null ? null : Number(company),
    prefix: await fill(trx, registry, def, sequence.prefix ?? '', sequence, value),
    padding: sequence.padding ?? DEFAULT_PADDING,
  });
}

/** On create: each new record takes the next number of each `on: create` sequence of its resource. */
async function numberNewRecords(trx: Knex.Transaction, registry: Registry, def: ResourceDef, entries: ReadonlyArray<{ values: Record<string, any> }>): Promise<void> {
  for (const field of sequenceFields(def)) {
    if ((field.sequence!.on ?? 'create') !== 'create') continue;
    for (const { values } of entries) values[field.name] = await nextNumber(trx, registry, def, field, (name) => values[name]);
  }
}

/**
 * When an action runs: a record without a number takes the next of each sequence `on` that
 * action (one reset to draft keeps the number it had). The locked row is updated, and `record`
 * with it, before the action's behaviour runs.
 */
export async function numberOnAction(trx: Knex.Transaction, registry: Registry, def: ResourceDef, action: string, record: Record<string, any>): Promise<void> {
  for (const field of sequenceFields(def)) {
    if (field.sequence!.on !== action || (record[field.name] != null && record[field.name] !== '')) continue;
    record[field.name] = await nextNumber(trx, registry, def, field, (name) => record[name]);
    const numbered: Record<string, unknown> = { [field.name]: record[field.name] };
    await updateRowWithWords(trx, def, Number(record.id), numbered, record);
  }
}
