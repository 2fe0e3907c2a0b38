// The projects module's rules the definition-driven suite cannot know (reference §3): the seeded
// stages, a project's date range, tasks' partner, company and milestone rules, milestone
// completion, tag colours, names unique with trashed rows, 409s where stages are still in use,
// the counts and what force-deleting a project takes with it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const P = `${API}/projects`;

for (const target of databaseTargets()) {
  const test = suite(`projects module [${target.name}]`);
  let app: TestApp & { token: string };
  const run = Math.random().toString(36).slice(2, 8);
  const ids: Record<string, number> = {};

  const post = async (path: string, body: Record<string, unknown>, status = 201) => {
    const response = await app.client.post(`${P}/${path}`, { token: app.token, body });
    assert.is(response.status, status, `${path}: ${response.text}`);
    return response.body;
  };
  const put = (path: string, body: Record<string, unknown>) => app.client.put(`${P}/${path}`, { token: app.token, body });
  const project = async (body: Record<string, unknown> = {}) => (await post('projects', { name: `Project ${run}`, visibility: 'internal', stage_id: ids.stage, ...body })).data;
  const taskStage = async (projectId: number) => (await post('task-stages', { name: `Backlog ${run}`, project_id: projectId })).data;
  const task = async (body: Record<string, unknown>) => (await post('tasks', { title: `Task ${run}`, state: 'in_progress', ...body })).data;

  test.before(async () => {
    app = await sharedApp(target);
    ids.stage = (await app.knex('projects_project_stages').orderBy('id').first('id')).id;
    ids.company = (await app.knex('companies').orderBy('id').first('id')).id;
    ids.adminCompany = (await app.knex('users').where('email', 'admin@example.com').first('default_company_id')).default_company_id;
    const partner = async (name: string) =>
      (await app.client.post(`${API}/partners/partners`, { token: app.token, body: { account_type: 'company', name: `${name} ${run}` } })).body.data.id as number;
    ids.customer = await partner('Project customer');
    ids.otherCustomer = await partner('Other customer');
  });

  test('a fresh installation has the four project stages, and the Admin role holds the module’s permissions', async () => {
    const stages = await app.client.get(`${P}/project-stages?sort=id&per_page=4`, { token: app.token });
    assert.is(stages.status, 200, stages.text);
    assert.equal(
      stages.body.data.map((stage: any) => [stage.name, stage.sort, stage.is_active]),
      [
        ['To Do', 1, true],
        ['In Progress', 2, true],
        ['Done', 3, true],
        ['Cancelled', 4, true],
      ],
    );
    const names = [
      'view_any_project_project',
      'update_project_project::stage',
      'create_project_task::stage',
      'delete_project_milestone',
      'create_project_tag',
      'force_delete_project_task',
    ];
    const held = await app
      .knex('role_permissions')
      .join('roles', 'roles.id', 'role_permissions.role_id')
      .join('permissions', 'permissions.id', 'role_permissions.permission_id')
      .where('roles.name', 'Admin')
      .whereIn('permissions.name', names)
      .pluck('permissions.name');
    assert.equal(held.sort(), [...names].sort());
    assert.is(await app.knex('permissions').where('name', 'restore_project_milestone').first('id'), undefined, 'milestones have no trash');
  });

  test('a project’s start and end dates go together, the start not after the end', async () => {
    const only = await app.client.post(`${P}/projects`, { token: app.token, body: { name: 'Dated', visibility: 'public', stage_id: ids.stage, start_date: '2026-02-01' } });
    assert.is(only.status, 422);
    assert.equal(only.body.errors, { end_date: ['The end date field is required when start date is present.'] });
    const reversed = await app.client.post(`${P}/projects`, {
      token: app.token,
      body: { name: 'Dated', visibility: 'public', stage_id: ids.stage, start_date: '2026-03-01', end_date: '2026-02-01' },
    });
    assert.equal(reversed.body.errors, {
      start_date: ['The start date field must be a date before or equal to end date.'],
      end_date: ['The end date field must be a date after or equal to start date.'],
    });
    const dated = await project({ start_date: '2026-02-01', end_date: '2026-02-01', allocated_hours: 12.5 });
    assert.is(dated.start_date, '2026-02-01T00:00:00.000000Z');
    assert.is(dated.allocated_hours, 12.5, 'stored as sent (the original shows 12)');
    assert.is(dated.is_active, true, 'what is stored, not the original’s false');
    assert.is(dated.company_id, null, 'a project gets no company unless sent');
    const negative = await put(`projects/${dated.id}`, { allocated_hours: -1 });
    assert.equal(negative.body.errors, { allocated_hours: ['The allocated hours field must be at least 0.'] });
  });

  test('a task takes its project’s customer and company, else the user’s default company', async () => {
    const owned = await project({ partner_id: ids.customer, company_id: ids.company });
    const stage = await taskStage(owned.id);
    assert.is(stage.company_id, ids.company, 'a task stage belongs to its project’s company');
    const first = await task({ stage_id: stage.id, project_id: owned.id });
    assert.is(first.partner_id, ids.customer);
    assert.is(first.company_id, ids.company);
    const without = await task({ stage_id: stage.id, project_id: owned.id, partner_id: null });
    assert.is(without.partner_id, null, 'a partner sent as null stays null');
    const loose = await task({ stage_id: stage.id });
    assert.is(loose.project_id, null);
    assert.is(loose.company_id, ids.adminCompany);

    const other = await project({ partner_id: ids.otherCustomer });
    const moved = await put(`tasks/${first.id}`, { project_id: other.id });
    assert.is(moved.status, 200, moved.text);
    assert.is(moved.body.data.partner_id, ids.otherCustomer, 'moving to a project takes its customer');
    assert.is(moved.body.data.company_id, ids.company, 'the company stays the one it was created in');
    const retitled = await put(`tasks/${first.id}`, { title: 'Renamed' });
    assert.is(retitled.body.data.partner_id, ids.otherCustomer);
  });

  test('a task’s milestone belongs to its project, judged on the values it will have', async () => {
    const home = await project({ allow_milestones: true });
    const away = await project();
    const stage = await taskStage(home.id);
    const milestone = (await post('milestones', { name: 'Beta', project_id: home.id })).data;
    const orphan = await app.client.post(`${P}/tasks`, { token: app.token, body: { title: 'T', state: 'done', stage_id: stage.id, milestone_id: milestone.id } });
    assert.is(orphan.status, 422);
    assert.equal(orphan.body.errors, { project_id: ['The project field is required when milestone is selected.'] });
    const foreign = await app.client.post(`${P}/tasks`, {
      token: app.token,
      body: { title: 'T', state: 'done', stage_id: stage.id, project_id: away.id, milestone_id: milestone.id },
    });
    assert.equal(foreign.body.errors, { milestone_id: ['The selected milestone does not belong to the selected project.'] });

    const planned = await task({ stage_id: stage.id, project_id: home.id, milestone_id: milestone.id });
    assert.is(planned.milestone_id, milestone.id);
    const moved = await put(`tasks/${planned.id}`, { project_id: away.id });
    assert.is(moved.status, 422, 'the stored milestone is another project’s');
    assert.equal(moved.body.errors, { milestone_id: ['The selected milestone does not belong to the selected project.'] });
    const dropped = await put(`tasks/${planned.id}`, { project_id: away.id, milestone_id: null });
    assert.is(dropped.status, 200, dropped.text);
    assert.is(dropped.body.data.milestone_id, null);
  });

  test('a milestone is completed by hand: completing stamps it once, reopening clears it', async () => {
    const owner = await project();
    const open = (await post('milestones', { name: 'Launch', project_id: owner.id })).data;
    assert.is(open.is_completed, false);
    assert.is(open.completed_at, null);
    const done = (await put(`milestones/${open.id}`, { is_completed: true })).body.data;
    assert.ok(done.completed_at, 'stamped');
    const again = (await put(`milestones/${open.id}`, { is_completed: true, name: 'Launch!' })).body.data;
    assert.is(again.completed_at, done.completed_at, 'an earlier stamp is kept');
    const renamed = (await put(`milestones/${open.id}`, { name: 'Launch 2' })).body.data;
    assert.is(renamed.completed_at, done.completed_at);
    const reopened = (await put(`milestones/${open.id}`, { is_completed: false })).body.data;
    assert.equal([reopened.is_completed, reopened.completed_at], [false, null]);
    const completed = (await post('milestones', { name: 'Done at once', project_id: owner.id, is_completed: true })).data;
    assert.ok(completed.completed_at);
    const deleted = await app.client.delete(`${P}/milestones/${completed.id}`, { token: app.token });
    assert.equal(deleted.body, { message: 'Milestone deleted successfully.' });
    assert.is(await app.knex('projects_milestones').where('id', completed.id).first('id'), undefined, 'gone for good');
  });

  test('tags: grey unless coloured, names held by trashed tags too', async () => {
    const grey = (await post('tags', { name: `Grey ${run}` })).data;
    assert.is(grey.color, '#808080');
    const coloured = (await put(`tags/${grey.id}`, { color: '#abc' })).body.data;
    assert.is(coloured.color, '#abc');
    const cleared = (await put(`tags/${grey.id}`, { color: null })).body.data;
    assert.is(cleared.color, '#808080');
    assert.is((await app.client.delete(`${P}/tags/${grey.id}`, { token: app.token })).status, 200);
    const reused = await app.client.post(`${P}/tags`, { token: app.token, body: { name: `Grey ${run}` } });
    assert.is(reused.status, 422, 'not a 500: restore the trashed tag instead');
    assert.equal(reused.body.errors, { name: ['The name has already been taken.'] });
  });

  test('project stages: names unique among live stages, a trashed stage’s name free again', async () => {
    const name = `Review ${run}`;
    const stage = (await post('project-stages', { name })).data;
    assert.is(stage.is_active, true);
    const duplicate = await app.client.post(`${P}/project-stages`, { token: app.token, body: { name } });
    assert.equal(duplicate.body.errors, { name: ['The name has already been taken.'] });
    assert.is((await put(`project-stages/${stage.id}`, { name })).status, 200, 'a stage keeps its own name');
    await app.client.delete(`${P}/project-stages/${stage.id}`, { token: app.token });
    const reused = await app.client.post(`${P}/project-stages`, { token: app.token, body: { name } });
    assert.is(reused.status, 201, reused.text);
  });

  test('stages still in use cannot be deleted for good (409); trashed users count', async () => {
    const stage = (await post('project-stages', { name: `Used ${run}` })).data;
    const user = await project({ stage_id: stage.id });
    await app.client.delete(`${P}/projects/${user.id}`, { token: app.token });
    const refused = await app.client.delete(`${P}/project-stages/${stage.id}/force`, { token: app.token });
    assert.is(refused.status, 409, refused.text);
    assert.match(refused.body.message, /Project stage cannot be deleted because it still has Project records/);

    const owner = await project();
    const column = await taskStage(owner.id);
    await task({ stage_id: column.id, project_id: owner.id });
    const inUse = await app.client.delete(`${P}/task-stages/${column.id}/force`, { token: app.token });
    assert.is(inUse.status, 409, inUse.text);
    assert.match(inUse.body.message, /Task stage cannot be deleted because it still has Task records/);
    const projectGone = await app.client.delete(`${P}/projects/${owner.id}/force`, { token: app.token });
    assert.is(projectGone.status, 409, `its task stage is still used by a task: ${projectGone.text}`);
    assert.ok(await app.knex('projects_projects').where('id', owner.id).first('id'), 'nothing was deleted');
  });

  test('force-deleting a project takes its task stages and milestones; its tasks stay, without a project', async () => {
    const keep = await project();
    const keptStage = await taskStage(keep.id);
    const doomed = await project();
    const doomedStage = await taskStage(doomed.id);
    const milestone = (await post('milestones', { name: 'M', project_id: doomed.id })).data;
    const survivor = await task({ stage_id: keptStage.id, project_id: doomed.id, milestone_id: milestone.id });
    const gone = await app.client.delete(`${P}/projects/${doomed.id}/force`, { token: app.token });
    assert.equal(gone.body, { message: 'Project permanently deleted.' });
    assert.is(await app.knex('projects_task_stages').where('id', doomedStage.id).first('id'), undefined);
    assert.is(await app.knex('projects_milestones').where('id', milestone.id).first('id'), undefined);
    const shown = (await app.client.get(`${P}/tasks/${survivor.id}`, { token: app.token })).body.data;
    assert.equal([shown.project_id, shown.milestone_id], [null, null]);
  });

  test('counts come with the row: live tasks of a project, live sub-tasks of a task, in one statement per page', async () => {
    const counted = await project();
    const stage = await taskStage(counted.id);
    const parent = await task({ stage_id: stage.id, project_id: counted.id });
    const children = [await task({ stage_id: stage.id, project_id: counted.id, parent_id: parent.id }), await task({ stage_id: stage.id, parent_id: parent.id })];
    await app.client.delete(`${P}/tasks/${children[1].id}`, { token: app.token });
    const shown = await app.client.get(`${P}/projects/${counted.id}?include=taskStages,tasks`, { token: app.token });
    assert.is(shown.body.data.tasks_count, 2, 'the trashed sub-task is left out');
    assert.is(shown.body.data.taskStages.length, 1, 'the original’s camelCase key');
    assert.is((await app.client.get(`${P}/tasks/${parent.id}?include=subTasks`, { token: app.token })).body.data.subtasks_count, 1);

    const many = [counted.id];
    for (let i = 0; i < 6; i++) {
      const p = await project();
      many.push(p.id);
      await task({ stage_id: stage.id, project_id: p.id });
    }
    const statements = async (projectIds: number[]) => {
      let count = 0;
      const listener = () => count++;
      app.knex.on('query', listener);
      try {
        const list = await app.client.get(`${P}/projects?filter[id]=${projectIds.join(',')}`, { token: app.token });
        assert.is(list.status, 200);
        assert.ok(list.body.data.every((row: any) => typeof row.tasks_count === 'number'));
      } finally {
        app.knex.off('query', listener);
      }
      return count;
    };
    await statements([counted.id]);
    const one = await statements([counted.id]);
    assert.ok(one > 0, 'statements are counted');
    assert.is(await statements(many), one, 'the counts add no statement per row');
  });

  test.run();
}
