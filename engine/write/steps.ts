// The write pipeline's steps, one per rule key of the definitions, in the order they run. Each
// phase (before a create or an update, after an insert or an update, before a removal) runs the
// steps that have it, in this order: a step sees what the ones above it did (the formulas see the
// defaults, the behaviours see everything). plan.ts works out once per definition which it uses.
// A key with a module of its own (engine/keys/: its format, boot check, words and step together)
// gives its step, the value rules theirs (engine/keys/values/); the others' steps are written here.
import type { ResourceDef } from '../definition/types.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { append } from '../keys/append.ts';
import { createWith } from '../keys/create-with.ts';
import { onDelete } from '../keys/on-delete.ts';
import { formula } from '../keys/formula.ts';
import { locks } from '../keys/locks.ts';
import { tree } from '../keys/tree.ts';
import { sequence } from '../keys/sequence.ts';
import { search } from '../keys/search.ts';
import { template } from '../keys/template.ts';
import { copies, valueRules } from '../keys/values/index.ts';
import { carriedFields, carriesRecords, writeCarried } from './carried.ts';
import type { WriteContext, WriteStep, Written } from '../keys/types.ts';
import { hookContext } from './context.ts';

const some = <T>(list: readonly T[]) => list.length > 0;

/** `excludes`: a field given replaces the one it excludes (a payment term replaces a due date). */
const excludes: WriteStep = {
  key: 'excludes',
  uses: (def, _registry, phase) => phase === 'update' && [...def.fields.values()].some((field) => field.excludes),
  beforeUpdate(_context, def, hooks) {
    for (const field of def.fields.values()) {
      if (!field.excludes) continue;
      for (const { values } of hooks) if (values[field.name] != null && values[field.excludes] === undefined) values[field.excludes] = null;
    }
  },
};

/** `ids` and `records` fields: the links and nested records sent with the record. */
const carried: WriteStep = {
  key: 'ids, records',
  uses: (def, _registry, phase) => phase !== 'remove' && some(carriedFields(def)),
  idle: (def, values) => !carriedFields(def).some((field) => values[field.name] != null),
  oneByOne: carriesRecords,
  afterInsert: (context, def, written, pipeline) => writeCarried(context, def, written, 'create', pipeline),
  afterUpdate: (context, def, written, pipeline) => writeCarried(context, def, written, 'update', pipeline),
};

/** `behaviours`: the named hooks of src/behaviours, after every rule of the definition. */
const behaviours: WriteStep = {
  key: 'behaviours',
  uses: (def, _registry, phase) =>
    (phase === 'create' ? ['beforeCreateMany', 'beforeCreate', 'afterCreate'] : phase === 'update' ? ['beforeUpdateMany', 'beforeUpdate', 'afterUpdate'] : ['beforeDelete']).some(
      (name) => some(def.behaviours[name as keyof ResourceDef['behaviours']]),
    ),
  // Each record's after-create hooks see the records created before it.
  oneByOne: (def) => some(def.behaviours.afterCreate),
  beforeCreate: (context, def, hooks) => runBefore(context, hooks, def.behaviours.beforeCreateMany, def.behaviours.beforeCreate),
  beforeUpdate: (context, def, hooks) => runBefore(context, hooks, def.behaviours.beforeUpdateMany, def.behaviours.beforeUpdate),
  afterInsert: (context, def, written) => runAfter(context, def, def.behaviours.afterCreate, written),
  afterUpdate: (context, def, written) => runAfter(context, def, def.behaviours.afterUpdate, written),
  async beforeRemove(context, def, rows, { system }) {
    if (system) return;
    for (const record of rows) {
      const hook = hookContext(context, def, {}, record);
      for (const name of def.behaviours.beforeDelete) await context.behaviours.hooks[name]!(hook);
    }
  },
};

/** The batch hooks once for all the records, then each record's own; a refusal names the record's place. */
async function runBefore(context: WriteContext, hooks: Written['hook'][], batch: readonly string[], single: readonly string[]): Promise<void> {
  for (const name of batch) await context.behaviours.batches[name]!(hooks);
  if (single.length === 0) return;
  for (const hook of hooks) {
    try {
      for (const name of single) await context.behaviours.hooks[name]!(hook);
    } catch (error) {
      if (error instanceof ValidationError && error.entry === undefined && hook.index !== undefined) throw new ValidationError(error.errors, hook.index);
      throw error;
    }
  }
}

/** The after-create or after-update hooks, each given the record as now stored (read once for all). */
async function runAfter(context: WriteContext, def: ResourceDef, names: readonly string[], written: Written[]): Promise<void> {
  if (names.length === 0 || written.length === 0) return;
  const rows = new Map(
    (
      await context.trx(def.table).whereIn(
        'id',
        written.map(({ id }) => id),
      )
    ).map((row) => [Number(row.id), row]),
  );
  for (const { id, hook } of written) {
    hook.record = rows.get(id);
    for (const name of names) await context.behaviours.hooks[name]!(hook);
  }
}

export const WRITE_STEPS: readonly WriteStep[] = [
  excludes,
  locks.step!,
  valueRules,
  sequence.step!,
  append.step!,
  tree.step!,
  formula.step!,
  copies,
  template.step!,
  carried,
  createWith.step!,
  behaviours,
  search.step!,
  onDelete.step!,
];
