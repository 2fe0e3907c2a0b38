// The value vocabulary of the definitions, applied by the write pipeline (engine/write/)
// to every record of a write together, before the behaviours run (they see the results):
// defaults (`defaultFrom`, `nullMeans`) and copies (`related`), each after the fields it reads;
// stamps (`stampedBy`); then the checks on the values the record will have (`defaultRequired`,
// `referencesWhere` on the record's own values, `checkCompany`, `requiredWhen`), refused with a 422 naming the
// field. After an update, the copies of the changed record follow it (related.ts).
import type { Knex } from 'knex';
import type { ChangeSet } from '../../behaviours/change-set.ts';
import type { AuthUser } from '../../behaviours/types.ts';
import type { Registry } from '../../definition/registry.ts';
import type { ResourceDef } from '../../definition/types.ts';
import type { WriteStep } from '../types.ts';
import { wroteColumns } from '../written.ts';
import { ValidationError, type FieldErrors } from '../../errors/http-errors.ts';
import { checkCompanies } from './check-company.ts';
import { fillDefault, unresolved } from './defaults.ts';
import { checkDomains } from './domains.ts';
import { checkRequiredWhen } from './required-when.ts';
import { checkedInWrite, splitPath } from '../../definition/value-rules.ts';
import { valuePlan } from './plan.ts';
import { ReferencedRows, type Entry } from './record-values.ts';
import { fillCopy, isCopied, syncCopies, type WrittenRow } from './related.ts';
import { stamp } from './stamped-by.ts';
import { perDefinition } from '../../definition/per-definition.ts';

export interface ValueContext {
  trx: Knex.Transaction;
  registry: Registry;
  user: AuthUser;
  changes: ChangeSet;
  /** The acting user's default company, for `defaultFrom: {user: company}`. */
  userCompany(): number | null;
}

/**
 * Whether a create of the resource needs the value rules (which read the database): it cannot be a
 * lone INSERT. A constant default applied to a null sent needs none (the engine fills it with the
 * other constant defaults).
 */
export const createNeedsValueRules = perDefinition((def) =>
  [...def.fields.values()].some(
    (field) => field.related || field.defaultFrom !== undefined || field.stampedBy || field.checkCompany || field.requiredWhen || checkedInWrite(field),
  ),
);

/** Applies the resource's value rules to the records of one write; a refusal names the first refused record's fields. */
export async function applyValueRules(context: ValueContext, def: ResourceDef, mode: 'create' | 'update', entries: readonly Entry[]): Promise<void> {
  const plan = valuePlan(def, context.registry);
  if (!plan.any || entries.length === 0) return;
  const rows = new ReferencedRows(context.trx, context.registry, def, plan.columns);
  for (const field of plan.fills) {
    if (field.related) await fillCopy(def, field, rows, entries, mode);
    else await fillDefault(context, def, field, rows, entries, mode);
  }
  for (const field of plan.stamps) await stamp(context.trx, def, field, entries);
  refuse(new Map(entries.map((entry) => [entry, unresolved(plan.fills, entry)])));
  const errors = new Map<Entry, FieldErrors>(entries.map((entry) => [entry, {}]));
  await checkDomains(def, plan.domains, rows, entries, errors, mode);
  await checkCompanies(plan.companyChecks, rows, entries, errors, mode);
  checkRequiredWhen(def, plan.requiredWhen, entries, errors);
  refuse(errors);
}

function refuse(errors: Map<Entry, FieldErrors>): void {
  for (const [entry, found] of errors) if (Object.keys(found).length > 0) throw new ValidationError(found, entry.index);
}

/** After records of `def` were updated: the copies other records keep of their changed columns follow. */
export function syncRelated(context: Pick<ValueContext, 'trx' | 'registry' | 'changes'>, def: ResourceDef, written: readonly WrittenRow[]): Promise<void> {
  return syncCopies(context.trx, context.registry, context.changes, def, written);
}

/** The fields' value rules: `defaultFrom`, `nullMeans`, `related`, `stampedBy`, `checkCompany`, `requiredWhen`, `referencesWhere`. */
export const valueRules: WriteStep = {
  key: 'defaultFrom, related, stampedBy, checkCompany, requiredWhen, referencesWhere',
  // On create a constant default for a null sent needs no rule: the engine's columns fill it.
  uses: (def, registry, phase) => (phase === 'create' ? createNeedsValueRules(def) : phase === 'update' && valuePlan(def, registry).any),
  // A new reference is what a copy (`related`) follows.
  follows: (def) => [...def.fields.values()].flatMap((field) => (field.related ? [splitPath(def, field.related).via!] : [])),
  beforeCreate: (context, def, hooks) => applyValueRules(context, def, 'create', hooks),
  beforeUpdate: (context, def, hooks) => applyValueRules(context, def, 'update', hooks),
};

/** `related` on other resources' fields: the copies other records keep of an updated record's columns follow it. */
export const copies: WriteStep = {
  key: 'related (the copies)',
  uses: (def, registry, phase) => phase === 'update' && isCopied(registry, def),
  async afterUpdate(context, def, written) {
    const changed = wroteColumns(written);
    if (changed.length > 0)
      await syncRelated(
        context,
        def,
        changed.map(({ id, columns, current }) => ({ id, columns: columns!, current })),
      );
  },
};
