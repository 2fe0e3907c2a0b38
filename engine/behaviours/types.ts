// Named behaviours: business rules a definition cannot express, implemented in src/ and
// referenced from YAML by name. The engine only knows these shapes.
import type { Knex } from 'knex';
import type { ResourceDef } from '../definition/types.ts';

export interface AuthUser {
  id: number;
  name: string;
  email: string;
}

export interface HookContext {
  trx: Knex.Transaction;
  def: ResourceDef;
  user: AuthUser;
  /** Validated body values (create/update); hooks may add or change columns before the write. */
  values: Record<string, any>;
  /** The stored row: before update/delete it is the current one, after create/update the new one. */
  record?: Record<string, any>;
  params: Record<string, string>;
}

export type Hook = (context: HookContext) => Promise<void> | void;

/** A read-only value computed from the stored row, e.g. a currency rate's inverse. */
export type ComputedField = (row: Record<string, unknown>) => unknown;

export interface Behaviours {
  hooks: Record<string, Hook>;
  computed: Record<string, ComputedField>;
}

export function behaviourNames(behaviours: Behaviours): Set<string> {
  return new Set([...Object.keys(behaviours.hooks), ...Object.keys(behaviours.computed)]);
}
