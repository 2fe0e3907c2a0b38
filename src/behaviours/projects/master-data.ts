// The small rule of the projects module's milestones, and the hooks of the module by the names
// resources/projects/*.yaml use (tasks', task stages' and tags' defaults and checks are declared
// there).
import type { Hook } from '../../../engine/index.ts';
import { nowTimestamp } from '../../../engine/index.ts';

/**
 * beforeCreate/beforeUpdate of a milestone: completing it stamps completed_at (an earlier stamp is
 * kept), reopening it clears the stamp; left out on update, both stay as they are.
 */
export const stampCompletion: Hook = ({ values, record }) => {
  if (values.is_completed === undefined) {
    if (!record) values.completed_at = null;
    return;
  }
  if (!values.is_completed) values.completed_at = null;
  else if (!record?.completed_at) values.completed_at = nowTimestamp();
};

export const projectHooks: Record<string, Hook> = {
  'projects.stampCompletion': stampCompletion,
};
