// Counts the database works out with each row (field key `subquery`): one statement for a whole
// list page, however many rows it has.
import type { Subquery } from '../../../engine/index.ts';

/** A project's live tasks. */
export const liveTaskCount: Subquery = (table) => `SELECT COUNT(*) FROM \`projects_tasks\` t WHERE t.\`project_id\` = ${table}.\`id\` AND t.\`deleted_at\` IS NULL`;

/** A task's live sub-tasks. */
export const liveSubtaskCount: Subquery = (table) => `SELECT COUNT(*) FROM \`projects_tasks\` s WHERE s.\`parent_id\` = ${table}.\`id\` AND s.\`deleted_at\` IS NULL`;
