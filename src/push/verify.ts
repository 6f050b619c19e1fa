/**
 * For webhook receivers (`a2a-edge/push`, runs in Workers, browsers and Node): checks that a push
 * notification really comes from the agent — its signature against the agent's JWKS, the audience,
 * expiry, the body's hash, the task — and that it was not seen before. Returns the parsed StreamResponse.
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { StreamResponseSchema, type StreamResponse } from "../protocol/index";
import { JWKS_PATH, SIGNATURE_HEADER, sha256 } from "./signing";

export type PushVerificationCode =
  | "missing-signature" | "malformed" | "unknown-key" | "bad-signature" | "wrong-audience" | "wrong-issuer"
  | "expired" | "body-mismatch" | "unexpected-task" | "replayed" | "invalid-body";

export class PushVerificationError extends Error {
  readonly code: PushVerificationCode;
  constructor(code: PushVerificationCode, message: string) {
    super(message);
    this.name = "PushVerificationError";
    this.code = code;
  }
}

/** Remembers notification ids (jti) until they expire; a KV namespace or a Map both fit. */
export interface SeenStore {
  has(jti: string): boolean | Promise<boolean>;
  add(jti: string, expiresAtSeconds: number): void | Promise<void>;
}

export interface VerifyOptions {
  /** The agent's keys: its JWKS URL, its agent URL (the JWKS is found at the well-known path), or the keys themselves. */
  jwks: string | URL | JSONWebKeySet | JWTVerifyGetKey;
  /** Your webhook URL exactly as registered: the token's audience. */
  audience: string;
  /** The agent's URL, if you want the issuer checked. */
  issuer?: string;
  /** Allowed clock skew (default 30 s). */
  clockToleranceSeconds?: number;
  /** Replay protection: a notification whose id was seen is refused. */
  seen?: SeenStore;
  /** Refuse notifications for tasks you did not expect. */
  expectTask?: (taskId: string) => boolean | Promise<boolean>;
}

export interface VerifiedNotification {
  event: StreamResponse;
  taskId: string;
  /** The event's sequence number within its task: order and de-duplicate by it. */
  seq: number;
  jti: string;
  claims: JWTPayload;
}

const remoteSets = new Map<string, JWTVerifyGetKey>();

function keySource(jwks: VerifyOptions["jwks"]): JWTVerifyGetKey {
  if (typeof jwks === "function") return jwks;
  if (typeof jwks === "string" || jwks instanceof URL) {
    let url = new URL(jwks.toString());
    if (!url.pathname.endsWith(".json")) url = new URL(JWKS_PATH, url);
    let set = remoteSets.get(url.href);
    if (!set) remoteSets.set(url.href, (set = createRemoteJWKSet(url)));
    return set;
  }
  return createLocalJWKSet(jwks);
}

export async function verifyPushNotification(request: Request, options: VerifyOptions): Promise<VerifiedNotification> {
  const token = request.headers.get(SIGNATURE_HEADER);
  if (!token) throw new PushVerificationError("missing-signature", `no ${SIGNATURE_HEADER} header`);
  const body = await request.text();

  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(token, keySource(options.jwks), {
      audience: options.audience,
      ...(options.issuer ? { issuer: options.issuer } : {}),
      clockTolerance: options.clockToleranceSeconds ?? 30,
      algorithms: ["ES256", "ES384", "RS256", "EdDSA", "Ed25519"],
      requiredClaims: ["exp", "iat", "jti"],
    }));
  } catch (error) {
    throw fromJose(error);
  }

  if ((await sha256(body)) !== claims.bodySha256) throw new PushVerificationError("body-mismatch", "the body does not match the signed hash");
  const taskId = claims.taskId;
  const seq = claims.seq;
  const jti = claims.jti!;
  if (typeof taskId !== "string" || typeof seq !== "number") throw new PushVerificationError("malformed", "the token lacks taskId or seq");

  let event: StreamResponse;
  try {
    event = StreamResponseSchema.parse(JSON.parse(body)) as StreamResponse;
  } catch {
    throw new PushVerificationError("invalid-body", "the body is not one StreamResponse");
  }
  const bodyTaskId = "task" in event ? event.task.id : "statusUpdate" in event ? event.statusUpdate.taskId : "artifactUpdate" in event ? event.artifactUpdate.taskId : event.message.taskId;
  if (bodyTaskId !== taskId) throw new PushVerificationError("unexpected-task", "the body's task is not the signed task");
  if (options.expectTask && !(await options.expectTask(taskId))) throw new PushVerificationError("unexpected-task", `task ${taskId} was not expected`);

  if (options.seen) {
    if (await options.seen.has(jti)) throw new PushVerificationError("replayed", `notification ${jti} was already received`);
    await options.seen.add(jti, claims.exp!);
  }
  return { event, taskId, seq, jti, claims };
}

function fromJose(error: unknown): PushVerificationError {
  if (error instanceof errors.JWTExpired) return new PushVerificationError("expired", "the signature has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return new PushVerificationError("wrong-audience", "the notification was signed for another webhook");
    if (error.claim === "iss") return new PushVerificationError("wrong-issuer", "the notification was signed by another agent");
    return new PushVerificationError("malformed", error.message);
  }
  if (error instanceof errors.JWKSNoMatchingKey) return new PushVerificationError("unknown-key", "no published key matches the signature's kid");
  if (error instanceof errors.JWSSignatureVerificationFailed) return new PushVerificationError("bad-signature", "the signature does not verify");
  return new PushVerificationError("malformed", error instanceof Error ? error.message : String(error));
}

export { SIGNATURE_HEADER, JWKS_PATH };
