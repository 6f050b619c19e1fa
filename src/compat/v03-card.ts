/**
 * The Agent Card for 0.3 clients (reference §8.1 #2). The hybrid card is the v1.0 card plus the 0.3
 * fields (`protocolVersion`, `url`, `preferredTransport`, `additionalInterfaces`,
 * `supportsAuthenticatedExtendedCard`, `security`, 0.3 keys inside each security scheme) and 0.3
 * entries in `supportedInterfaces`; each version's parser ignores the other's keys.
 *
 * It is opt-in: the v1.0 conformance kit validates the card against a schema that allows no extra
 * keys. `options.v03Compat` turns it on, env `A2A_V03_COMPAT` ("true" / "false") overrides. 0.3
 * requests are served either way; only the card differs.
 */
import type { AgentDefinition } from "../agent/types";
import type { A2AEnv } from "../env";
import type { AgentCard, AgentInterface, SecurityRequirement, SecurityScheme } from "../protocol/index";
import type { Json } from "./v03-shapes";

export const V03_PROTOCOL_VERSION = "0.3.0";

/** Whether the public card carries the 0.3 fields. */
export function v03CardEnabled(definition: AgentDefinition, env: A2AEnv): boolean {
  if (env.A2A_V03_COMPAT === "true") return true;
  if (env.A2A_V03_COMPAT === "false") return false;
  return definition.options?.v03Compat === true;
}

/** The hybrid card when 0.3 compatibility is on (see v03CardEnabled), else the card unchanged. */
export function withV03Card(card: AgentCard, definition: AgentDefinition, env: A2AEnv, baseUrl: string): AgentCard {
  return v03CardEnabled(definition, env) ? toHybridCard(card, baseUrl) : card;
}

/** The 0.3 interfaces: JSON-RPC at `${base}/`; HTTP+JSON at `${base}`, to which 0.3 clients append `/v1/…`. */
function v03Interfaces(baseUrl: string): AgentInterface[] {
  const base = baseUrl.replace(/\/+$/, "");
  return [
    { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    { url: base, protocolBinding: "HTTP+JSON", protocolVersion: "0.3" },
  ];
}

/** The v1.0 card plus every 0.3 field; the input is not changed. */
export function toHybridCard(card: AgentCard, baseUrl: string): AgentCard {
  const interfaces = v03Interfaces(baseUrl);
  const hybrid: AgentCard & Json = {
    ...card,
    supportedInterfaces: [...card.supportedInterfaces.filter((i) => i.protocolVersion !== "0.3"), ...interfaces],
    protocolVersion: V03_PROTOCOL_VERSION,
    url: interfaces[0]!.url,
    preferredTransport: interfaces[0]!.protocolBinding,
    additionalInterfaces: interfaces.map((i) => ({ url: i.url, transport: i.protocolBinding })),
    supportsAuthenticatedExtendedCard: card.capabilities.extendedAgentCard === true,
    skills: card.skills.map((skill) => (skill.securityRequirements?.length ? { ...skill, security: skill.securityRequirements.map(requirementToV03) } : skill)),
  };
  if (card.securitySchemes) {
    hybrid.securitySchemes = Object.fromEntries(Object.entries(card.securitySchemes).map(([name, scheme]) => [name, { ...scheme, ...schemeToV03(scheme) }]));
  }
  if (card.securityRequirements?.length) hybrid.security = card.securityRequirements.map(requirementToV03);
  return hybrid;
}

/** `{schemes: {name: {list}}}` → `{name: [scopes]}`. */
function requirementToV03(requirement: SecurityRequirement): Record<string, string[]> {
  return Object.fromEntries(Object.entries(requirement.schemes).map(([name, scopes]) => [name, scopes.list ?? []]));
}

/** The 0.3 (OpenAPI-like) keys of one scheme: `type` plus `in`/`name`, `scheme`, `flows`, … */
export function schemeToV03(scheme: SecurityScheme): Json {
  const described = (out: Json, description: string | undefined) => (description ? { ...out, description } : out);
  if (scheme.apiKeySecurityScheme) {
    const s = scheme.apiKeySecurityScheme;
    return described({ type: "apiKey", in: s.location, name: s.name }, s.description);
  }
  if (scheme.httpAuthSecurityScheme) {
    const s = scheme.httpAuthSecurityScheme;
    return described({ type: "http", scheme: s.scheme, ...(s.bearerFormat ? { bearerFormat: s.bearerFormat } : {}) }, s.description);
  }
  if (scheme.oauth2SecurityScheme) {
    const s = scheme.oauth2SecurityScheme;
    // 0.3 knows these four flows; deviceCode and pkceRequired are 1.0 additions.
    const flows: Json = {};
    for (const name of ["authorizationCode", "clientCredentials", "implicit", "password"] as const) {
      const flow = s.flows[name] as (Json & { pkceRequired?: boolean }) | undefined;
      if (flow) {
        const { pkceRequired: _pkce, ...rest } = flow;
        flows[name] = rest;
      }
    }
    return described({ type: "oauth2", flows, ...(s.oauth2MetadataUrl ? { oauth2MetadataUrl: s.oauth2MetadataUrl } : {}) }, s.description);
  }
  if (scheme.openIdConnectSecurityScheme) {
    const s = scheme.openIdConnectSecurityScheme;
    return described({ type: "openIdConnect", openIdConnectUrl: s.openIdConnectUrl }, s.description);
  }
  return described({ type: "mutualTLS" }, scheme.mtlsSecurityScheme?.description);
}

/**
 * A card (the extended card) as 0.3 JSON-RPC returns it: the hybrid form. A v1.0 signature would not
 * cover the added keys, so signatures are left out.
 */
export function cardToV03(card: AgentCard, baseUrl: string): Json {
  const { signatures: _signatures, ...unsigned } = toHybridCard(card, baseUrl) as AgentCard & Json;
  return unsigned;
}

/** A card as the 0.3 HTTP+JSON `GET /v1/card` returns it: ProtoJSON of the 0.3 AgentCard. */
export function cardToProto(card: AgentCard, baseUrl: string): Json {
  const interfaces = v03Interfaces(baseUrl);
  const out: Json = {
    protocolVersion: V03_PROTOCOL_VERSION,
    name: card.name,
    description: card.description,
    url: interfaces[0]!.url,
    preferredTransport: interfaces[0]!.protocolBinding,
    additionalInterfaces: interfaces.map((i) => ({ url: i.url, transport: i.protocolBinding })),
    version: card.version,
    capabilities: {
      streaming: card.capabilities.streaming === true,
      pushNotifications: card.capabilities.pushNotifications === true,
      ...(card.capabilities.extensions?.length ? { extensions: card.capabilities.extensions } : {}),
    },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    // The 0.3 proto's skill `security` and card `security` have the v1.0 requirement shape.
    skills: card.skills.map(({ securityRequirements, ...skill }) => (securityRequirements?.length ? { ...skill, security: securityRequirements } : skill)),
    supportsAuthenticatedExtendedCard: card.capabilities.extendedAgentCard === true,
  };
  if (card.provider) out.provider = card.provider;
  if (card.documentationUrl) out.documentationUrl = card.documentationUrl;
  if (card.iconUrl) out.iconUrl = card.iconUrl;
  // The 0.3 proto's schemes are the same oneof wrappers as v1.0's.
  if (card.securitySchemes) out.securitySchemes = card.securitySchemes;
  if (card.securityRequirements?.length) out.security = card.securityRequirements;
  return out;
}
