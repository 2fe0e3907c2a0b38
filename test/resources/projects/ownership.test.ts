// Who may change projects and tasks (reference §2.7-8, §3): the permissions by their original
// names, and the record scope: a project is owned by its manager (user_id), a task by its
// assignees (users). An `individual` user changes only what they own, and sees only what they
// created or own (the rest answers 404, as in the original); `bypass_ownership_scope` lifts that.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newestCursor } from '../../../engine/index.ts';
import { userWith } from '../../helpers/access.ts';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const P = `${API}/projects`;
const ABILITIES = ['view_any', 'view', 'create', 'update', 'delete', 'restore', 'force_delete'];
const PROJECT_AND_TASK = ABILITIES.flatMap((ability) => [`${ability}_project_project`, `${ability}_project_task`]);

for (const target of databaseTargets()) {
  const test = suite(`projects record scope [${target.name}]`);
  let app: TestApp & { token: string };
  let solo: { id: number; token: string };
  let mate: { id: number; token: string };
  let stage: number;
  let taskStage: number;

  test.before(async () => {
    app = await sharedApp(target);
    solo = await userWith(app, { only: PROJECT_AND_TASK, resourcePermission: 'individual', name: 'solo' });
    mate = await userWith(app, { only: PROJECT_AND_TASK, resourcePermission: 'individual', name: 'mate' });
    stage = (await app.knex('projects_project_stages').orderBy('id').first('id')).id;
    const project = await app.client.post(`${P}/projects`, { token: app.token, body: { name: 'Scope home', visibility: 'public', stage_id: stage } });
    taskStage = (await app.client.post(`${P}/task-stages`, { token: app.token, body: { name: 'Scope column', project_id: project.body.data.id } })).body.data.id;
  });

  const projectManagedBy = async (userId: number | null) =>
    (await app.client.post(`${P}/projects`, { token: app.token, body: { name: 'Scoped', visibility: 'private', stage_id: stage, user_id: userId } })).body.data.id as number;
  const taskFor = async (users: number[]) =>
    (await app.client.post(`${P}/tasks`, { token: app.token, body: { title: 'Scoped', state: 'approved', stage_id: taskStage, users } })).body.data.id as number;

  test('a project: its creator and its manager see it, its manager changes it, nobody else below global', async () => {
    const own = await projectManagedBy(solo.id);
    const others = await projectManagedBy(mate.id);
    const unmanaged = await projectManagedBy(null);
    const update = async (id: number) => (await app.client.put(`${P}/projects/${id}`, { token: solo.token, body: { description: 'by solo' } })).status;
    assert.is(await update(own), 200);
    assert.is(await update(others), 404, 'neither created nor managed by solo: not visible');
    assert.is(await update(unmanaged), 404);
    assert.is((await app.client.get(`${P}/projects/${others}`, { token: solo.token })).status, 404);
    assert.is((await app.client.get(`${P}/projects/${others}`, { token: mate.token })).status, 200);
    assert.is((await app.client.delete(`${P}/projects/${others}`, { token: solo.token })).status, 404);
    assert.is((await app.client.delete(`${P}/projects/${own}`, { token: solo.token })).status, 200);
    assert.is((await app.client.post(`${P}/projects/${own}/restore`, { token: mate.token })).status, 404);
    assert.is((await app.client.post(`${P}/projects/${own}/restore`, { token: solo.token })).status, 200);
    assert.is((await app.client.delete(`${P}/projects/${own}/force`, { token: mate.token })).status, 404);

    // Created by solo but managed by mate: solo sees it and may not change it.
    const created = await app.client.post(`${P}/projects`, { token: solo.token, body: { name: 'Solo made', visibility: 'public', stage_id: stage, user_id: mate.id } });
    assert.is(created.status, 201);
    const made = created.body.data.id as number;
    assert.is((await app.client.get(`${P}/projects/${made}`, { token: solo.token })).status, 200);
    assert.is(await update(made), 403);

    const listed = await app.client.get(`${P}/projects`, { token: solo.token, query: { per_page: 100 } });
    assert.is(listed.status, 200);
    const ids = listed.body.data.map((project: { id: number }) => project.id);
    assert.ok(ids.includes(own) && ids.includes(made), 'what solo manages or created');
    assert.ok(!ids.includes(others) && !ids.includes(unmanaged), 'nothing else');
    assert.is(listed.body.meta.total, ids.length);

    const overseer = await userWith(app, { only: [...PROJECT_AND_TASK, 'bypass_ownership_scope'], resourcePermission: 'individual', name: 'overseer' });
    assert.is((await app.client.get(`${P}/projects/${others}`, { token: overseer.token })).status, 200, 'bypass_ownership_scope sees every project');
    assert.is((await app.client.put(`${P}/projects/${others}`, { token: overseer.token, body: { description: 'x' } })).status, 403, 'and still changes only its own');
  });

  test('a task: its creator and its assignees see it, any assignee changes it', async () => {
    const shared = await taskFor([mate.id, solo.id]);
    const theirs = await taskFor([mate.id]);
    const update = async (id: number) => (await app.client.put(`${P}/tasks/${id}`, { token: solo.token, body: { description: 'by solo' } })).status;
    assert.is(await update(shared), 200);
    assert.is(await update(theirs), 404, 'not assigned to solo: not visible');
    assert.is(await update(await taskFor([])), 404, 'a task without assignees is for global users (and its creator to read)');
    const handed = await app.client.put(`${P}/tasks/${theirs}`, { token: app.token, body: { users: [solo.id] } });
    assert.is(handed.status, 200);
    assert.is(await update(theirs), 200, 'assigned now');
    const listed = await app.client.get(`${P}/tasks`, { token: mate.token, query: { per_page: 100 } });
    assert.equal(
      listed.body.data.map((task: { id: number }) => task.id).filter((id: number) => id === shared || id === theirs),
      [shared],
      'mate no longer sees the task handed to solo',
    );
    assert.is((await app.client.delete(`${P}/tasks/${shared}`, { token: mate.token })).status, 200);
    assert.is((await app.client.delete(`${P}/tasks/${shared}/force`, { token: solo.token })).status, 200);
  });

  test('the change feed shows an individual user the changes of the projects they may see', async () => {
    // From the feed's newest change: what came before may be gone to retention (another suite purges the shared feed).
    let after = await newestCursor({ knex: app.knex });
    const own = await projectManagedBy(solo.id);
    const others = await projectManagedBy(mate.id);
    const records: number[] = [];
    for (let more = true; more; ) {
      const feed = await app.client.get(`${API}/changes`, { token: solo.token, query: { resources: 'projects/projects', after, limit: 500 } });
      assert.is(feed.status, 200, feed.text);
      records.push(...feed.body.data.map((change: { record_id: number }) => change.record_id));
      after = feed.body.next_cursor;
      more = feed.body.has_more;
    }
    assert.ok(records.includes(own));
    assert.ok(!records.includes(others));
  });

  test('the permissions go by the original’s names: no tag, stage or milestone permission, no access to them', async () => {
    for (const path of ['tags', 'project-stages', 'task-stages', 'milestones']) {
      assert.is((await app.client.get(`${P}/${path}`, { token: solo.token })).status, 403, path);
    }
    assert.is((await app.client.post(`${P}/tags`, { token: solo.token, body: { name: 'Nope' } })).status, 403);
    const reader = await userWith(app, { only: ['view_any_project_tag', 'create_project_tag'] });
    assert.is((await app.client.get(`${P}/tags`, { token: reader.token })).status, 200);
    assert.is((await app.client.post(`${P}/tags`, { token: reader.token, body: { name: `Allowed ${Math.random()}` } })).status, 201);
  });

  test.run();
}
