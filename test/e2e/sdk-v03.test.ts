/**
 * A2A 0.3 compatibility with the official @a2a-js/sdk client in its v0.3 compatibility mode
 * (`legacyCompat`), over JSON-RPC and HTTP+JSON, against the real local server serving the hybrid card;
 * and the v1.0 client against the same running agent.
 *
 * The 0.3 client reads our card the way a 0.3-only reader does: its 0.3 fields (`url`,
 * `preferredTransport`, `additionalInterfaces`) without the v1.0 `supportedInterfaces`.
 */
import { webcrypto } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SendMessageRequest, TaskPushNotificationConfig, TaskState, type AgentCard, type Part, type StreamResponse, type Task } from "@a2a-js/sdk";
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, type Client } from "@a2a-js/sdk/client";
import { startServer, type RunningServer } from "./server";
import { startWebhook, type Webhook } from "./webhook";
import { recordingFetch, type SeenRequest } from "./recording-fetch";

let server: RunningServer;
let webhook: Webhook;

async function makeSigningKey(): Promise<string> {
  const { privateKey } = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = await webcrypto.subtle.exportKey("jwk", privateKey);
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid: "e2e-v03", alg: "ES256" });
}

beforeAll(async () => {
  webhook = await startWebhook();
  server = await startServer({
    config: "examples/conformance/wrangler.toml",
    vars: { A2A_V03_COMPAT: "true", PUSH_SIGNING_JWK: await makeSigningKey(), PUSH_RETRY_BASE_SECONDS: "1" },
  });
});

afterAll(async () => {
  await server?.stop();
  await webhook?.close();
});

// ---------------------------------------------------------------------------------------------
// helpers

const uid = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

function sendRequest(messageId: string, extra: { taskId?: string; contextId?: string; returnImmediately?: boolean; text?: string } = {}) {
  return SendMessageRequest.fromJSON({
    message: {
      messageId, role: "ROLE_USER", parts: [{ text: extra.text ?? "hello from the 0.3 client" }],
      ...(extra.taskId ? { taskId: extra.taskId } : {}), ...(extra.contextId ? { contextId: extra.contextId } : {}),
    },
    ...(extra.returnImmediately ? { configuration: { returnImmediately: true } } : {}),
  });
}

const textOf = (parts: Part[] | undefined) => (parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
const stateOf = (task: Task) => TaskState[task.status!.state];

function asTask(result: unknown): Task {
  expect(result, "expected a Task, got a Message").toHaveProperty("status");
  return result as Task;
}

async function collect(stream: AsyncIterable<StreamResponse>, timeoutMs = 20_000): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`stream did not end; got ${JSON.stringify(events.map(describeEvent))}`)), timeoutMs);
  });
  try {
    await Promise.race([(async () => { for await (const event of stream) events.push(event); })(), timeout]);
  } finally {
    clearTimeout(timer);
  }
  return events;
}

function describeEvent(event: StreamResponse): string {
  const p = event.payload;
  switch (p?.$case) {
    case "task": return `task:${TaskState[p.value.status?.state ?? 0]}`;
    case "message": return `message:${textOf(p.value.parts)}`;
    case "statusUpdate": return `status:${TaskState[p.value.status?.state ?? 0]}`;
    case "artifactUpdate": return `artifact:${textOf(p.value.artifact?.parts)}`;
    default: return "empty";
  }
}

async function expectError(promise: Promise<unknown>, name: string): Promise<void> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, `expected ${name}`).toBeInstanceOf(Error);
  expect((error as Error).name).toBe(name);
}

