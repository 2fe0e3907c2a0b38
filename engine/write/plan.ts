// What a write of a resource needs, worked out once per definition from the step list: which
// steps each phase runs, whether records created together go one by one, and whether a create
// can be one INSERT on its own (no step, no invalidator: the create handler's fast path).
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { Values } from '../validation/body-validator.ts';
import { WRITE_STEPS } from './steps.ts';
import type { WriteStep } from '../keys/types.ts';
import { perDefinition } from '../definition/per-definition.ts';

export interface WritePlan {
  create: readonly WriteStep[];
  update: readonly WriteStep[];
  remove: readonly WriteStep[];
  /** The records created together are written one at a time (see WriteStep.oneByOne). */
  oneByOne(entries: readonly Values[]): boolean;
  /** The fields a step follows on update (a formula's operands, a tree's parent): set-based writes may not set them. */
  followed: ReadonlySet<string>;
  /** This create is one INSERT and its change: nothing else to write, nothing to invalidate. */
  singleStatement(values: Values): boolean;
  /** The columns of a new record its steps work out last, from its values alone (WriteStep.complete). */
  complete(values: Values): void;
}

export const writePlan: (def: ResourceDef, registry: Registry) => WritePlan = perDefinition(buildPlan);

function buildPlan(def: ResourceDef, registry: Registry): WritePlan {
  const create = WRITE_STEPS.filter((step) => (step.beforeCreate || step.afterInsert || step.complete) && step.uses(def, registry, 'create'));
  const completing = create.filter((step) => step.complete);
  const update = WRITE_STEPS.filter((step) => (step.beforeUpdate || step.afterUpdate) && step.uses(def, registry, 'update'));
  const remove = WRITE_STEPS.filter((step) => step.beforeRemove && step.uses(def, registry, 'remove'));
  const splitting = create.filter((step) => step.oneByOne);
  return {
    create,
    update,
    remove,
    followed: new Set(update.flatMap((step) => step.follows?.(def) ?? [])),
    oneByOne: (entries) => splitting.some((step) => step.oneByOne!(def, entries)),
    singleStatement: (values) => def.invalidates.length === 0 && create.every((step) => step.idle?.(def, values) === true),
    complete(values) {
      for (const step of completing) step.complete!(def, values);
    },
  };
}
