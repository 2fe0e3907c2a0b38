// What the webhook behaviours need from the running service, set once at boot (src/app/build-app.ts):
// the registry (the resources a subscription may ask for) and what targets may be besides public
// addresses (WEBHOOKS_ALLOW_LOOPBACK_TARGETS, WEBHOOKS_ALLOW_PRIVATE_TARGETS).
import type { Registry, TargetScope } from '../../../engine/index.ts';

export interface WebhookSettings {
  registry: Registry;
  targetScope: TargetScope;
}

let current: WebhookSettings | undefined;

export function configureWebhooks(settings: WebhookSettings): void {
  current = settings;
}

export function webhookSettings(): WebhookSettings {
  if (!current) throw new Error('Webhooks are not configured: the service sets them at boot (configureWebhooks).');
  return current;
}
