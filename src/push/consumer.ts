/**
 * The queue consumer: turns pointers into signed webhook deliveries. 2xx acks; 408, 429, 5xx and
 * network errors retry with exponential backoff and jitter (honouring Retry-After) up to the attempt
 * limit; other answers, redirects and unsafe URLs fail at once. Every outcome is recorded with the task,
 * and messages that reach the dead-letter queue are recorded as given up.
 */
import type { AgentDefinition } from "../agent/types";
import { audit } from "../audit";
import { envNumber, type A2AEnv } from "../env";
import type { Task } from "../protocol/index";
import { taskStub } from "../task/names";
import type { PushPointer } from "../task/push-outbox";
import type { DeliveryState } from "../task/push-store";
import { pushBodyV03 } from "../compat/v03-shapes";
import { deliver, type DeliveryResult } from "./deliver";
import { loadSigner } from "./signing";
import { checkWebhookUrlResolved, dohResolver, UnsafeUrlError, type UrlGuardOptions } from "./url-guard";

const MAX_DELAY_SECONDS = 15 * 60;

export async function consumePushBatch(batch: MessageBatch<PushPointer>, env: A2AEnv, definition: AgentDefinition): Promise<void> {
  const deadLetters = batch.queue === (definition.options?.pushDeadLetterQueue ?? "a2a-push-dlq");
  await Promise.all(batch.messages.map((message) => (deadLetters ? giveUp(message, env) : deliverOne(message, env, definition))));
}

async function giveUp(message: Message<PushPointer>, env: A2AEnv): Promise<void> {
  const p = message.body;
  await taskStub(env, p.tenant, p.taskId).recordPushAttempt(p.configId, p.seq, "dead", "gave up: the queue's retries ran out");
  message.ack();
}

async function deliverOne(message: Message<PushPointer>, env: A2AEnv, definition: AgentDefinition): Promise<void> {
  const p = message.body;
  const task = taskStub(env, p.tenant, p.taskId);
  try {
    const payload = await task.pushPayload(p.configId, p.seq);
    if (!payload) return message.ack(); // already settled, or the config was deleted
    const signer = loadSigner(env);
    if (!signer) {
      await task.recordPushAttempt(p.configId, p.seq, "failed", "push signing key is not configured");
      return message.ack();
    }
    const started = Date.now();
    const record = (state: DeliveryState, outcome: string) => {
      audit(env, { tenant: p.tenant, caller: payload.owner }, {
        event: "push.attempt", taskId: p.taskId, configId: p.configId, seq: p.seq, outcome: `${state}: ${outcome}`, attempt: message.attempts, latencyMs: Date.now() - started,
      });
      return task.recordPushAttempt(p.configId, p.seq, state, outcome);
    };
    let url: URL;
    try {
      url = await checkWebhookUrlResolved(payload.config.url, guardOptions(env));
    } catch (error) {
      if (error instanceof UnsafeUrlError) {
        await record("failed", `refused: the webhook url ${error.message}`);
        return message.ack();
      }
      // DNS over HTTPS did not answer: a transient failure, retried like a network error.
      return settle(message, { kind: "retry", reason: `the webhook host could not be checked: ${String(error)}` }, env, definition, record);
    }
    // A config registered over A2A 0.3 gets the 0.3 payload: the task itself (reference §8.1 #5).
    const body = payload.version === "0.3" && payload.taskJson ? pushBodyV03(JSON.parse(payload.taskJson) as Task) : payload.eventJson;
    const result = await deliver({ url, config: payload.config, agentUrl: payload.agentUrl, taskId: p.taskId, seq: p.seq, body, version: payload.version }, await signer);
    await settle(message, result, env, definition, record);
  } catch (error) {
    // Our own trouble (the task object unreachable, say): let the queue try again.
    console.error(`push delivery for task ${p.taskId} failed:`, error);
    message.retry({ delaySeconds: backoffSeconds(message.attempts, env) });
  }
}

/** Loopback and http only where explicitly allowed; elsewhere names are resolved (unless PUSH_DNS_CHECK is "off"). */
function guardOptions(env: A2AEnv): UrlGuardOptions {
  if (env.ALLOW_INSECURE_WEBHOOKS === "true") return { allowInsecure: true };
  return env.PUSH_DNS_CHECK === "off" ? {} : { resolve: dohResolver() };
}

async function settle(
  message: Message<PushPointer>, result: DeliveryResult, env: A2AEnv, definition: AgentDefinition,
  record: (state: DeliveryState, outcome: string) => Promise<void>,
): Promise<void> {
  if (result.kind === "delivered") {
    await record("delivered", `HTTP ${result.status}`);
    return message.ack();
  }
  if (result.kind === "failed") {
    await record("failed", result.reason);
    return message.ack();
  }
  const maxAttempts = envNumber(env.PUSH_MAX_ATTEMPTS, definition.options?.pushMaxAttempts ?? 8);
  if (message.attempts >= maxAttempts) {
    await record("dead", `gave up after ${message.attempts} attempts; last: ${result.reason}`);
    return message.ack();
  }
  const delaySeconds = Math.min(result.retryAfterSeconds ?? backoffSeconds(message.attempts, env), 12 * 3600);
  await record("queued", `attempt ${message.attempts}: ${result.reason}; retrying in ${delaySeconds} s`);
  message.retry({ delaySeconds });
}

/** Exponential backoff with full jitter: base · 2^(attempt-1), capped, randomized in [half, full]. */
function backoffSeconds(attempts: number, env: A2AEnv): number {
  const base = Number(env.PUSH_RETRY_BASE_SECONDS ?? 5);
  if (!(base > 0)) return 0;
  const ceiling = Math.min(base * 2 ** Math.max(0, attempts - 1), MAX_DELAY_SECONDS);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
