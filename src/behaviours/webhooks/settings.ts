// What the webhook behaviours need from the running service, set once at boot (src/app/build-app.ts):
// the registry (the resources a subscription may ask for) and whether targets on internal
// addresses are allowed (WEBHOOKS_ALLOW_PRIVATE_TARGETS).
import type { Registry } from '../../../engine/index.ts';

export interface WebhookSettings {
  registry: Registry;
  allowPrivateTargets: boolean;
}

let current: WebhookSettings | undefined;

export function configureWebhooks(settings: WebhookSettings): void {
  current = settings;
}

export function webhookSettings(): WebhookSettings {
  if (!current) throw new Error('Webhooks are not configured: the service sets them at boot (configureWebhooks).');
  return current;
}
