/**
 * Push delivery end to end: the real local server (wrangler dev, its local queue and dead-letter queue)
 * delivers to a real HTTP webhook on loopback; signatures are checked with the exported verifier
 * against the server's published JWKS.
 */
import { webcrypto } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPushNotification } from "../../src/push/verify";
import { makeTempDir, removeDir, startServer, type RunningServer } from "./server";
import { startWebhook, type ReceivedNotification, type Webhook } from "./webhook";

let server: RunningServer;
let webhook: Webhook;
let signingKey: string;

async function makeSigningKey(): Promise<string> {
  const { privateKey } = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = await webcrypto.subtle.exportKey("jwk", privateKey);
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid: "e2e-key", alg: "ES256" });
}

const VARS = () => ({ PUSH_SIGNING_JWK: signingKey, PUSH_MAX_ATTEMPTS: "3", PUSH_RETRY_BASE_SECONDS: "1", PUSH_REQUEUE_AFTER_SECONDS: "4" });

beforeAll(async () => {
  signingKey = await makeSigningKey();
  webhook = await startWebhook();
  server = await startServer({ config: "examples/conformance/wrangler.toml", vars: VARS() });
});

afterAll(async () => {
  await server?.stop();
  await webhook?.close();
});

const uid = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

async function rpc(method: string, params: unknown): Promise<any> {
  const response = await fetch(`${server.url}/`, { method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as any;
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function rest(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.url}${path}`, { method, headers: { "content-type": "application/json", "a2a-version": "1.0" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await response.json()) as any;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const message = (prefix: string, extra: Record<string, unknown> = {}) => ({ messageId: uid(prefix), role: "ROLE_USER", parts: [{ text: "push" }], ...extra });

async function verify(notification: ReceivedNotification, hookUrl: string) {
  const request = new Request(hookUrl, { method: "POST", body: notification.body, headers: notification.headers as Record<string, string> });
  return verifyPushNotification(request, { jwks: `${server.url}/.well-known/a2a-push-jwks.json`, audience: hookUrl, issuer: server.url });
}

async function deliveries(taskId: string): Promise<any[]> {
  return (await rest("GET", `/tasks/${taskId}/pushDeliveries`)).deliveries;
}

async function waitForDeliveries(taskId: string, done: (rows: any[]) => boolean, timeoutMs = 25_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await deliveries(taskId);
    if (done(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`deliveries of ${taskId}: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("push delivery", () => {
  it("JSON-RPC, inline config: each status update arrives once, signed, with the client's exact credentials", async () => {
    const hook = `${webhook.url}/ok/${crypto.randomUUID()}`;
    const config = { id: "inline", url: hook, token: "per-task-token", authentication: { scheme: "Bearer", credentials: "tck-test-token-abc" } };
    const { task } = await rpc("SendMessage", { message: message("tck-input-required"), configuration: { taskPushNotificationConfig: config } });
    await rpc("SendMessage", { message: message("tck-complete-task", { taskId: task.id }) });

    const got = await webhook.waitFor(new URL(hook).pathname, 2);
    for (const n of got) {
      expect(n.headers.authorization).toBe("Bearer tck-test-token-abc");
      expect(n.headers["x-a2a-notification-token"]).toBe("per-task-token");
      expect(n.headers["content-type"]).toBe("application/a2a+json");
      expect(n.headers["a2a-version"]).toBe("1.0");
      expect(Number(n.headers["content-length"])).toBe(Buffer.byteLength(n.body));
    }
    const verified = await Promise.all(got.map((n) => verify(n, hook)));
    const states = verified.sort((a, b) => a.seq - b.seq).map((v) => ("statusUpdate" in v.event ? v.event.statusUpdate.status.state : "?"));
    expect(states).toEqual(["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_COMPLETED"]);
    expect(verified.every((v) => v.taskId === task.id)).toBe(true);
    expect(new Set(verified.map((v) => v.jti)).size).toBe(2);

    const log = await waitForDeliveries(task.id, (rows) => rows.length === 2 && rows.every((r) => r.state === "delivered"));
    expect(log.map((r) => r.outcome)).toEqual(["HTTP 200", "HTTP 200"]);
  });

  it("HTTP+JSON: a config created on a running task gets its updates, artifacts included", async () => {
    const hook = `${webhook.url}/ok/${crypto.randomUUID()}`;
    const { task } = await rest("POST", "/message:send", { message: message("tck-input-required") });
    const created = await rest("POST", `/tasks/${task.id}/pushNotificationConfigs`, { url: hook, authentication: { scheme: "Basic", credentials: "dXNlcjpwdw==" } });
    expect(created.taskId).toBe(task.id);
    await rest("POST", "/message:send", { message: message("tck-artifact-text", { taskId: task.id }) });
    const got = await webhook.waitFor(new URL(hook).pathname, 2);
    expect(got[0]!.headers.authorization).toBe("Basic dXNlcjpwdw==");
    const events = (await Promise.all(got.map((n) => verify(n, hook)))).sort((a, b) => a.seq - b.seq).map((v) => Object.keys(v.event)[0]);
    expect(events).toEqual(["artifactUpdate", "statusUpdate"]);
  });

  it("a webhook that is down and comes back gets every notification, none lost", async () => {
    const hook = `${webhook.url}/flaky/2/${crypto.randomUUID()}`; // the first two requests get 503
    const { task } = await rpc("SendMessage", { message: message("tck-stream-001"), configuration: { taskPushNotificationConfig: { url: hook } } });
    const log = await waitForDeliveries(task.id, (rows) => rows.length === 3 && rows.every((r) => r.state === "delivered"));
    expect(log.map((r) => r.seq)).toEqual([2, 3, 4]); // WORKING, the artifact, COMPLETED
    const got = webhook.on(new URL(hook).pathname);
    const delivered = new Set((await Promise.all(got.slice(2).map((n) => verify(n, hook)))).map((v) => v.seq));
    expect([...delivered].sort()).toEqual([2, 3, 4]);
    expect(log.reduce((sum, r) => sum + r.attempts, 0)).toBe(got.length);
  });

  it("a permanent 4xx is recorded as failed and not retried", async () => {
    const hook = `${webhook.url}/gone/${crypto.randomUUID()}`;
    const { task } = await rpc("SendMessage", { message: message("tck-complete-task"), configuration: { taskPushNotificationConfig: { url: hook } } });
    const log = await waitForDeliveries(task.id, (rows) => rows.length === 1 && rows[0].state !== "pending" && rows[0].state !== "queued");
    expect(log[0]).toMatchObject({ state: "failed", attempts: 1, outcome: "HTTP 404" });
    await new Promise((r) => setTimeout(r, 3000));
    expect(webhook.on(new URL(hook).pathname)).toHaveLength(1);
  });

  it("a redirect is not followed (it could lead anywhere, a private address included)", async () => {
    const hook = `${webhook.url}/redirect/${crypto.randomUUID()}`;
    const { task } = await rpc("SendMessage", { message: message("tck-complete-task"), configuration: { taskPushNotificationConfig: { url: hook } } });
    const log = await waitForDeliveries(task.id, (rows) => rows.length === 1 && rows[0].state === "failed");
    expect(log[0].outcome).toMatch(/302: redirects are not followed/);
    expect(webhook.on(new URL(hook).pathname)).toHaveLength(1);
  });

  it("when attempts run out the notification is recorded as given up", async () => {
    const hook = `${webhook.url}/down/${crypto.randomUUID()}`;
    const { task } = await rpc("SendMessage", { message: message("tck-complete-task"), configuration: { taskPushNotificationConfig: { url: hook } } });
    const log = await waitForDeliveries(task.id, (rows) => rows.length === 1 && rows[0].state === "dead", 40_000);
    expect(log[0]).toMatchObject({ state: "dead", attempts: 3 });
    expect(log[0].outcome).toMatch(/gave up after 3 attempts; last: HTTP 503/);
    expect(webhook.on(new URL(hook).pathname)).toHaveLength(3);
  });
});

describe("push across a restart", () => {
  it("a notification queued when the runtime stopped is delivered after it restarts", async () => {
    const persistTo = makeTempDir();
    let own = await startServer({ config: "examples/conformance/wrangler.toml", persistTo, vars: VARS() });
    try {
      const hookPath = `/flaky/1/${crypto.randomUUID()}`; // the first attempt gets 503, later ones 200
      const hook = `${webhook.url}${hookPath}`;
      const send = await fetch(`${own.url}/message:send`, { method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" }, body: JSON.stringify({ message: message("tck-complete-task"), configuration: { taskPushNotificationConfig: { url: hook } } }) });
      const { task } = (await send.json()) as any;
      await webhook.waitFor(hookPath, 1);
      // Stop at once: the retry sat in the local queue, which lives in memory and is gone with the process.
      await own.stop();
      own = await startServer({ config: "examples/conformance/wrangler.toml", persistTo, vars: VARS() });
      // The outbox row is still "queued": once the queue has been silent long enough (4 s here), the task
      // object's alarm hands it to the queue again, and it is delivered.
      const got = await webhook.waitFor(hookPath, 2, 30_000);
      const verified = await verifyPushNotification(new Request(hook, { method: "POST", body: got[1]!.body, headers: got[1]!.headers as Record<string, string> }), { jwks: `${own.url}/.well-known/a2a-push-jwks.json`, audience: hook });
      expect(verified.taskId).toBe(task.id);
      expect(verified.seq).toBe(2);
      const log = await fetch(`${own.url}/tasks/${task.id}/pushDeliveries`, { headers: { "a2a-version": "1.0" } });
      const rows = ((await log.json()) as any).deliveries;
      expect(rows).toMatchObject([{ seq: 2, state: "delivered" }]);
    } finally {
      await own.stop();
      removeDir(persistTo);
    }
  });
});
