/** What an agent author writes against: the definition, the executor and its context. */
import type { JSONWebKeySet, JWTPayload } from "jose";
import type { A2AEnv } from "../env";
import type { AgentCapabilities, AgentExtension, AgentSkill, Message, Part, SecurityRequirement, SecurityScheme, Task, TaskState } from "../protocol/index";

/** The authenticated caller. `id` scopes tasks: a caller sees only its own. */
export interface Principal {
  id: string;
  /** The security scheme that authenticated the caller, when there was one. */
  scheme?: string;
  claims?: Readonly<Record<string, unknown>>;
}

export const ANONYMOUS: Principal = { id: "anonymous" };

/** Text, or parts as they go on the wire. */
export type Content = string | Part[];

export interface ArtifactInput {
  /** Reuse the id of an earlier chunk to append to it; minted when absent. */
  artifactId?: string;
  name?: string;
  description?: string;
  /** The content of this artifact or chunk. */
  content: Content;
  /** Adds `content` to the artifact with the same id instead of replacing it. */
  append?: boolean;
  /** Marks the final chunk. */
  lastChunk?: boolean;
  metadata?: Record<string, unknown>;
}

/**
 * The executor's view of one run: the incoming message, the task so far and the ways to answer.
 * Emitting is synchronous: each call stores the event and sends it to subscribers before it returns.
 * Calls after the task reached a terminal state are ignored.
 */
export interface AgentContext {
  /** The user's message that started this run. */
  readonly message: Message;
  /** The task as it stands (undefined until the first emission of a new task). */
  readonly task: Readonly<Task> | undefined;
  readonly taskId: string;
  readonly contextId: string;
  readonly tenant: string;
  readonly caller: Principal;
  /** Media types the client accepts, when it said so. */
  readonly acceptedOutputModes: readonly string[] | undefined;
  /** Aborted when the task is canceled or its deadline passes. */
  readonly signal: AbortSignal;
  /** URIs of the declared extensions the client activated (A2A-Extensions). */
  readonly extensions: readonly string[];
  /** The Worker's environment: your own bindings and secrets (cast to your Env type). */
  readonly env: A2AEnv;

  /** Answers with a bare Message and no task. Only as the first emission; on an existing task it completes it. */
  reply(content: Content): void;
  /** Sets any state, with an optional agent message. */
  status(state: TaskState, content?: Content): void;
  working(content?: Content): void;
  /** Adds or extends an artifact; returns its id so later chunks can append to it. */
  artifact(input: ArtifactInput): string;
  complete(content?: Content): void;
  askForInput(content: Content): void;
  requireAuth(content: Content): void;
  fail(content?: Content): void;
  reject(content?: Content): void;
  /** Builds an agent message for this task (ids and role filled in). */
  agentMessage(content: Content): Message;
}

export type Executor = (context: AgentContext) => void | Promise<void>;

/** Called when a client cancels; the run's `signal` is aborted first. The task then ends CANCELED. */
export type CancelHandler = (context: AgentContext) => void | Promise<void>;

/** How to check tokens of one JWT-based scheme (HTTP Bearer, OAuth2, OpenID Connect). */
export interface JwtVerification {
  /** Where the signing keys are (not needed for OpenID Connect: discovered), or the keys themselves. */
  jwksUrl?: string;
  keys?: JSONWebKeySet;
  /** Expected `iss` (OpenID Connect: from discovery unless given). */
  issuer?: string | string[];
  /** Expected `aud`. */
  audience: string | string[];
  /** Accepted algorithms (default: RS256, PS256, ES256, ES384, EdDSA, Ed25519 — never `none`, never HMAC). */
  algorithms?: string[];
  /** Allowed clock skew in seconds (default 30). */
  clockToleranceSeconds?: number;
  /** The caller's id from the claims (default: `sub`). */
  callerId?: (claims: JWTPayload) => string | undefined;
}

/** How each scheme of the card is checked, by scheme name. Values may depend on the environment. */
export interface AuthConfig {
  [schemeName: string]:
    | { jwt: JwtVerification | ((env: A2AEnv) => JwtVerification) }
    /** API keys: key → caller id (e.g. from a secret holding JSON). */
    | { apiKeys: (env: A2AEnv) => Record<string, string> | undefined };
}

