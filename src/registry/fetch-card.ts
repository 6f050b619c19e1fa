/**
 * Fetching what the registry needs from an agent — its card, and the JWKS that signs it — through the
 * same SSRF guard as push webhooks: the static URL policy, then (unless REGISTRY_DNS_CHECK=off) every
 * address the host resolves to must be public. No redirects are followed, every fetch has a timeout, and
 * at most 256 KiB of an answer is read.
 */
import type { JSONWebKeySet } from "jose";
import { A2AError, AgentCardSchema, parseParams, type AgentCard, type FieldViolation } from "../protocol/index";
import { checkWebhookUrlResolved, dohResolver, UnsafeUrlError } from "../push/url-guard";
import type { RegistrySettings } from "./env";

const MAX_BYTES = 256 * 1024;

/** Why a card could not be had: `problem` is a short code, the message a sentence for a person. */
export class CardFetchError extends Error {
  readonly problem: "unsafe-url" | "unreachable" | "timeout" | "redirect" | "http-status" | "not-json" | "too-large" | "invalid-card" | "invalid-jwks";
  readonly violations: FieldViolation[] | undefined;

  constructor(problem: CardFetchError["problem"], message: string, violations?: FieldViolation[]) {
    super(message);
    this.name = "CardFetchError";
    this.problem = problem;
    this.violations = violations;
  }
}

export type Resolver = (hostname: string) => Promise<string[]>;

/** A DNS-over-HTTPS resolver that asks once per host (for one registration or one sweep), or none when DNS checks are off. */
export function sweepResolver(settings: RegistrySettings): Resolver | undefined {
  if (!settings.dnsCheck) return undefined;
  const resolve = dohResolver();
  const seen = new Map<string, Promise<string[]>>();
  return (hostname) => {
    let answer = seen.get(hostname);
    if (!answer) seen.set(hostname, (answer = resolve(hostname)));
    return answer;
  };
}

export type CardOutcome =
  | { kind: "card"; card: AgentCard; raw: Record<string, unknown>; etag: string | undefined; latencyMs: number }
  | { kind: "not-modified"; latencyMs: number };

/** Fetches and validates a card; with `etag`, a 304 answer is `not-modified`. Throws CardFetchError. */
export async function fetchCard(cardUrl: string, settings: RegistrySettings, options: { etag?: string; resolve?: Resolver } = {}): Promise<CardOutcome> {
  const started = Date.now();
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.etag) headers["if-none-match"] = options.etag;
  const response = await guardedFetch(cardUrl, settings, headers, options.resolve);
  if (response.status === 304 && options.etag) {
    await response.body?.cancel().catch(() => {});
    return { kind: "not-modified", latencyMs: Date.now() - started };
  }
  const raw = await readJson(response, cardUrl, "Agent Card");
  const latencyMs = Date.now() - started;
  return { kind: "card", card: validateCard(raw), raw: raw as Record<string, unknown>, etag: response.headers.get("etag") ?? undefined, latencyMs };
}

/** Checks a card against the v1.0 schema; the error names every field that is wrong. */
export function validateCard(raw: unknown): AgentCard {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new CardFetchError("invalid-card", "the Agent Card is not a JSON object");
  const record = raw as Record<string, unknown>;
  if (!("supportedInterfaces" in record) && !("supported_interfaces" in record) && typeof record.url === "string") {
    throw new CardFetchError("invalid-card", "the Agent Card is a protocol 0.3 card (url, no supportedInterfaces); the registry lists v1.0 agents", [
      { field: "card.supportedInterfaces", description: "Required" },
    ]);
  }
  try {
    return parseParams(AgentCardSchema, raw, "card.");
  } catch (error) {
    if (!(error instanceof A2AError)) throw error;
    const violations = error.violations ?? [];
    const list = violations.slice(0, 5).map((v) => `${v.field}: ${v.description}`).join("; ");
    throw new CardFetchError("invalid-card", `the Agent Card is not a valid A2A v1.0 card (${list || error.message})`, violations);
  }
}

/** Fetches the JWKS that signs an agent's card. */
export async function fetchJwks(url: string, settings: RegistrySettings, resolve?: Resolver): Promise<JSONWebKeySet> {
  const response = await guardedFetch(url, settings, { accept: "application/json, application/jwk-set+json" }, resolve);
  return checkJwks(await readJson(response, url, "JWKS"));
}

export function checkJwks(value: unknown): JSONWebKeySet {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || !keys.every((k) => k !== null && typeof k === "object")) {
    throw new CardFetchError("invalid-jwks", "the JWKS is not a JSON object with a keys array");
  }
  return { keys } as JSONWebKeySet;
}

async function guardedFetch(url: string, settings: RegistrySettings, headers: Record<string, string>, resolve?: Resolver): Promise<Response> {
  try {
    await checkWebhookUrlResolved(url, resolve ? { allowInsecure: settings.allowInsecure, resolve } : { allowInsecure: settings.allowInsecure });
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new CardFetchError("unsafe-url", `${url} ${error.message}`);
    throw new CardFetchError("unreachable", `${url} could not be checked: ${describe(error)}`);
  }
  let response: Response;
  try {
    response = await fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(settings.fetchTimeoutMs) });
  } catch (error) {
    if (isTimeout(error)) throw new CardFetchError("timeout", `${url} did not answer within ${settings.fetchTimeoutMs} ms`);
    throw new CardFetchError("unreachable", `${url} could not be reached: ${describe(error)}`);
  }
  if (response.status >= 300 && response.status < 400 && response.status !== 304) {
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get("location");
    throw new CardFetchError("redirect", `${url} redirects${location ? ` to ${location}` : ""}; redirects are not followed, register the final URL`);
  }
  if (!response.ok && response.status !== 304) {
    await response.body?.cancel().catch(() => {});
    throw new CardFetchError("http-status", `${url} answered HTTP ${response.status}`);
  }
  return response;
}

async function readJson(response: Response, url: string, what: string): Promise<unknown> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > MAX_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw new CardFetchError("too-large", `the ${what} at ${url} is larger than ${MAX_BYTES} bytes`);
  }
  let text = "";
  const decoder = new TextDecoder();
  let size = 0;
  try {
    const reader = response.body?.getReader();
    for (;;) {
      if (!reader) break;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BYTES) {
        await reader.cancel().catch(() => {});
        throw new CardFetchError("too-large", `the ${what} at ${url} is larger than ${MAX_BYTES} bytes`);
      }
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  } catch (error) {
    if (error instanceof CardFetchError) throw error;
    if (isTimeout(error)) throw new CardFetchError("timeout", `the ${what} at ${url} did not arrive within the timeout`);
    throw new CardFetchError("unreachable", `the ${what} at ${url} could not be read: ${describe(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CardFetchError("not-json", `the ${what} at ${url} is not JSON`);
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
