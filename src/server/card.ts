/**
 * The public Agent Card: built from the author's facts, with both HTTP interfaces at absolute URLs
 * (configured base, else the request's origin), served with ETag / Last-Modified / Cache-Control
 * and 304 on a matching If-None-Match. Built once per origin per isolate.
 */
import type { AgentDefinition } from "../agent/types";
import { AgentCardSchema, parseParams, type AgentCard } from "../protocol/index";
import { SUPPORTED_VERSION } from "./http";

interface CachedCard {
  body: string;
  etag: string;
  lastModified: string;
}

export function buildCard(definition: AgentDefinition, baseUrl: string, push = false): AgentCard {
  const facts = definition.card;
  const base = baseUrl.replace(/\/+$/, "");
  const card: AgentCard = {
    name: facts.name,
    description: facts.description,
    supportedInterfaces: [
      { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: SUPPORTED_VERSION },
      { url: base, protocolBinding: "HTTP+JSON", protocolVersion: SUPPORTED_VERSION },
    ],
    version: facts.version,
    capabilities: {
      streaming: facts.capabilities?.streaming ?? true,
      pushNotifications: push,
      extendedAgentCard: false,
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

  async respond(request: Request, baseUrl: string, push: boolean): Promise<Response> {
    const card = this.#cache.get(`${push}|${baseUrl}`) ?? (await this.#build(baseUrl, push));
    const maxAge = this.#definition.options?.cardMaxAgeSeconds ?? 300;
    const headers = {
      etag: card.etag,
      "last-modified": card.lastModified,
      "cache-control": `public, max-age=${maxAge}`,
      "content-type": "application/json",
    };
    if (etagMatches(request.headers.get("if-none-match"), card.etag)) return new Response(null, { status: 304, headers });
    return new Response(request.method === "HEAD" ? null : card.body, { status: 200, headers });
  }

  async #build(baseUrl: string, push: boolean): Promise<CachedCard> {
    const body = JSON.stringify(buildCard(this.#definition, baseUrl, push));
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