/** The Agent Card facts an author gives; interfaces, capabilities and defaults are filled in. */
export interface AgentCardFacts {
  name: string;
  description: string;
  version: string;
  skills: AgentSkill[];
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  iconUrl?: string;
  /** Default ["text/plain"]. */
  defaultInputModes?: string[];
  /** Default ["text/plain"]. */
  defaultOutputModes?: string[];
  capabilities?: Pick<AgentCapabilities, "streaming" | "extendedAgentCard"> & { extensions?: AgentExtension[] };
  /** A tenant the interfaces declare: clients then send it with every request. */
  tenant?: string;
  securitySchemes?: Record<string, SecurityScheme>;
  securityRequirements?: SecurityRequirement[];
}

export interface Limits {
  /** Parts in one message (default 100). */
  partsPerMessage: number;
  /** Characters in one text part (default 1,000,000). */
  textLength: number;
  /** Bytes of JSON in a message's and a request's metadata together (default 64 KiB). */
  metadataBytes: number;
  /** Tasks one caller may have that are not terminal (default 1000). */
  activeTasksPerCaller: number;
  /** Open streams on one task (default 1000). */
  subscribersPerTask: number;
  /** Messages one task's history may hold before new messages are refused (default 1000). */
  historyPerTask: number;
  /** Bytes of artifact parts one task may hold; an agent that emits more fails the task (default 10 MiB). */
  artifactBytesPerTask: number;
}

export const DEFAULT_LIMITS: Limits = {
  partsPerMessage: 100,
  textLength: 1_000_000,
  metadataBytes: 64 * 1024,
  activeTasksPerCaller: 1000,
  subscribersPerTask: 1000,
  historyPerTask: 1000,
  artifactBytesPerTask: 10 * 1024 * 1024,
};

export interface AgentOptions {
  /** Largest accepted request body in bytes (default 4 MiB); env MAX_BODY_BYTES overrides. */
  maxBodyBytes?: number;
  /** How long one executor run may take before the task fails (default 15 min); env EXECUTOR_TIMEOUT_MS overrides. */
  executorTimeoutMs?: number;
  /** The public origin used in the card (default: the request's origin); env PUBLIC_BASE_URL overrides. */
  publicBaseUrl?: string;
  /** Card Cache-Control max-age in seconds (default 300). */
  cardMaxAgeSeconds?: number;
  /** SSE keep-alive comment interval (default 15 s). */
  heartbeatMs?: number;
  /** Which events are pushed: "all" status and artifact updates (default) or only "final" and interrupted states. */
  pushEvents?: "all" | "final";
  /** Push configs one task may have (default 10); env MAX_PUSH_CONFIGS_PER_TASK overrides. */
  maxPushConfigsPerTask?: number;
  /** Delivery attempts per notification before it is given up (default 8); env PUSH_MAX_ATTEMPTS overrides. */
  pushMaxAttempts?: number;
  /** A task waiting for input or authorization this long is canceled (default 7 days; 0 never); env INTERRUPTED_TIMEOUT_SECONDS overrides. */
  interruptedTimeoutSeconds?: number;
  /** A finished task is purged this long after it ended (default 30 days; 0 never); env TASK_RETENTION_SECONDS overrides. */
  retentionSeconds?: number;
  /** Limits on what clients send; each refusal says which limit. */
  limits?: Partial<Limits>;
  /** Browser origins allowed to call the API ("*" for any); env CORS_ORIGINS overrides. Default: none. */
  corsOrigins?: string[];
  /** The dead-letter queue's name (default "a2a-push-dlq"): its messages are recorded as given up. */
  pushDeadLetterQueue?: string;
  /**
   * Serve the hybrid Agent Card that A2A 0.3 clients can read too (default false; env A2A_V03_COMPAT
   * "true" / "false" overrides). 0.3 requests are answered either way; this only adds the 0.3 fields to
   * the card, which the v1.0 conformance kit's strict card schema would refuse.
   */
  v03Compat?: boolean;
  /**
   * Serve the web console at `GET /`: a page that shows the Agent Card, chats with the agent, lists and
   * follows tasks and shows every request and event as JSON (default false; env A2A_CONSOLE "true" /
   * "false" overrides; `npm run dev` turns it on). The page is public; its API calls carry the
   * credentials the person types in.
   */
  console?: boolean;
}

export interface AgentDefinition {
  card: AgentCardFacts;
  execute: Executor;
  cancel?: CancelHandler;
  /** How each security scheme the card declares is verified (by scheme name). */
  auth?: AuthConfig;
  /**
   * The authenticated extended card (GetExtendedAgentCard): facts that replace the public card's, the
   * same for every caller or computed per caller.
   */
  extendedCard?: Partial<AgentCardFacts> | ((caller: Principal, env: A2AEnv) => Partial<AgentCardFacts> | Promise<Partial<AgentCardFacts>>);
  options?: AgentOptions;
}
