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
  /** A task waiting for input or authorization this long is canceled (default 7 days; "0" never). */
  INTERRUPTED_TIMEOUT_SECONDS?: string;
  /** A finished task is purged this long after it ended (default 30 days; "0" never). */
  TASK_RETENTION_SECONDS?: string;
  /** Push delivery: the queue producer, and the private JWK that signs notifications. */
  PUSH_QUEUE?: Queue<PushPointer>;
  PUSH_SIGNING_JWK?: string;
  /** The private JWK that signs the Agent Card (optional). */
  CARD_SIGNING_JWK?: string;
  /** Rate Limiting bindings per operation class (send, read, stream) and per tenant; each optional. */
  RATE_LIMIT_SEND?: RateLimit;
  RATE_LIMIT_READ?: RateLimit;
  RATE_LIMIT_STREAM?: RateLimit;
  RATE_LIMIT_TENANT?: RateLimit;
  /** The period the rate limits are configured with: the Retry-After of a refusal (default 60). */
  RATE_LIMIT_PERIOD_SECONDS?: string;
  /** "true" / "false" turns the web console at GET / on or off (over options.console; default off). */
  A2A_CONSOLE?: string;
  /** "off" silences the audit log lines (tests); on by default. */
  AUDIT_LOG?: string;
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
  /** "true" serves the hybrid Agent Card that A2A 0.3 clients can read too; overrides options.v03Compat. */
  A2A_V03_COMPAT?: string;
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
