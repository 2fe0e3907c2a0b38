import { ValidationError, type Hook } from '../../../engine/index.ts';
import { principal } from '../../access/principal.ts';

/**
 * beforeCreate/beforeUpdate of a task (reference §3.2):
 * - sent with `project_id` and without `partner_id`, it takes the project's customer;
 * - its milestone must be one of its project's, judged on the values it will have (those sent,
 *   else the stored ones): a milestone without a project is refused on `project_id`, another
 *   project's milestone on `milestone_id`;
 * - a new task belongs to its project's company, else to the user's default company.
 */
export const prepareTask: Hook = async ({ trx, values, record, user }) => {
  const projectId = values.project_id !== undefined ? values.project_id : (record?.project_id ?? null);
  const needsProject = !record || (values.project_id !== undefined && values.partner_id === undefined);
  const project = needsProject && projectId != null ? await trx('projects_projects').where('id', projectId).first('partner_id', 'company_id') : undefined;
  if (values.project_id !== undefined && values.partner_id === undefined) values.partner_id = project?.partner_id ?? null;
  if (!record) values.company_id = project?.company_id ?? principal(user).access.defaultCompanyId;

  if (values.project_id === undefined && values.milestone_id === undefined) return;
  const milestoneId = values.milestone_id !== undefined ? values.milestone_id : (record?.milestone_id ?? null);
  if (milestoneId == null) return;
  if (projectId == null) throw new ValidationError({ project_id: ['The project field is required when milestone is selected.'] });
  const milestone = await trx('projects_milestones').where('id', milestoneId).first('project_id');
  if (milestone && Number(milestone.project_id) !== Number(projectId)) {
    throw new ValidationError({ milestone_id: ['The selected milestone does not belong to the selected project.'] });
  }
};
