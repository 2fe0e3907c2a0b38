// A unit of writing: one transaction in which every write of a request (a create with its nested
// records, an action and what its behaviour writes, an import's rows) goes through the same
// pipeline, records what it changed (engine/changes) and calls the invalidators of what it wrote,
// run again whole after a write conflict (engine/sql/retry.ts). Every writer of the engine opens
// one here, so that no write escapes the change feed.
import type { Knex } from 'knex';
import { attachChanges, ChangeSet } from '../behaviours/change-set.ts';
import { attachRecords } from './records-of.ts';
import type { AuthUser, Behaviours, Models } from '../behaviours/types.ts';
import type { ChangeRecorder } from '../changes/record-changes.ts';
import type { Registry } from '../definition/registry.ts';
import type { SchemaBounds } from '../schema/column-bounds.ts';
import { inTransaction } from '../sql/retry.ts';
import { attachCalendar, type CompanyTimeZone } from '../keys/company-today.ts';
import type { WriteContext } from '../keys/types.ts';
import { runInvalidators } from './invalidate.ts';
import { recordWriters } from './writers.ts';

/** What the units of one service share, made once at boot. */
export interface WriteEnvironment {
  knex: Knex;
  registry: Registry;
  behaviours: Behaviours;
  bounds?: SchemaBounds;
  /** The resources' Objection models, built on first use. */
  models(): Models;
  /** Writes a unit's changes to the change feed. */
  recorder: ChangeRecorder;
  /** The user's default company, for `defaultFrom: {user: company}`. */
  userCompany(user: AuthUser): number | null;
  /** A company's time zone: the dates that default to today are its local date (UTC when absent). */
  companyTimeZone?: CompanyTimeZone;
}

/** Who writes: the user, the path's parameters, the request (kept with each change). */
export interface Actor {
  user: AuthUser;
  params: Record<string, string>;
  requestId: string | null;
}

export interface WriteUnit {
  trx: Knex.Transaction;
  changes: ChangeSet;
  context: WriteContext;
  /**
   * Runs `work` in a savepoint: what it wrote is undone when it throws, and its changes join the
   * unit's only when it succeeds (an import's row with `on_error=skip`).
   */
  savepoint<T>(work: (unit: WriteUnit) => Promise<T>): Promise<T>;
}

/** Runs `work` in a new unit: its changes are recorded and its invalidators called when it succeeds, in its transaction. */
export function inWriteUnit<T>(env: WriteEnvironment, actor: Actor, work: (unit: WriteUnit) => Promise<T>): Promise<T> {
  return inTransaction(env.knex, async (trx) => {
    const unit = openUnit(env, actor, trx);
    const result = await work(unit);
    await runInvalidators(env.registry, env.behaviours, trx, unit.changes);
    await env.recorder.record(trx, unit.changes, { userId: actor.user?.id ?? null, requestId: actor.requestId });
    return result;
  });
}

function openUnit(env: WriteEnvironment, actor: Actor, trx: Knex.Transaction, changes = new ChangeSet(env.recorder.dependents)): WriteUnit {
  attachChanges(trx, changes);
  attachCalendar(trx, env.companyTimeZone, () => env.userCompany(actor.user));
  const context: WriteContext = {
    trx,
    changes,
    registry: env.registry,
    bounds: env.bounds,
    records: (resource) => records(resource),
    behaviours: env.behaviours,
    user: actor.user,
    userCompany: () => env.userCompany(actor.user),
    params: actor.params,
    get models() {
      return env.models();
    },
  };
  // A behaviour's writes to other resources go through the same pipeline, in this transaction.
  const records = recordWriters(context);
  attachRecords(trx, records);
  return {
    trx,
    changes,
    context,
    savepoint: (work) =>
      trx.transaction(async (inner) => {
        const part = openUnit(env, actor, inner);
        const result = await work(part);
        changes.pending.push(...part.changes.pending);
        return result;
      }),
  };
}
