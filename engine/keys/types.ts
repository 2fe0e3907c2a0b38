// What a rule key of the vocabulary is (one module each in this folder): what the definitions'
// loader takes of it (its meta-schema, normal form and boot check: definition/rule-key.ts), its
// words in the references, and its step in a write; and the shapes the write pipeline
// (engine/write/pipeline.ts) and the steps share, from what every write of a unit is given on.
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { AuthUser, Behaviours, HookContext, Models, Records } from '../behaviours/types.ts';
import type { Registry } from '../definition/registry.ts';
import type { DefinitionKey } from '../definition/rule-key.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { SchemaBounds } from '../schema/column-bounds.ts';
import type { Values } from '../validation/body-validator.ts';

/** A rule key: what the loader takes of it, and what it does in a write (run in the order of engine/write/steps.ts). */
export interface RuleKey extends DefinitionKey {
  step?: WriteStep;
}

/** What every write of one unit shares: its transaction, change set, user and the writers of the other resources (engine/write/unit.ts makes it). */
export interface WriteContext {
  trx: Knex.Transaction;
  /** What the unit changed (engine/changes): every record written here is added. */
  changes: ChangeSet;
  registry: Registry;
  behaviours: Behaviours;
  user: AuthUser;
  /** The acting user's default company (definitions' `defaultFrom: {user: company}`). */
  userCompany(): number | null;
  params: Record<string, string>;
  models: Models;
  /** What each column stores: bounds the bodies behaviours write (engine/schema/column-bounds.ts). */
  bounds?: SchemaBounds;
  /** Other resources' records, written through this same pipeline (engine/write/writers.ts). */
  records: Records;
}

/** A record of a write: its hook context (values sent, the stored row) and, once written, its id. */
export interface Written {
  id: number;
  hook: HookContext;
  /** An update's: the columns it wrote (empty when only nested records or links changed). */
  columns?: Values;
  /** An update's: the row as stored before it. */
  current?: Values;
}

/** A record to update: its id, the values sent, and the row as stored before. */
export interface UpdateItem {
  id: number;
  values: Values;
  current: Values;
}

export interface CreateOptions {
  /** Columns the engine sets (the parent's key). */
  fixed?: Values;
  /** The records are entries of a list (an owner's lines, a behaviour's many): a refusal names its place. */
  placed?: boolean;
}

export interface UpdateOptions {
  /** The row's updated_at is written even when no column of it changes (a conditional update). */
  touch?: boolean;
  placed?: boolean;
}

export interface RemoveOptions {
  /** Removed for good (a force delete, a resource without soft delete); else moved to the trash. */
  hard: boolean;
  /** The change's kind in the feed: deleted or force_deleted. */
  kind: 'deleted' | 'force_deleted';
  /**
   * A removal of the system rather than of a client (a product's offer replaced): the rules that
   * guard a client's delete (locks, beforeDelete behaviours) do not run; `onDelete: restrict`
   * still does, as the database's integrity needs it.
   */
  system?: boolean;
}

/** The pipeline itself, handed to the steps that write other records through it (nested records, createWith). */
export interface Pipeline {
  create(context: WriteContext, def: ResourceDef, entries: Values[], options?: CreateOptions): Promise<number[]>;
  update(context: WriteContext, def: ResourceDef, items: UpdateItem[], options?: UpdateOptions): Promise<void>;
}

export type Phase = 'create' | 'update' | 'remove';

type Before = (context: WriteContext, def: ResourceDef, hooks: HookContext[], mode: 'create' | 'update') => Promise<void> | void;

/**
 * One rule key's part in a write, run by the pipeline in the order of the step list
 * (engine/write/steps.ts), as fastify runs its hooks: each phase runs the steps that have it, in
 * list order.
 */
export interface WriteStep {
  /** The definition key it serves (resources/README.md lists each with its step). */
  key: string;
  /** Whether a resource's definition gives the step work in this phase (asked once per definition: engine/write/plan.ts). */
  uses(def: ResourceDef, registry: Registry, phase: Phase): boolean;
  /** This record, as sent, gives the step nothing to do (a create without ids or nested records). */
  idle?(def: ResourceDef, values: Values): boolean;
  /** The fields whose change the step follows on an update: a set-based write (engine/write/writers.ts) may not set them. */
  follows?(def: ResourceDef): readonly string[];
  /** Records created together must each be written (and get their id) before the next is prepared. */
  oneByOne?(def: ResourceDef, entries: readonly Values[]): boolean;
  /**
   * Right before a new record's row is written, after every step's beforeCreate: columns worked
   * out from its values alone, with no statement (its words). Runs on the create's fast path too.
   */
  complete?(def: ResourceDef, values: Values): void;
  /** Before the records are inserted or updated: fill, number, check, refuse (a 422 names the record's place). */
  beforeCreate?: Before;
  beforeUpdate?: Before;
  /** After the records are inserted, with their ids. */
  afterInsert?(context: WriteContext, def: ResourceDef, written: Written[], pipeline: Pipeline): Promise<void>;
  /** After the records are updated. */
  afterUpdate?(context: WriteContext, def: ResourceDef, written: Written[], pipeline: Pipeline): Promise<void>;
  /** Before records are removed: refuse (422, 409) or clean up. */
  beforeRemove?(context: WriteContext, def: ResourceDef, rows: Values[], options: RemoveOptions): Promise<void> | void;
}
