// The projects module's standard data: the four project stages of the original's installation
// (To Do, In Progress, Done, Cancelled; sort 1 to 4, active, of no company). Seeded only while
// there is no stage at all: once installed they are the users' data, so a stage renamed or
// deleted must not come back at the next start.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

export const STANDARD_PROJECT_STAGES = ['To Do', 'In Progress', 'Done', 'Cancelled'];

/** Seeds the standard project stages while the table is empty; returns the rows added. */
export async function seedProjects(knex: Knex, creatorId: number | null): Promise<number> {
  if (await knex('projects_project_stages').first('id')) return 0;
  const now = nowTimestamp();
  await knex('projects_project_stages').insert(
    STANDARD_PROJECT_STAGES.map((name, index) => ({ name, sort: index + 1, is_active: true, is_collapsed: false, creator_id: creatorId, created_at: now, updated_at: now })),
  );
  return STANDARD_PROJECT_STAGES.length;
}
