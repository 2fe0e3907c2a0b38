// The small rules of the projects module's master data (task stages, milestones, tags), and the
// hooks of the module by the names resources/projects/*.yaml use.
import type { Hook } from '../../../engine/index.ts';
import { nowTimestamp } from '../../../engine/index.ts';
import { prepareTask } from './prepare-task.ts';

/** The colour of a tag created without one, or whose colour is cleared. */
export const DEFAULT_TAG_COLOR = '#808080';

/** beforeCreate of a task stage: it belongs to its project's company. */
export const projectCompany: Hook = async ({ trx, values }) => {
  const project = await trx('projects_projects').where('id', values.project_id).first('company_id');
  values.company_id = project?.company_id ?? null;
};

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

/** beforeCreate/beforeUpdate of a tag: a colour sent empty is grey again. */
export const defaultTagColor: Hook = ({ values }) => {
  if (values.color === null) values.color = DEFAULT_TAG_COLOR;
};

export const projectHooks: Record<string, Hook> = {
  'projects.prepareTask': prepareTask,
  'projects.projectCompany': projectCompany,
  'projects.stampCompletion': stampCompletion,
  'projects.defaultTagColor': defaultTagColor,
};
