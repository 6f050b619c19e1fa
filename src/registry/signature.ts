/**
 * What the registry records about a card's signature. The keys come from the registration (a JWKS URL,
 * or the JWKS itself): a card cannot vouch for itself, so without keys a signed card is recorded as
 * `unverified` — signed, nothing checked — and never as verified.
 */
import type { JSONWebKeySet } from "jose";
import { CardSignatureError, verifyAgentCard } from "../signing/card";
import type { SignatureStatus } from "./types";

export interface SignatureCheck {
  status: SignatureStatus;
  kid?: string;
  /** Why it is `invalid`. */
  detail?: string;
}

/** `raw` is the card exactly as served (the signature covers its canonical form). */
export async function checkSignature(raw: Record<string, unknown>, keys: JSONWebKeySet | undefined): Promise<SignatureCheck> {
  const signatures = raw.signatures;
  if (!Array.isArray(signatures) || signatures.length === 0) return { status: "unsigned" };
  if (!keys) return { status: "unverified" };
  try {
    const { kid } = await verifyAgentCard(raw, keys);
    return kid === undefined ? { status: "verified" } : { status: "verified", kid };
  } catch (error) {
    if (error instanceof CardSignatureError) return { status: "invalid", detail: error.message };
    return { status: "invalid", detail: error instanceof Error ? error.message : String(error) };
  }
}
