// One attempt at a webhook delivery: the payload POSTed with the Standard Webhooks headers
// (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 of `id.timestamp.payload` with the
// subscription's secret, signed by the `standardwebhooks` package, the scheme's reference code).
// A receiver has `timeoutMs` to answer; redirects are not followed (a redirect could lead inside
// the network) and at most 64 KB of the answer is read, so a slow or hostile receiver costs one
// attempt, never the API.
import { Webhook } from 'standardwebhooks';
import type { Agent } from 'undici';
import { guardedLookup, type TargetScope } from './target-guard.ts';

export interface Delivery {
  url: string;
  /** `whsec_` and the key in base64. */
  secret: string;
  messageId: string;
  payload: string;
  timeoutMs: number;
  /** What the target may be besides a public address. */
  scope: TargetScope;
}

/** The receiver's status code, or why there was none. */
export interface Outcome {
  status?: number;
  error?: string;
}

const MAX_ANSWER_BYTES = 64 * 1024;
const agents = new Map<TargetScope, Agent>();
/** undici is loaded by the first delivery, not at boot: ~20 MB resident that a process with no subscription never needs. */
let undici: Promise<typeof import('undici')> | undefined;

function agentFor(Agent: typeof import('undici').Agent, scope: TargetScope): Agent {
  let agent = agents.get(scope);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(scope) as never }, keepAliveTimeout: 10_000 });
    agents.set(scope, agent);
  }
  return agent;
}

export async function sendWebhook(delivery: Delivery): Promise<Outcome> {
  const timestamp = new Date();
  const signature = new Webhook(delivery.secret).sign(delivery.messageId, timestamp, delivery.payload);
  try {
    const { Agent, request } = await (undici ??= import('undici'));
    const response = await request(delivery.url, {
      method: 'POST',
      dispatcher: agentFor(Agent, delivery.scope),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'erp-admin-api-webhooks',
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: delivery.payload,
      headersTimeout: delivery.timeoutMs,
      bodyTimeout: delivery.timeoutMs,
      signal: AbortSignal.timeout(delivery.timeoutMs),
    });
    await response.body.dump({ limit: MAX_ANSWER_BYTES }).catch(() => {});
    return { status: response.statusCode };
  } catch (error) {
    const e = error as { name?: string; code?: string; message?: string };
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT') return { error: `no answer within ${delivery.timeoutMs} ms` };
    return { error: `${e.code ?? 'error'}: ${e.message ?? String(error)}` };
  }
}
