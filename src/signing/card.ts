/**
 * Agent Card signatures (spec §8.4, reference §7.4): a detached JWS (ES256 by default) over the RFC 8785
 * canonical form of the card, where fields that hold their ProtoJSON default are left out, REQUIRED and
 * explicitly-set optional fields stay, and `signatures` itself is removed. Signing runs in the Worker;
 * the verifier runs anywhere (the client uses it).
 */
import canonicalize from "canonicalize";
import { createLocalJWKSet, flattenedVerify, FlattenedSign, importJWK, type JSONWebKeySet, type JWK, type JWTVerifyGetKey } from "jose";
import type { AgentCard } from "../protocol/index";

/** Fields kept even when empty or false: REQUIRED ones and `optional` (explicit presence) ones. */
const KEPT: Record<string, ReadonlySet<string>> = {
  "": new Set(["name", "description", "supportedInterfaces", "version", "capabilities", "defaultInputModes", "defaultOutputModes", "skills", "documentationUrl", "iconUrl"]),
  capabilities: new Set(["streaming", "pushNotifications", "extendedAgentCard"]),
  supportedInterfaces: new Set(["url", "protocolBinding", "protocolVersion"]),
  skills: new Set(["id", "name", "description", "tags"]),
  provider: new Set(["url", "organization"]),
};

function isDefault(value: unknown): boolean {
  return value === "" || value === false || value === 0 || value === null || (Array.isArray(value) && value.length === 0);
}

/** The card as signed: defaults stripped, `signatures` removed, JCS-canonical. */
export function canonicalCardPayload(card: AgentCard | Record<string, unknown>): string {
  const { signatures: _signatures, ...rest } = card as Record<string, unknown>;
  const text = canonicalize(strip(rest, ""));
  if (text === undefined) throw new Error("the card cannot be canonicalized");
  return text;
}

function strip(value: unknown, context: string): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, context));
  if (value === null || typeof value !== "object") return value;
  const kept = KEPT[context];
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (child === undefined) continue;
    // Struct contents (params, metadata) are data, not fields: kept as they are.
    const stripped = key === "params" || key === "metadata" ? child : strip(child, context === "" ? key : context);
    if (!kept?.has(key) && isDefault(stripped)) continue;
    if (key === "securitySchemes" && stripped && typeof stripped === "object" && Object.keys(stripped).length === 0) continue;
    out[key] = stripped;
  }
  return out;
}

const encoder = new TextEncoder();

/** Signs the card with a private JWK (which must carry `kid`); returns the card with the signature added. */
export async function signAgentCard(card: AgentCard, privateJwk: JWK): Promise<AgentCard> {
  const alg = privateJwk.alg ?? "ES256";
  if (!privateJwk.kid) throw new Error("the card signing key needs a kid");
  const key = await importJWK(privateJwk, alg);
  const jws = await new FlattenedSign(encoder.encode(canonicalCardPayload(card)))
    .setProtectedHeader({ alg, kid: privateJwk.kid, typ: "JOSE" })
    .sign(key);
  const signature = { protected: jws.protected!, signature: jws.signature };
  return { ...card, signatures: [...(card.signatures ?? []), signature] };
}

export class CardSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CardSignatureError";
  }
}

/**
 * Verifies that at least one of the card's signatures is valid for one of the given keys.
 * Returns the `kid` that verified; throws CardSignatureError otherwise.
 */
export async function verifyAgentCard(card: AgentCard | Record<string, unknown>, keys: JSONWebKeySet | JWTVerifyGetKey): Promise<{ kid: string | undefined }> {
  const signatures = (card as AgentCard).signatures ?? [];
  if (!signatures.length) throw new CardSignatureError("the card is not signed");
  const payload = base64url(encoder.encode(canonicalCardPayload(card)));
  const getKey = typeof keys === "function" ? keys : createLocalJWKSet(keys);
  let last: unknown;
  for (const signature of signatures) {
    try {
      const { protectedHeader } = await flattenedVerify({ protected: signature.protected, payload, signature: signature.signature }, getKey as never);
      return { kid: protectedHeader?.kid };
    } catch (error) {
      last = error;
    }
  }
  throw new CardSignatureError(`no signature verifies: ${last instanceof Error ? last.message : String(last)}`);
}

function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
