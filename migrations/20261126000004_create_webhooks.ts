// Webhooks (resources/webhooks/, engine/webhooks/): subscriptions with their signing secret and the
// feed position they have reached, one delivery per change sent (with its payload, so that every
// attempt sends the same bytes), and each attempt. A subscription's lease lets one process at a
// time deliver for it; a process that dies loses its lease after LEASE seconds.
import type { Knex } from 'knex';
import { creator, foreignId, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.increments('id');
    t.string('url', 2048).notNullable();
    t.string('description', 255).nullable();
    t.text('resources').nullable();
    t.text('kinds').nullable();
    t.boolean('is_active').notNullable().defaultTo(true).index();
    t.string('disabled_reason', 255).nullable();
    t.datetime('disabled_at', { precision: 6 }).nullable();
    t.string('secret', 100).notNullable();
    // The feed position up to which its changes have become deliveries.
    t.string('cursor', 20).notNullable().defaultTo('0');
    t.string('lease_owner', 64).nullable();
    t.datetime('lease_until', { precision: 6 }).nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.increments('id');
    foreignId(t, 'subscription_id', 'webhook_subscriptions', 'CASCADE').notNullable();
    t.string('message_id', 40).notNullable();
    t.string('change_cursor', 20).notNullable();
    t.string('resource', 100).notNullable();
    t.bigInteger('record_id').notNullable();
    t.string('kind', 64).notNullable();
    t.text('payload', 'mediumtext').notNullable();
    t.string('status', 16).notNullable();
    t.integer('attempts_count').notNullable().defaultTo(0);
    t.datetime('next_attempt_at', { precision: 6 }).nullable();
    t.integer('last_response_code').nullable();
    // Sent again on request: ahead of the subscription's other deliveries.
    t.boolean('replay').notNullable().defaultTo(false);
    timestamps(t, { indexed: false });
    t.unique(['subscription_id', 'message_id']);
    t.index(['subscription_id', 'status', 'id']);
  });

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.increments('id');
    foreignId(t, 'delivery_id', 'webhook_deliveries', 'CASCADE').notNullable();
    t.datetime('started_at', { precision: 6 }).notNullable();
    t.integer('duration_ms').notNullable();
    t.integer('response_code').nullable();
    t.string('error', 255).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_subscriptions');
}