async function pollUntil(client: Client, id: string, state: TaskState, timeoutMs = 15_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await client.getTask({ tenant: "", id });
    if (task.status?.state === state || Date.now() > deadline) return task;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------------------------------------------------------------------------------------------

describe("the hybrid Agent Card", () => {
  it("carries the v1.0 card and the 0.3 fields side by side", async () => {
    const card = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as Record<string, any>;
    expect(card).toMatchObject({
      protocolVersion: "0.3.0", url: `${server.url}/`, preferredTransport: "JSONRPC",
      additionalInterfaces: [{ url: `${server.url}/`, transport: "JSONRPC" }, { url: server.url, transport: "HTTP+JSON" }],
      capabilities: { streaming: true, pushNotifications: true },
    });
    expect(card.supportedInterfaces.map((i: any) => `${i.protocolBinding}@${i.protocolVersion}`)).toEqual(["JSONRPC@1.0", "HTTP+JSON@1.0", "JSONRPC@0.3", "HTTP+JSON@0.3"]);
  });
});

describe.each(["JSONRPC", "HTTP+JSON"] as const)("@a2a-js/sdk in v0.3 compatibility mode over %s", (binding) => {
  const seen: SeenRequest[] = [];
  let client: Client;

  beforeAll(async () => {
    const fetchImpl = recordingFetch(seen);
    const legacyCompat = { enabled: true };
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new RestTransportFactory({ fetchImpl, legacyCompat })],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
    });
    const { supportedInterfaces: _v1, ...card03 } = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    client = await factory.createFromAgentCard(card03 as unknown as AgentCard);
  });

  it("picks the 0.3 transport from the card's 0.3 fields", () => {
    expect(client.protocolVersion).toBe("0.3");
    expect(client.transport.protocolName).toBe(binding);
    // The client bundle has its own copy of the classes (bundled as `_Legacy…`): compare by name.
    expect(client.transport.constructor.name.replace(/^_/, "")).toBe(binding === "JSONRPC" ? "LegacyJsonRpcTransport" : "LegacyRestTransport");
  });

  it("message/send (blocking) completes with the agent's message", async () => {
    const messageId = uid("tck-complete-task");
    const task = asTask(await client.sendMessage(sendRequest(messageId)));
    expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
    expect(textOf(task.status!.message?.parts)).toBe("Hello from TCK");
    expect(task.history.map((m) => m.messageId)).toContain(messageId);
    expect(textOf(task.history.find((m) => m.messageId === messageId)?.parts)).toBe("hello from the 0.3 client");
  });

  it("a direct reply comes back as a Message", async () => {
    const reply = await client.sendMessage(sendRequest(uid("tck-message-response")));
    expect(reply).toHaveProperty("messageId");
    expect(textOf((reply as { parts: Part[] }).parts)).toBe("Direct message response");
  });

  it("returnImmediately answers in progress; polling then sees COMPLETED", async () => {
    const task = asTask(await client.sendMessage(sendRequest(uid("tck-delayed-complete"), { returnImmediately: true })));
    expect(["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"]).toContain(stateOf(task));
    const done = await pollUntil(client, task.id, TaskState.TASK_STATE_COMPLETED);
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
  });

  it("message/stream yields Task, WORKING, the artifact, COMPLETED", async () => {
    const events = await collect(client.sendMessageStream(sendRequest(uid("tck-stream-001"))));
    expect(events.map(describeEvent)).toEqual(["task:TASK_STATE_SUBMITTED", "status:TASK_STATE_WORKING", "artifact:Stream hello from TCK", "status:TASK_STATE_COMPLETED"]);
  });

  it("a multi-turn task: INPUT_REQUIRED, then a follow-up; tasks/get with historyLength", async () => {
    const asked = asTask(await client.sendMessage(sendRequest(uid("tck-input-required"))));
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    const done = asTask(await client.sendMessage(sendRequest(uid("tck-complete-task"), { taskId: asked.id, contextId: asked.contextId })));
    expect(done.id).toBe(asked.id);
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    const full = await client.getTask({ tenant: "", id: asked.id });
    expect(full.history.length).toBeGreaterThanOrEqual(3);
    const last = await client.getTask({ tenant: "", id: asked.id, historyLength: 1 });
    expect(last.history).toHaveLength(1);
  });

  it("cancel: a running task is CANCELED; a completed one is TaskNotCancelableError", async () => {
    const running = asTask(await client.sendMessage(sendRequest(uid("test-resubscribe-message-id"), { returnImmediately: true })));
    const canceled = await client.cancelTask({ tenant: "", id: running.id, metadata: undefined });
    expect(stateOf(canceled)).toBe("TASK_STATE_CANCELED");
    const done = asTask(await client.sendMessage(sendRequest(uid("tck-complete-task"))));
    await expectError(client.cancelTask({ tenant: "", id: done.id, metadata: undefined }), "TaskNotCancelableError");
  });

  it("resubscribe starts with the Task snapshot and ends at COMPLETED", async () => {
    const task = asTask(await client.sendMessage(sendRequest(uid("test-resubscribe-message-id"), { returnImmediately: true })));
    const events = await collect(client.resubscribeTask({ tenant: "", id: task.id }));
    expect(events[0]!.payload?.$case).toBe("task");
    expect(describeEvent(events.at(-1)!)).toBe("status:TASK_STATE_COMPLETED");
    const last = events.at(-1)!.payload;
    expect(last?.$case === "statusUpdate" && textOf(last.value.status?.message?.parts)).toBe("Resubscribe test complete");
  });

  it("an unknown task is TaskNotFoundError on get, cancel and resubscribe", async () => {
    const id = crypto.randomUUID();
    await expectError(client.getTask({ tenant: "", id }), "TaskNotFoundError");
    await expectError(client.cancelTask({ tenant: "", id, metadata: undefined }), "TaskNotFoundError");
    const resubscribed = collect(client.resubscribeTask({ tenant: "", id }));
    const error = await resubscribed.then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect(`${error!.name} ${error!.message} ${String((error as { cause?: unknown }).cause)}`).toMatch(/TaskNotFound|-32001|not found/i);
  });

  it("push configs: set, get, list, delete; a config set over 0.3 receives the bare 0.3 Task", async () => {
    const asked = asTask(await client.sendMessage(sendRequest(uid("tck-input-required"))));
    const hookPath = `/ok/v03-${binding}-${crypto.randomUUID()}`;
    const config = TaskPushNotificationConfig.fromJSON({ taskId: asked.id, id: "hook03", url: `${webhook.url}${hookPath}`, token: "tok03" });
    const created = await client.createTaskPushNotificationConfig(config);
    expect(created).toMatchObject({ taskId: asked.id, id: "hook03", url: `${webhook.url}${hookPath}`, token: "tok03" });
    expect(await client.getTaskPushNotificationConfig({ tenant: "", taskId: asked.id, id: "hook03" })).toMatchObject({ id: "hook03", taskId: asked.id });
    expect((await client.listTaskPushNotificationConfig({ tenant: "", taskId: asked.id, pageSize: 0, pageToken: "" })).configs.map((c) => c.id)).toEqual(["hook03"]);

    await client.sendMessage(sendRequest(uid("tck-complete-task"), { taskId: asked.id }));
    const [notification] = await webhook.waitFor(hookPath, 1);
    const body = JSON.parse(notification!.body);
    expect(body).toMatchObject({ kind: "task", id: asked.id, contextId: asked.contextId, status: { state: "completed" } });
    expect(notification!.headers["content-type"]).toBe("application/json");
    expect(notification!.headers["x-a2a-notification-token"]).toBe("tok03");

    await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: asked.id, id: "hook03" });
    expect((await client.listTaskPushNotificationConfig({ tenant: "", taskId: asked.id, pageSize: 0, pageToken: "" })).configs).toEqual([]);
  });

  it("every request was 0.3 on the wire: A2A-Version 0.3, slash methods or /v1 paths", () => {
    expect(seen.length).toBeGreaterThan(15);
    for (const call of seen) expect(call.version, `${call.method} ${call.url}`).toBe("0.3");
    if (binding === "JSONRPC") {
      const methods = new Set(seen.map((c) => JSON.parse(c.body ?? "{}").method as string));
      expect([...methods].sort()).toEqual([
        "message/send", "message/stream", "tasks/cancel", "tasks/get", "tasks/pushNotificationConfig/delete",
        "tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/set", "tasks/resubscribe",
      ]);
      for (const call of seen) expect(call.url).toBe(`${server.url}/`);
    } else {
      for (const call of seen) expect(call.url.startsWith(`${server.url}/v1/`), call.url).toBe(true);
      expect(seen.some((c) => c.url.endsWith("/v1/message:stream"))).toBe(true);
      expect(seen.some((c) => c.url.endsWith(":subscribe"))).toBe(true);
      const send = seen.find((c) => c.url.endsWith("/v1/message:send"));
      expect(JSON.parse(send!.body!).message).toMatchObject({ role: "ROLE_USER", content: [{ text: "hello from the 0.3 client" }] });
    }
  });
});

