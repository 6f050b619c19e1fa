/**
 * The public Agent Card: built from the author's facts, with both HTTP interfaces at absolute URLs
 * (configured base, else the request's origin), served with ETag / Last-Modified / Cache-Control
 * and 304 on a matching If-None-Match. Built once per origin per isolate.
 */
import type { JWK } from "jose";
import type { AgentDefinition } from "../agent/types";
import { withV03Card } from "../compat/v03-card";
import { pushEnabled, type A2AEnv } from "../env";
import { AgentCardSchema, parseParams, type AgentCard } from "../protocol/index";
import { signAgentCard } from "../signing/card";
import { SUPPORTED_VERSION } from "./http";

interface CachedCard {
  body: string;
  etag: string;
  lastModified: string;
}

export function buildCard(definition: AgentDefinition, baseUrl: string, push = false): AgentCard {
  const facts = definition.card;
  const base = baseUrl.replace(/\/+$/, "");
  const tenant = facts.tenant ? { tenant: facts.tenant } : {};
  const card: AgentCard = {
    name: facts.name,
    description: facts.description,
    supportedInterfaces: [
      { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: SUPPORTED_VERSION, ...tenant },
      { url: base, protocolBinding: "HTTP+JSON", protocolVersion: SUPPORTED_VERSION, ...tenant },
    ],
    version: facts.version,
    capabilities: {
      streaming: facts.capabilities?.streaming ?? true,
      pushNotifications: push,
      extendedAgentCard: declaresExtendedCard(definition),
    },
    defaultInputModes: facts.defaultInputModes ?? ["text/plain"],
    defaultOutputModes: facts.defaultOutputModes ?? ["text/plain"],
    skills: facts.skills,
  };
  if (facts.capabilities?.extensions?.length) card.capabilities.extensions = facts.capabilities.extensions;
  if (facts.provider) card.provider = facts.provider;
  if (facts.documentationUrl) card.documentationUrl = facts.documentationUrl;
  if (facts.iconUrl) card.iconUrl = facts.iconUrl;
  if (facts.securitySchemes) card.securitySchemes = facts.securitySchemes;
  if (facts.securityRequirements) card.securityRequirements = facts.securityRequirements;
  return card;
}

/** The card says so when the author gave an extended card (or declared one explicitly). */
export function declaresExtendedCard(definition: AgentDefinition): boolean {
  return definition.card.capabilities?.extendedAgentCard ?? definition.extendedCard !== undefined;
}

/** Adds our signature when CARD_SIGNING_JWK is set. */
export async function signedIfConfigured(card: AgentCard, env: A2AEnv): Promise<AgentCard> {
  return env.CARD_SIGNING_JWK ? signAgentCard(card, JSON.parse(env.CARD_SIGNING_JWK) as JWK) : card;
}

/** Fails at start-up, with the field, when the author's facts do not make a valid card. */
export function validateCard(definition: AgentDefinition): void {
  parseParams(AgentCardSchema, buildCard(definition, "https://agent.invalid"), "card.");
}

export class CardEndpoint {
  readonly #definition: AgentDefinition;
  readonly #cache = new Map<string, CachedCard>();

  constructor(definition: AgentDefinition) {
    this.#definition = definition;
  }

  async respond(request: Request, baseUrl: string, env: A2AEnv): Promise<Response> {
    const push = pushEnabled(env);
    const card = this.#cache.get(`${push}|${baseUrl}`) ?? (await this.#build(baseUrl, push, env));
    const maxAge = this.#definition.options?.cardMaxAgeSeconds ?? 300;
    const headers = {
      etag: card.etag,
      "last-modified": card.lastModified,
      "cache-control": `public, max-age=${maxAge}`,
      "content-type": "application/json",
      "access-control-allow-origin": "*",
    };
    if (etagMatches(request.headers.get("if-none-match"), card.etag)) return new Response(null, { status: 304, headers });
    return new Response(request.method === "HEAD" ? null : card.body, { status: 200, headers });
  }

  async #build(baseUrl: string, push: boolean, env: A2AEnv): Promise<CachedCard> {
    const body = JSON.stringify(await signedIfConfigured(withV03Card(buildCard(this.#definition, baseUrl, push), this.#definition, env, baseUrl), env));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
    const etag = `"${btoa(String.fromCharCode(...digest.subarray(0, 18))).replace(/\+/g, "-").replace(/\//g, "_")}"`;
    // Whole seconds: HTTP dates have no finer unit.
    const cached = { body, etag, lastModified: new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString() };
    this.#cache.set(`${push}|${baseUrl}`, cached);
    return cached;
  }
}

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}
