// Webhook subscriptions (resources/webhooks/subscriptions.yaml): the target is checked (an http or
// https URL that does not point into the service's own network), the resources asked for must be
// ones the feed has (which of them its creator may list is decided at each delivery), a new subscription gets its signing secret and starts at the newest
// change, and a subscription switched on again forgets why it had stopped.
import { randomBytes } from 'node:crypto';
import { checkTarget, formatTimestamp, nowTimestamp, TargetRefused, ValidationError, type Action, type Hook } from '../../../engine/index.ts';
import { webhookSettings } from './settings.ts';

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export const prepareSubscription: Hook = async ({ trx, values, record }) => {
  const { registry, targetScope } = webhookSettings();
  const errors: Record<string, string[]> = {};
  if (values.url !== undefined) {
    try {
      await checkTarget(String(values.url), targetScope);
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      errors.url = [error.message];
    }
  }
  if (values.resources !== undefined && values.resources !== null) {
    // A list of strings reaches hooks as the JSON text it is stored as.
    const names = (typeof values.resources === 'string' ? JSON.parse(values.resources) : values.resources) as string[];
    // What its creator may list is decided at each delivery (access changes): here, only names.
    const unknown = names.filter((name) => !registry.resources.get(name)?.operations.has('list'));
    if (unknown.length > 0) errors.resources = [`Unknown resources: ${unknown.join(', ')}. A webhook can follow the resources that can be listed.`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  if (record === undefined) {
    values.secret = newSecret();
    // Changes from now on: those after the feed's newest position when it is created.
    values.cursor = String((await trx('change_feed').where('id', 1).first('last_seq')).last_seq);
  } else if (values.is_active === true && !Number(record.is_active)) {
    values.disabled_reason = null;
    values.disabled_at = null;
  }
  if (values.is_active === false && record && Number(record.is_active)) values.updated_at = nowTimestamp();
};

export const rotateSecret: Action = async ({ def, record, records }) => {
  await records(def.name).updateMany([record.id], { secret: newSecret() });
};

/**
 * A new webhook's first delivery is a ping (`webhook.ping`, as GitHub sends one): the receiver can
 * check its signature verification at once, and the webhook has a delivery to show and replay.
 */
export const queuePing: Hook = async ({ record, records }) => {
  const now = nowTimestamp();
  await records('webhooks/deliveries').create(
    {
      subscription_id: record!.id,
      message_id: `msg_ping_${record!.id}`,
      change_cursor: String(record!.cursor),
      resource: 'webhooks/subscriptions',
      record_id: record!.id,
      kind: 'ping',
      payload: JSON.stringify({ type: 'webhook.ping', timestamp: formatTimestamp(now), data: { webhook_id: Number(record!.id) } }),
      status: 'pending',
      attempts_count: 0,
      next_attempt_at: now,
    },
    { system: true },
  );
};
