/** Credentials for the secure test agent: tokens from the test identity provider, and API keys. */
import { env, exports } from "cloudflare:workers";
import { importJWK, SignJWT, type JWTPayload } from "jose";

export const BASE = "http://secure.test";
export const REQUIRED_EXTENSION = "urn:a2a-edge:test:required";
const testEnv = env as unknown as { TEST_IDP_PRIVATE_JWK: string };

export function fetchSecure(path: string, init: RequestInit = {}): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(BASE + path, init));
}

/** A token as the identity provider would issue it; `claims` and `options` bend it for the bad-token table. */
export async function token(claims: JWTPayload = {}, options: { expiresIn?: string | number; issuedAt?: number; issuer?: string; audience?: string } = {}): Promise<string> {
  const jwk = JSON.parse(testEnv.TEST_IDP_PRIVATE_JWK);
  const key = await importJWK(jwk, "ES256");
  const jwt = new SignJWT({ scope: "a2a:use", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: jwk.kid })
    .setIssuer(options.issuer ?? "https://idp.test")
    .setAudience(options.audience ?? "a2a-edge-secure")
    .setSubject((claims.sub as string | undefined) ?? "user-1")
    .setIssuedAt(options.issuedAt)
    .setExpirationTime(options.expiresIn ?? "5m");
  return jwt.sign(key);
}

export const V1 = { "a2a-version": "1.0", "a2a-extensions": REQUIRED_EXTENSION };

export function rpc(method: string, params: unknown, headers: Record<string, string>): Promise<Response> {
  return fetchSecure("/", { method: "POST", headers: { "content-type": "application/json", ...V1, ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
}

export function rest(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
  return fetchSecure(path, { method, headers: { ...V1, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

export const message = (text = "hi", extra: Record<string, unknown> = {}) => ({ messageId: `m-${crypto.randomUUID()}`, role: "ROLE_USER", parts: [{ text }], ...extra });
