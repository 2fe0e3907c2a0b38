// The webhook delivery worker of this service (engine/webhooks/worker.ts), acting for each
// subscription as its creator with what the creator may do now. It runs in every process by
// default (WEBHOOKS_WORKER) and alone in `npm run erp -- webhooks:work`; leases keep one process
// at a time on each subscription either way.
import type { Knex } from 'knex';
import { webhookWorker, type AuthUser, type Registry, type Statements, type WebhookWorker } from '../../engine/index.ts';
import { loadAccess } from '../access/load-access.ts';
import { policy } from '../access/policy.ts';
import type { Principal } from '../access/principal.ts';
import type { Config } from '../app/config.ts';
import { configureWebhooks } from '../behaviours/webhooks/settings.ts';

export interface WebhookLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export function deliveryWorker(knex: Knex, statements: Statements, registry: Registry, config: Config, log: WebhookLog): WebhookWorker {
  configureWebhooks({ registry, targetScope: config.webhookTargets });
  return webhookWorker({
    deps: { knex, statements, registry, policy },
    principalOf: async (userId: number): Promise<AuthUser | undefined> => {
      const user = await knex('users').where('id', userId).first('id', 'name', 'email');
      if (!user) return undefined;
      const principal: Principal = { id: Number(user.id), name: user.name, email: user.email, access: await loadAccess(knex, Number(user.id)) };
      return principal;
    },
    targetScope: config.webhookTargets,
    timeoutMs: config.webhooksTimeoutSeconds * 1000,
    retryDelays: config.webhooksRetryDelaysSeconds,
    intervalMs: 1000,
    log,
  });
}
