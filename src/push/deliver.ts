/**
 * One webhook POST: exactly one StreamResponse as application/a2a+json, the client's own
 * Authorization and token, A2A-Version, and our signature in its own header. No redirects,
 * a 10 s timeout, and at most a few KiB of the answer read.
 */
import { base64url, sha256, SIGNATURE_HEADER, signNotification, type Signer } from "./signing";
import type { TaskPushNotificationConfig } from "../protocol/index";

export const DELIVERY_TIMEOUT_MS = 10_000;
const RESPONSE_CAP_BYTES = 4096;

export type DeliveryResult =
  | { kind: "delivered"; status: number }
  | { kind: "retry"; reason: string; retryAfterSeconds?: number }
  | { kind: "failed"; reason: string };

export interface Notification {
  url: URL;
  config: TaskPushNotificationConfig;
  agentUrl: string;
  taskId: string;
  seq: number;
  body: string;
  /** The protocol version of the body: "0.3" bodies go as application/json with A2A-Version 0.3. */
  version?: "1.0" | "0.3";
}

/** Stable per (task, config, event): receivers drop duplicates by it. */
export async function notificationId(taskId: string, configId: string, seq: number): Promise<string> {
  return (await sha256(`${taskId}\n${configId}\n${seq}`)).slice(0, 32);
}

export async function deliver(notification: Notification, signer: Signer): Promise<DeliveryResult> {
  const { url, config, body } = notification;
  const v03 = notification.version === "0.3";
  const headers = new Headers({ "content-type": v03 ? "application/json" : "application/a2a+json", "a2a-version": v03 ? "0.3" : "1.0" });
  if (config.authentication) {
    headers.set("authorization", `${config.authentication.scheme} ${config.authentication.credentials ?? ""}`.trim());
  }
  if (config.token) headers.set("x-a2a-notification-token", config.token);
  const jwt = await signNotification(signer, {
    issuer: notification.agentUrl,
    audience: url.href,
    taskId: notification.taskId,
    seq: notification.seq,
    jti: await notificationId(notification.taskId, config.id ?? "", notification.seq),
    bodySha256: await sha256(body),
  });
  headers.set(SIGNATURE_HEADER, jwt);

  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body, headers, redirect: "manual", signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return { kind: "retry", reason: timedOut ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : `network error: ${error instanceof Error ? error.message : String(error)}` };
  }
  await drain(response);
  const status = response.status;
  if (status >= 200 && status < 300) return { kind: "delivered", status };
  if (status >= 300 && status < 400) return { kind: "failed", reason: `HTTP ${status}: redirects are not followed` };
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
    return retryAfter === undefined ? { kind: "retry", reason: `HTTP ${status}` } : { kind: "retry", reason: `HTTP ${status}`, retryAfterSeconds: retryAfter };
  }
  return { kind: "failed", reason: `HTTP ${status}` };
}

/** Reads at most a few KiB of the answer (connections are few per invocation), then lets it go. */
async function drain(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read < RESPONSE_CAP_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // the answer's body does not matter
  }
}

/** Retry-After as seconds or an HTTP date. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export { base64url };