describe("the v1.0 client against the same running agent", () => {
  it.each(["JSONRPC", "HTTP+JSON"] as const)("over %s: picks 1.0 from the hybrid card; send, stream, get, cancel, resubscribe", async (binding) => {
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } }), new RestTransportFactory({ legacyCompat: { enabled: true } })],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
    });
    const client = await factory.createFromUrl(server.url);
    expect(client.protocolVersion).toBe("1.0");

    const task = asTask(await client.sendMessage(sendRequest(uid("tck-complete-task"))));
    expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
    const events = await collect(client.sendMessageStream(sendRequest(uid("tck-stream-001"))));
    expect(events.map(describeEvent)).toEqual(["task:TASK_STATE_SUBMITTED", "status:TASK_STATE_WORKING", "artifact:Stream hello from TCK", "status:TASK_STATE_COMPLETED"]);
    expect(stateOf(await client.getTask({ tenant: "", id: task.id }))).toBe("TASK_STATE_COMPLETED");

    const running = asTask(await client.sendMessage(sendRequest(uid("test-resubscribe-message-id"), { returnImmediately: true })));
    const followed = collect(client.resubscribeTask({ tenant: "", id: running.id }));
    await new Promise((r) => setTimeout(r, 300));
    expect(stateOf(await client.cancelTask({ tenant: "", id: running.id, metadata: undefined }))).toBe("TASK_STATE_CANCELED");
    expect(describeEvent((await followed).at(-1)!)).toBe("status:TASK_STATE_CANCELED");
  });
});
