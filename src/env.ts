/** The bindings and variables a2a-edge reads; wrangler.toml declares them. */
import type { TaskIndexObject } from "./task/index-object";
import type { PushPointer } from "./task/push-outbox";
import type { TaskObjectBase } from "./task/task-object";

export interface A2AEnv {
  TASKS: DurableObjectNamespace<TaskObjectBase>;
  TASK_INDEX: DurableObjectNamespace<TaskIndexObject>;
  PUBLIC_BASE_URL?: string;
  MAX_BODY_BYTES?: string;
  EXECUTOR_TIMEOUT_MS?: string;
  /** Push delivery: the queue producer, and the private JWK that signs notifications. */
  PUSH_QUEUE?: Queue<PushPointer>;
  PUSH_SIGNING_JWK?: string;
  /** The private JWK that signs the Agent Card (optional). */
  CARD_SIGNING_JWK?: string;
  /** Browser origins allowed to call the API: "*" or a comma list (default: none; the card is always public). */
  CORS_ORIGINS?: string;
  /** The key before the last rotation: still published in the JWKS. */
  PUSH_SIGNING_JWK_PREVIOUS?: string;
  /** "true" allows http and loopback webhooks. Local testing and the conformance kit only — never in production. */
  ALLOW_INSECURE_WEBHOOKS?: string;
  /** "off" skips resolving webhook hosts over DNS-over-HTTPS before delivery (on by default). */
  PUSH_DNS_CHECK?: string;
  PUSH_MAX_ATTEMPTS?: string;
  PUSH_RETRY_BASE_SECONDS?: string;
  /** A notification the queue holds without a word from the consumer for this long is enqueued again (default 900). */
  PUSH_REQUEUE_AFTER_SECONDS?: string;
  MAX_PUSH_CONFIGS_PER_TASK?: string;
}

/** Push is on when the queue is bound and a signing key is set. */
export function pushEnabled(env: A2AEnv): boolean {
  return env.PUSH_QUEUE !== undefined && Boolean(env.PUSH_SIGNING_JWK);
}

/** A positive integer from an env var, else the fallback. */
export function envNumber(value: string | undefined, fallback: number): number {
  const n = value === undefined ? NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
