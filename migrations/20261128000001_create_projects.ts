// The projects module (reference-projects-extras §3.7): project stages, projects with their tags
// and favourite users, task stages, milestones, tags, tasks with their assignees and tags.
//
// Differences from the original's tables, on purpose:
// - stage references refuse the delete of a stage still in use (a project's stage, a task's
//   stage): written without ON DELETE (NO ACTION, which MySQL treats as RESTRICT), so SQLite
//   reports the refusal as a foreign-key error the API answers with 409 (see 20261127000003);
// - projects_task_users is a plain pivot (task, user) without its own id, stage or timestamps,
//   which nothing writes; projects_project_stages has no unused `tags` column;
// - no timesheet columns on analytic records: this installation has no timesheets yet.
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

function restrictedId(t: Knex.CreateTableBuilder, column: string, table: string) {
  return t.integer(column).unsigned().references('id').inTable(table).index();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects_project_stages', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.boolean('is_active').notNullable().defaultTo(true).index();
    t.boolean('is_collapsed').notNullable().defaultTo(false).index();
    t.integer('sort').nullable().index();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('projects_projects', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('tasks_label', 255).nullable();
    t.text('description').nullable();
    t.string('visibility', 20).notNullable().index();
    t.string('color', 255).nullable();
    t.integer('sort').nullable().index();
    t.date('start_date').nullable().index();
    t.date('end_date').nullable().index();
    t.decimal('allocated_hours', 8, 2).nullable().index();
    t.boolean('allow_timesheets').notNullable().defaultTo(false).index();
    t.boolean('allow_milestones').notNullable().defaultTo(false).index();
    t.boolean('allow_task_dependencies').notNullable().defaultTo(false).index();
    t.boolean('is_active').notNullable().defaultTo(true).index();
    restrictedId(t, 'stage_id', 'projects_project_stages').notNullable();
    foreignId(t, 'partner_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('projects_user_project_favorites', (t) => {
    foreignId(t, 'project_id', 'projects_projects', 'CASCADE').notNullable();
    foreignId(t, 'user_id', 'users', 'CASCADE').notNullable();
    t.primary(['project_id', 'user_id']);
  });

  await knex.schema.createTable('projects_tags', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().unique('projects_tags_name_unique');
    t.string('color', 7).nullable().index();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('projects_project_tag', (t) => {
    foreignId(t, 'project_id', 'projects_projects', 'CASCADE').notNullable();
    foreignId(t, 'tag_id', 'projects_tags', 'CASCADE').notNullable();
    t.primary(['project_id', 'tag_id']);
  });

  await knex.schema.createTable('projects_task_stages', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.boolean('is_active').notNullable().defaultTo(true).index();
    t.boolean('is_collapsed').notNullable().defaultTo(false).index();
    t.integer('sort').nullable().index();
    foreignId(t, 'project_id', 'projects_projects', 'CASCADE').notNullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('projects_milestones', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.datetime('deadline', { precision: 6 }).nullable().index();
    t.boolean('is_completed').notNullable().defaultTo(false).index();
    t.datetime('completed_at', { precision: 6 }).nullable().index();
    foreignId(t, 'project_id', 'projects_projects', 'CASCADE').notNullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('projects_tasks', (t) => {
    t.increments('id');
    t.string('title', 255).notNullable().index();
    t.text('description').nullable();
    t.string('color', 255).nullable();
    t.boolean('priority').notNullable().defaultTo(false).index();
    t.string('state', 20).notNullable().index();
    t.integer('sort').nullable().index();
    t.boolean('is_active').notNullable().defaultTo(true).index();
    t.boolean('is_recurring').notNullable().defaultTo(false).index();
    t.datetime('deadline', { precision: 6 }).nullable().index();
    for (const column of ['working_hours_open', 'working_hours_close', 'remaining_hours', 'effective_hours', 'overtime', 'progress', 'subtask_effective_hours']) {
      t.decimal(column, 8, 2).notNullable().defaultTo(0);
    }
    t.decimal('allocated_hours', 8, 2).notNullable().defaultTo(0).index();
    t.decimal('total_hours_spent', 8, 2).notNullable().defaultTo(0).index();
    foreignId(t, 'project_id', 'projects_projects', 'SET NULL').nullable();
    foreignId(t, 'milestone_id', 'projects_milestones', 'SET NULL').nullable();
    restrictedId(t, 'stage_id', 'projects_task_stages').notNullable();
    foreignId(t, 'partner_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'parent_id', 'projects_tasks', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('projects_task_users', (t) => {
    foreignId(t, 'task_id', 'projects_tasks', 'CASCADE').notNullable();
    foreignId(t, 'user_id', 'users', 'CASCADE').notNullable();
    t.primary(['task_id', 'user_id']);
  });

  await knex.schema.createTable('projects_task_tag', (t) => {
    foreignId(t, 'task_id', 'projects_tasks', 'CASCADE').notNullable();
    foreignId(t, 'tag_id', 'projects_tags', 'CASCADE').notNullable();
    t.primary(['task_id', 'tag_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'projects_task_tag',
    'projects_task_users',
    'projects_tasks',
    'projects_milestones',
    'projects_task_stages',
    'projects_project_tag',
    'projects_tags',
    'projects_user_project_favorites',
    'projects_projects',
    'projects_project_stages',
  ]) {
    await knex.schema.dropTable(table);
  }
}
