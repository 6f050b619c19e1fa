/**
 * Find: the query (from URL parameters, or from a message sent to the registry's own agent) validated
 * into what the registry object runs, and the opaque page token (the last entry's sort key and id).
 */
import * as z from "zod";
import { A2AError, parseParams } from "../protocol/index";
import { registryStub, type RegistryEnv } from "./env";
import { normalizeMediaType, normalizeTag } from "./index-card";
import type { StoredQuery } from "./object";
import type { AgentQuery, FindAgentsResult } from "./types";

const MAX_WORDS = 8;
const flag = z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v), z.boolean());
const term = z.string().trim().min(1).max(200);

export const AgentQuerySchema = z.object({
  skill: term.optional(),
  tag: term.optional(),
  inputMode: term.optional(),
  outputMode: term.optional(),
  text: z.string().max(500).optional(),
  includeUnhealthy: flag.optional(),
  verifiedOnly: flag.optional(),
  pageSize: z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), z.number().int().min(1).max(100)).optional(),
  pageToken: z.string().max(1000).optional(),
});

/** URL parameters of `GET /agents`: skill, tag, inputMode, outputMode, q (or text), includeUnhealthy, verified, pageSize, pageToken. */
export function queryFromParams(params: URLSearchParams): AgentQuery {
  const raw: Record<string, string> = {};
  for (const name of ["skill", "tag", "inputMode", "outputMode", "text", "includeUnhealthy", "pageSize", "pageToken"]) {
    const value = params.get(name);
    if (value !== null && value !== "") raw[name] = value;
  }
  const text = params.get("q");
  if (text) raw.text = text;
  const verified = params.get("verified") ?? params.get("verifiedOnly");
  if (verified) raw.verifiedOnly = verified;
  return parseQuery(raw);
}

export function parseQuery(input: unknown): AgentQuery {
  const parsed = parseParams(AgentQuerySchema, input);
  const query: AgentQuery = {};
  for (const [key, value] of Object.entries(parsed)) if (value !== undefined) (query as Record<string, unknown>)[key] = value;
  return query;
}

export function toStoredQuery(query: AgentQuery): StoredQuery {
  const words = (query.text ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length > MAX_WORDS) throw new A2AError("InvalidParams", `Invalid parameters: text has more than ${MAX_WORDS} words`, undefined, [{ field: "text", description: `at most ${MAX_WORDS} words` }]);
  const stored: StoredQuery = {
    words,
    includeUnhealthy: query.includeUnhealthy ?? false,
    verifiedOnly: query.verifiedOnly ?? false,
    pageSize: query.pageSize ?? 20,
  };
  if (query.skill !== undefined) stored.skill = query.skill;
  if (query.tag !== undefined) stored.tag = normalizeTag(query.tag);
  if (query.inputMode !== undefined) stored.inputMode = normalizeMediaType(query.inputMode);
  if (query.outputMode !== undefined) stored.outputMode = normalizeMediaType(query.outputMode);
  if (query.pageToken) stored.after = decodeToken(query.pageToken);
  return stored;
}

export async function findAgents(env: RegistryEnv, query: AgentQuery): Promise<FindAgentsResult> {
  const page = await registryStub(env).find(toStoredQuery(query));
  return { agents: page.agents, nextPageToken: page.next ? encodeToken(page.next) : "" };
}

function encodeToken(cursor: [string, string]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(cursor));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeToken(token: string): [string, string] {
  try {
    const text = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
    const value: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string")) return value as [string, string];
  } catch {
    // falls through to the refusal
  }
  throw new A2AError("InvalidParams", "Invalid parameters: pageToken is not a token this registry issued", undefined, [{ field: "pageToken", description: "not a valid page token" }]);
}
