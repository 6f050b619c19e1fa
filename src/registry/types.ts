/**
 * The registry's wire types: what `GET /agents` and `POST /agents` answer. Plain types, no runtime code,
 * so the client (`findAgents`) shares them without pulling in the Worker.
 */
import type { AgentCapabilities, AgentCard, AgentInterface, AgentSkill } from "../protocol/card";

export type AgentProvider = NonNullable<AgentCard["provider"]>;

/**
 * What the registry knows about a card's signature:
 * - `unsigned`: the card carries no signature;
 * - `unverified`: signed, but no keys were given at registration, so nothing was checked;
 * - `verified`: a signature verified with the keys given at registration (`kid` says which);
 * - `invalid`: keys were given and no signature verifies with them (the card changed since registration).
 */
export type SignatureStatus = "unsigned" | "unverified" | "verified" | "invalid";

/** Health as the sweep last saw it. */
export interface AgentHealth {
  healthy: boolean;
  /** Last time the card was fetched successfully (200 or 304), ISO 8601. */
  lastSeen: string;
  /** Last time the sweep tried, ISO 8601. */
  lastChecked: string;
  /** Milliseconds the last successful card fetch took. */
  latencyMs: number;
  /** Consecutive failed checks (0 when healthy). */
  failures: number;
  /** Why the last check failed, while failures > 0. */
  lastError?: string;
  /** When the sweep will check again, ISO 8601 (later and later while the agent keeps failing). */
  nextCheck: string;
}

/** One registered agent as `find` returns it: a card summary, the interface to call, and its health. */
export interface AgentEntry {
  /** Stable id: derived from the card URL, so registering the same agent again updates this entry. */
  id: string;
  /** Where the registry fetches the card. */
  cardUrl: string;
  name: string;
  description: string;
  version: string;
  provider?: AgentProvider;
  documentationUrl?: string;
  iconUrl?: string;
  capabilities: AgentCapabilities;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  /** All of the card's skills. */
  skills: AgentSkill[];
  /** Ids of the skills that matched the query's skill, tag and media-type filters (all skills when it had none). */
  matchedSkills: string[];
  /** The interface to call: the first JSONRPC or HTTP+JSON 1.0 entry of the card (else its first entry). */
  interface: AgentInterface;
  supportedInterfaces: AgentInterface[];
  /** Names of the security schemes the card declares; `authRequired` when it has security requirements. */
  securitySchemes: string[];
  authRequired: boolean;
  signature: { status: SignatureStatus; kid?: string };
  /** The card's ETag, as the agent last sent it. */
  etag?: string;
  health: AgentHealth;
  registeredAt: string;
  updatedAt: string;
}

/** `GET /agents/{id}`: the entry and the full card. */
export interface AgentRecord extends AgentEntry {
  card: AgentCard;
}

/** The query of `GET /agents`; every filter is optional and they all must hold. */
export interface AgentQuery {
  /** A skill id. */
  skill?: string;
  /** A skill tag (case-insensitive). */
  tag?: string;
  /** A media type a skill accepts (its `inputModes`, else the card's `defaultInputModes`). */
  inputMode?: string;
  /** A media type a skill produces (its `outputModes`, else the card's `defaultOutputModes`). */
  outputMode?: string;
  /** Free text: every word must appear in the agent's or a skill's name, description, tags or examples. */
  text?: string;
  /** Include agents the sweep found unhealthy (default false: healthy only). */
  includeUnhealthy?: boolean;
  /** Only agents whose card signature verified. */
  verifiedOnly?: boolean;
  /** 1–100, default 20. */
  pageSize?: number;
  /** `nextPageToken` of the previous page. */
  pageToken?: string;
}

export interface FindAgentsResult {
  agents: AgentEntry[];
  /** Opaque; `""` on the last page. */
  nextPageToken: string;
}

/** `POST /agents`: register (or re-register) an agent. */
export interface RegisterAgentRequest {
  /** The agent's base URL or its card URL. */
  url: string;
  /** Where the keys that sign the card are published (a JWKS): the registry verifies the card's signature with them. */
  jwksUrl?: string;
  /** Or the keys themselves. */
  jwks?: { keys: Record<string, unknown>[] };
}

export interface RegisterAgentResponse {
  /** True when the agent was new; false when an existing entry was updated. */
  created: boolean;
  agent: AgentRecord;
}
