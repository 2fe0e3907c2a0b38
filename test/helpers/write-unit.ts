// Units of writing (engine/write/unit.ts) for engine tests that run the pipeline on definitions of
// their own, without a service: the changes each unit would record are kept in `recorded`.
import type { Knex } from 'knex';
import type { ChangeSet } from '../../engine/behaviours/change-set.ts';
import type { AuthUser, Behaviours } from '../../engine/behaviours/types.ts';
import type { Registry } from '../../engine/definition/registry.ts';
import type { CompanyTimeZone } from '../../engine/keys/company-today.ts';
import { inWriteUnit, type WriteEnvironment, type WriteUnit } from '../../engine/write/unit.ts';

export const WRITER: AuthUser = { id: 7, name: 'Writer', email: 'writer@example.com' };

/** `calendar`: the companies' time zones and the writer's default company (none: every date is UTC's). */
export function testUnits(knex: Knex, registry: Registry, behaviours: Behaviours, user: AuthUser = WRITER, calendar?: { companyTimeZone: CompanyTimeZone; userCompany: number }) {
  const recorded: ChangeSet[] = [];
  const env: WriteEnvironment = {
    knex,
    registry,
    behaviours,
    models: () => ({}),
    recorder: {
      record: async (_trx, changes) => void recorded.push(changes),
      recordWith: async (_statements, changes) => void recorded.push(changes),
      dependents: { beforeDelete: async () => {} },
    },
    userCompany: () => calendar?.userCompany ?? null,
    companyTimeZone: calendar?.companyTimeZone,
  };
  return {
    recorded,
    /** Runs `work` in a unit as the test's writer; its changes are the last of `recorded` once it committed. */
    run: <T>(work: (unit: WriteUnit) => Promise<T>) => inWriteUnit(env, { user, params: {}, requestId: null }, work),
  };
}
