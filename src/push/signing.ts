/**
 * Our signature on each push notification: a JWT (ES256 by default) with `kid`, `iss` (the agent),
 * `aud` (the webhook URL), `iat`, `exp`, a `jti` stable per notification (so receivers can drop
 * duplicates), `taskId`, the event's `seq` and the body's SHA-256. The public keys are served as a JWKS.
 */
import { importJWK, SignJWT, type JWK } from "jose";

export const SIGNATURE_HEADER = "A2A-Notification-Signature";
export const JWKS_PATH = "/.well-known/a2a-push-jwks.json";
const LIFETIME_SECONDS = 5 * 60;

export interface Signer {
  key: CryptoKey;
  kid: string;
  alg: string;
  /** Published keys: the current one, and the previous one during a rotation. */
  jwks: { keys: JWK[] };
}

interface KeyEnv {
  PUSH_SIGNING_JWK?: string;
  PUSH_SIGNING_JWK_PREVIOUS?: string;
}

let cached: { source: string; signer: Promise<Signer> } | undefined;

/** The signer from PUSH_SIGNING_JWK (a private JWK with `kid` and `alg`), imported once per isolate. */
export function loadSigner(env: KeyEnv): Promise<Signer> | undefined {
  const source = env.PUSH_SIGNING_JWK;
  if (!source) return undefined;
  const key = `${source}\n${env.PUSH_SIGNING_JWK_PREVIOUS ?? ""}`;
  if (cached?.source !== key) cached = { source: key, signer: importSigner(source, env.PUSH_SIGNING_JWK_PREVIOUS) };
  return cached.signer;
}

async function importSigner(current: string, previous: string | undefined): Promise<Signer> {
  const jwk = JSON.parse(current) as JWK;
  const alg = jwk.alg ?? "ES256";
  if (!jwk.kid) throw new Error("PUSH_SIGNING_JWK needs a kid");
  const key = (await importJWK(jwk, alg)) as CryptoKey;
  const keys = [publicPart(jwk, alg)];
  if (previous) {
    const old = JSON.parse(previous) as JWK;
    if (old.kid && old.kid !== jwk.kid) keys.push(publicPart(old, old.alg ?? alg));
  }
  return { key, kid: jwk.kid, alg, jwks: { keys } };
}

/** The public half of a key: everything but the private members. */
function publicPart(jwk: JWK, alg: string): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, key_ops: _ops, ext: _ext, ...pub } = jwk;
  return { ...pub, alg, use: "sig" };
}

export interface NotificationClaims {
  issuer: string;
  audience: string;
  taskId: string;
  seq: number;
  /** Stable for one notification across retries. */
  jti: string;
  bodySha256: string;
}

export async function signNotification(signer: Signer, claims: NotificationClaims): Promise<string> {
  return new SignJWT({ taskId: claims.taskId, seq: claims.seq, bodySha256: claims.bodySha256 })
    .setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: "JWT" })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_SECONDS}s`)
    .setJti(claims.jti)
    .sign(signer.key);
}

/** base64url(SHA-256(bytes)). */
export async function sha256(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource));
  return base64url(digest);
}

export function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
