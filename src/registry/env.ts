/** The bindings and variables the registry Worker reads (examples/registry/wrangler.toml declares them). */
import type { A2AEnv } from "../env";
import type { RegistryObject } from "./object";

export interface RegistryEnv extends A2AEnv {
  /** The registry's Durable Object: one per namespace (REGISTRY_NAMESPACE). */
  REGISTRY: DurableObjectNamespace<RegistryObject>;
  /** Which registry this Worker serves (default "default"): each namespace is its own object. */
  REGISTRY_NAMESPACE?: string;
  /** A secret: `Authorization: Bearer <token>` may register and unregister agents. */
  REGISTRY_ADMIN_TOKEN?: string;
  /** Optional JWT writers: tokens for this audience with the scope REGISTRY_JWT_SCOPE (default registry:write). */
  REGISTRY_JWT_AUDIENCE?: string;
  REGISTRY_JWT_ISSUER?: string;
  /** The issuer's keys: a JWKS URL, or the JWKS itself as JSON. */
  REGISTRY_JWKS_URL?: string;
  REGISTRY_JWKS?: string;
  REGISTRY_JWT_SCOPE?: string;
  /** "true" admits http and loopback agent URLs. Local development and tests only — never in production. */
  REGISTRY_ALLOW_INSECURE_URLS?: string;
  /** "off" skips resolving agent hosts over DNS-over-HTTPS before each fetch (on by default). */
  REGISTRY_DNS_CHECK?: string;
  /** Timeout of one card fetch in ms (default 5000). */
  REGISTRY_FETCH_TIMEOUT_MS?: string;
  /** Card fetches in flight at once during a sweep (default 6, the Workers limit of open connections). */
  REGISTRY_SWEEP_CONCURRENCY?: string;
  /** Entries checked per sweep at most, the longest-waiting first (default 500). */
  REGISTRY_SWEEP_LIMIT?: string;
  /** No new check starts after this many ms of a sweep (default 60000); the rest wait for the next one. */
  REGISTRY_SWEEP_BUDGET_MS?: string;
  /** Consecutive failed checks before an agent is unhealthy (default 2). */
  REGISTRY_UNHEALTHY_AFTER?: string;
  /** Wait after the first failure, doubled after each further one (default 60 s), up to the maximum (default 6 h). */
  REGISTRY_BACKOFF_BASE_SECONDS?: string;
  REGISTRY_BACKOFF_MAX_SECONDS?: string;
}

/** The settings, parsed once per use with their defaults. */
export interface RegistrySettings {
  allowInsecure: boolean;
  dnsCheck: boolean;
  fetchTimeoutMs: number;
  sweepConcurrency: number;
  sweepLimit: number;
  sweepBudgetMs: number;
  unhealthyAfter: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

function positive(value: string | undefined, fallback: number): number {
  const n = value === undefined ? NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function registrySettings(env: RegistryEnv): RegistrySettings {
  return {
    allowInsecure: env.REGISTRY_ALLOW_INSECURE_URLS === "true",
    dnsCheck: env.REGISTRY_DNS_CHECK !== "off",
    fetchTimeoutMs: positive(env.REGISTRY_FETCH_TIMEOUT_MS, 5000),
    sweepConcurrency: Math.floor(positive(env.REGISTRY_SWEEP_CONCURRENCY, 6)),
    sweepLimit: Math.floor(positive(env.REGISTRY_SWEEP_LIMIT, 500)),
    sweepBudgetMs: positive(env.REGISTRY_SWEEP_BUDGET_MS, 60_000),
    unhealthyAfter: Math.floor(positive(env.REGISTRY_UNHEALTHY_AFTER, 2)),
    backoffBaseMs: positive(env.REGISTRY_BACKOFF_BASE_SECONDS, 60) * 1000,
    backoffMaxMs: positive(env.REGISTRY_BACKOFF_MAX_SECONDS, 6 * 3600) * 1000,
  };
}

/** The object's RPC methods as the Worker calls them (the values are plain JSON-like data). */
export type RegistryRpc = {
  [K in "upsert" | "remove" | "get" | "count" | "find" | "due" | "recordChecks"]: RegistryObject[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/** The namespace's one object. */
export function registryStub(env: RegistryEnv): RegistryRpc {
  // Rpc.Stub's serializability check gives up on the card's open `struct` fields; the data is plain JSON.
  return env.REGISTRY.get(env.REGISTRY.idFromName(env.REGISTRY_NAMESPACE ?? "default")) as unknown as RegistryRpc;
}
