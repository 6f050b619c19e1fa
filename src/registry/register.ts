/**
 * Registering and unregistering. The registry fetches the card itself (through the SSRF guard),
 * validates it against the v1.0 schema, checks its signature with the keys given at registration, and
 * stores it. Every refusal is InvalidParams with a sentence saying what was wrong, and field violations
 * for an invalid card.
 */
import type { JSONWebKeySet } from "jose";
import * as z from "zod";
import { cardUrlFor } from "../client/card";
import { A2AError, parseParams } from "../protocol/index";
import { registrySettings, registryStub, type RegistryEnv } from "./env";
import { CardFetchError, checkJwks, fetchCard, fetchJwks, sweepResolver } from "./fetch-card";
import { checkSignature } from "./signature";
import type { RegisterAgentResponse } from "./types";

export const RegisterAgentSchema = z.object({
  url: z.string().trim().min(1, { message: "is required: the agent's base URL or its card URL" }),
  jwksUrl: z.string().trim().min(1).optional(),
  jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).optional(),
});

/** The entry id of an agent: the first 80 bits of SHA-256 over its card URL, in hex. */
export async function entryId(cardUrl: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(cardUrl)));
  return [...digest.subarray(0, 10)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The card URL for an agent URL or card URL, as the registry keys it. */
export function cardUrlOf(url: string, field = "url"): string {
  try {
    const parsed = cardUrlFor(url);
    parsed.hash = "";
    return parsed.href;
  } catch {
    throw new A2AError("InvalidParams", `Invalid parameters: ${field} is not an absolute URL`, undefined, [{ field, description: "is not an absolute URL" }]);
  }
}

export async function registerAgent(env: RegistryEnv, body: unknown, registeredBy: string): Promise<RegisterAgentResponse> {
  const request = parseParams(RegisterAgentSchema, body);
  const settings = registrySettings(env);
  const resolve = sweepResolver(settings);
  const cardUrl = cardUrlOf(request.url);
  try {
    const outcome = await fetchCard(cardUrl, settings, resolve ? { resolve } : {});
    if (outcome.kind !== "card") throw new CardFetchError("http-status", `${cardUrl} answered 304 to a request without If-None-Match`);
    let keys: JSONWebKeySet | undefined;
    if (request.jwks) keys = checkJwks(request.jwks);
    else if (request.jwksUrl) keys = await fetchJwks(request.jwksUrl, settings, resolve);
    const signature = await checkSignature(outcome.raw, keys);
    if (signature.status === "invalid") {
      throw new A2AError("InvalidParams", `Cannot register ${request.url}: the card's signature does not verify with the keys given (${signature.detail})`, { problem: "bad-signature", cardUrl }, [
        { field: request.jwks ? "jwks" : "jwksUrl", description: "no signature of the card verifies with these keys" },
      ]);
    }
    return await registryStub(env).upsert({
      id: await entryId(cardUrl),
      cardUrl,
      card: outcome.card,
      etag: outcome.etag,
      signature,
      jwksUrl: request.jwks ? undefined : request.jwksUrl,
      jwks: request.jwks ? JSON.stringify(request.jwks) : undefined,
      registeredBy,
      latencyMs: outcome.latencyMs,
    }).then(({ created, record }) => ({ created, agent: record }));
  } catch (error) {
    if (!(error instanceof CardFetchError)) throw error;
    const field = error.problem === "invalid-jwks" ? (request.jwks ? "jwks" : "jwksUrl") : "url";
    throw new A2AError(
      "InvalidParams",
      `Cannot register ${request.url}: ${error.message}`,
      { problem: error.problem, cardUrl },
      error.violations?.length ? error.violations : [{ field, description: error.message }],
    );
  }
}

/** Removes the agent with this id, or whose base URL or card URL this is. False when there was none. */
export async function unregisterAgent(env: RegistryEnv, idOrUrl: { id: string } | { url: string }): Promise<boolean> {
  const id = "id" in idOrUrl ? idOrUrl.id : await entryId(cardUrlOf(idOrUrl.url));
  return registryStub(env).remove(id);
}
