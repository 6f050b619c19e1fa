/**
 * A2A 0.3 compatibility: the 0.3 JSON-RPC methods and the `/v1/…` HTTP+JSON routes against the test
 * agent in workerd, their shapes, errors, streams with `final`, resubscription; push configs made over
 * 0.3 getting the 0.3 payload; the hybrid card; and the pure translations round-tripping v1 → 0.3 → v1.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cardToProto, cardToV03, toHybridCard, v03CardEnabled, withV03Card } from "../../src/compat/v03-card";
import { sendRequestFromProto, streamResponseToProto, taskFromProto, taskToProto } from "../../src/compat/v03-proto";
import {
  pushBodyV03, pushConfigFromV03, pushConfigToV03, sendParamsFromV03, stateFromV03, stateToV03, streamResponseFromV03,
  streamResponseToV03, taskFromV03, taskToV03,
} from "../../src/compat/v03-shapes";
import type { AgentDefinition } from "../../src/agent/types";
import type { A2AEnv } from "../../src/env";
import { AgentCardSchema, TASK_STATES, type StreamResponse, type Task } from "../../src/protocol/index";
import { buildCard } from "../../src/server/card";
import { taskStub } from "../../src/task/names";
import { fetchWorker, ok, uid, userMessage } from "./helpers";

const HOOK = "https://hooks.example.com/a2a";
let rpcId = 0;

/** A 0.3 JSON-RPC call: no A2A-Version header, as 0.3 clients send it. */
function rpc03Request(method: string, params?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetchWorker("/", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, ...(params === undefined ? {} : { params }) }) });
}

async function rpc03(method: string, params?: unknown, headers?: Record<string, string>): Promise<{ result?: any; error?: any; id: number }> {
  const response = await rpc03Request(method, params, headers);
  expect(response.status).toBe(200);
  return (await response.json()) as any;
}

async function result03(method: string, params?: unknown): Promise<any> {
  const body = await rpc03(method, params);
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

function rest03(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetchWorker(`/v1${path}`, { method, headers: { "content-type": "application/json", ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

async function restOk(method: string, path: string, body?: unknown): Promise<any> {
  const response = await rest03(method, path, body);
  const json = (await response.json()) as any;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const message03 = (prefix: string, extra: Record<string, unknown> = {}, text = "hello") =>
  ({ kind: "message", messageId: uid(prefix), role: "user", parts: [{ kind: "text", text }], ...extra });
const protoMessage = (prefix: string, extra: Record<string, unknown> = {}) =>
  ({ messageId: uid(prefix), role: "ROLE_USER", content: [{ text: "hello" }], ...extra });

/** Reads SSE frames raw: `data` parsed, JSON-RPC envelopes kept. */
async function frames(response: Response): Promise<{ id?: string; event?: string; data: any }[]> {
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const text = await response.text();
  return text.split("\n\n").filter((f) => f.includes("data:")).map((frame) => {
    const out: { id?: string; event?: string; data: any } = { data: undefined };
    for (const line of frame.split("\n")) {
      if (line.startsWith("id: ")) out.id = line.slice(4);
      else if (line.startsWith("event: ")) out.event = line.slice(7);
      else if (line.startsWith("data: ")) out.data = JSON.parse(line.slice(6));
    }
    return out;
  });
}

const kindsOf = (results: any[]) => results.map((r) => (r.kind === "status-update" ? `status:${r.status.state}${r.final ? ":final" : ""}` : r.kind));

// ---------------------------------------------------------------------------------------------

describe("0.3 JSON-RPC: message/send", () => {
  it("answers a bare 0.3 Task with kind, lowercase state, 0.3 messages and parts", async () => {
    const message = message03("tck-complete-task");
    const task = await result03("message/send", { message });
    expect(task).toMatchObject({ kind: "task", id: expect.any(String), contextId: expect.any(String), status: { state: "completed" } });
    expect(task.status.message).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "Hello from TCK" }], taskId: task.id, contextId: task.contextId });
    expect(task.history[0]).toEqual({ ...message, taskId: task.id, contextId: task.contextId });
  });

  it("accepts 0.3 file and data parts and gives them back in 0.3 form", async () => {
    const parts = [
      { kind: "text", text: "see attached", metadata: { lang: "en" } },
      { kind: "file", file: { name: "a.txt", mimeType: "text/plain", bytes: btoa("abc") } },
      { kind: "file", file: { uri: "https://example.com/b.png", mimeType: "image/png" } },
      { kind: "data", data: { key: "value", n: 1 } },
    ];
    const message = { kind: "message", messageId: uid("tck-complete-task"), role: "user", parts };
    const task = await result03("message/send", { message });
    expect(task.history[0].parts).toEqual(parts);
    // The v1.0 view of the same task has the v1.0 parts.
    const v1 = await ok("jsonrpc", "GetTask", { id: task.id });
    expect(v1.history[0].parts).toEqual([
      { text: "see attached", metadata: { lang: "en" } },
      { raw: btoa("abc"), filename: "a.txt", mediaType: "text/plain" },
      { url: "https://example.com/b.png", mediaType: "image/png" },
      { data: { key: "value", n: 1 } },
    ]);
  });

  it("answers a bare Message with kind for a direct reply", async () => {
    const reply = await result03("message/send", { message: message03("tck-message-response") });
    expect(reply).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "Direct message response" }] });
  });

  it("translates artifacts: file parts with bytes, name and mimeType; data parts", async () => {
    const file = await result03("message/send", { message: message03("tck-artifact-file") });
    expect(file.artifacts[0].parts).toEqual([{ kind: "file", file: { bytes: btoa("tck"), name: "output.txt", mimeType: "text/plain" } }]);
    const data = await result03("message/send", { message: message03("tck-artifact-data") });
    expect(data.artifacts[0].parts).toEqual([{ kind: "data", data: { key: "value", count: 42 } }]);
  });

  it("continues an input-required task and honours blocking: false", async () => {
    const asked = await result03("message/send", { message: message03("tck-input-required") });
    expect(asked.status.state).toBe("input-required");
    const done = await result03("message/send", { message: message03("tck-complete-task", { taskId: asked.id, contextId: asked.contextId }) });
    expect(done).toMatchObject({ id: asked.id, status: { state: "completed" } });
    const early = await result03("message/send", { message: message03("tck-delayed-complete"), configuration: { blocking: false } });
    expect(["submitted", "working"]).toContain(early.status.state);
  });

  it("refuses bad 0.3 params with -32602, plain (no ErrorInfo array)", async () => {
    const cases = [
      {},
      { message: { messageId: "m", role: "robot", parts: [] } },
      { message: { messageId: "m", role: "user", parts: [{ kind: "image", url: "x" }] } },
      { message: { messageId: "m", role: "user", parts: [{ kind: "file", file: { name: "x" } }] } },
      { message: { role: "user", parts: [{ kind: "text", text: "no id" }] } },
    ];
    for (const params of cases) {
      const { error } = await rpc03("message/send", params);
      expect(error, JSON.stringify(params)).toMatchObject({ code: -32602, message: expect.any(String) });
      expect(error.data).toBeUndefined();
    }
  });
});

describe("0.3 JSON-RPC: tasks", () => {
  it("tasks/get honours historyLength; an unknown task is -32001", async () => {
    const asked = await result03("message/send", { message: message03("tck-input-required") });
    await result03("message/send", { message: message03("tck-complete-task", { taskId: asked.id }) });
    const full = await result03("tasks/get", { id: asked.id });
    expect(full.kind).toBe("task");
    expect(full.history.length).toBeGreaterThanOrEqual(3);
    const last = await result03("tasks/get", { id: asked.id, historyLength: 1 });
    expect(last.history).toHaveLength(1);
    expect((await rpc03("tasks/get", { id: crypto.randomUUID() })).error).toMatchObject({ code: -32001 });
  });

  it("tasks/cancel cancels a running task; a completed one is -32002", async () => {
    const running = await result03("message/send", { message: message03("test-slow", {}, "5000"), configuration: { blocking: false } });
    const canceled = await result03("tasks/cancel", { id: running.id });
    expect(canceled).toMatchObject({ kind: "task", id: running.id, status: { state: "canceled" } });
    const done = await result03("message/send", { message: message03("tck-complete-task") });
    expect((await rpc03("tasks/cancel", { id: done.id })).error).toMatchObject({ code: -32002 });
  });

  it("unknown 0.3 methods are -32601; a 0.3 method with A2A-Version 1.0 too; another version is refused", async () => {
    expect((await rpc03("tasks/list", {})).error).toMatchObject({ code: -32601 });
    expect((await rpc03("message/send", { message: message03("tck-complete-task") }, { "a2a-version": "1.0" })).error).toMatchObject({ code: -32601 });
    expect((await rpc03("message/send", { message: message03("tck-complete-task") }, { "a2a-version": "2.0" })).error).toMatchObject({ code: -32004 });
    // A 0.3 client that says so explicitly is served.
    expect((await rpc03("message/send", { message: message03("tck-complete-task") }, { "a2a-version": "0.3" })).result.kind).toBe("task");
  });

  it("agent/getAuthenticatedExtendedCard without an extended card is -32004", async () => {
    expect((await rpc03("agent/getAuthenticatedExtendedCard")).error).toMatchObject({ code: -32004 });
  });
});

describe("0.3 JSON-RPC: streams", () => {
  it("message/stream: bare results with kind in JSON-RPC envelopes, `final` on the last, SSE ids kept", async () => {
    const response = await rpc03Request("message/stream", { message: message03("tck-stream-001") });
    const got = await frames(response);
    for (const f of got) {
      expect(f.data).toMatchObject({ jsonrpc: "2.0", id: rpcId });
      expect(f.id).toMatch(/^\d+$/);
    }
    const results = got.map((f) => f.data.result);
    expect(kindsOf(results)).toEqual(["task", "status:working", "artifact-update", "status:completed:final"]);
    expect(results[0].status.state).toBe("submitted");
    expect(results[2].artifact.parts).toEqual([{ kind: "text", text: "Stream hello from TCK" }]);
    expect(results[3].final).toBe(true);
    expect(results[1].final).toBe(false);
  });

  it("message/stream ends at input-required with final: true", async () => {
    const results = (await frames(await rpc03Request("message/stream", { message: message03("tck-input-required") }))).map((f) => f.data.result);
    expect(kindsOf(results)).toEqual(["task", "status:input-required:final"]);
  });

  it("chunked artifacts keep append and lastChunk", async () => {
    const results = (await frames(await rpc03Request("message/stream", { message: message03("tck-stream-artifact-chunked") }))).map((f) => f.data.result);
    const chunks = results.filter((r) => r.kind === "artifact-update");
    expect(chunks.map((c) => [c.append, c.lastChunk ?? false])).toEqual([[true, false], [true, true]]);
  });

  it("tasks/resubscribe starts with the Task, follows to the end; Last-Event-ID resumes after that event", async () => {
    const task = await result03("message/send", { message: message03("test-chunks", {}, "10"), configuration: { blocking: false } });
    const first = await frames(await rpc03Request("tasks/resubscribe", { id: task.id }));
    const results = first.map((f) => f.data.result);
    expect(results[0]).toMatchObject({ kind: "task", id: task.id });
    expect(results.at(-1)).toMatchObject({ kind: "status-update", status: { state: "completed" }, final: true });
    expect(results.slice(0, -1).every((r) => r.kind !== "status-update" || r.final === false)).toBe(true);

    // Replay from a cursor: the stored events after it, the same ids, in 0.3 form.
    const cursor = first[1]!.id!;
    const replay = await frames(await rpc03Request("tasks/resubscribe", { id: task.id }, { "last-event-id": cursor }));
    expect(replay[0]!.id).toBe(String(Number(cursor) + 1));
    expect(replay.at(-1)!.data.result).toMatchObject({ kind: "status-update", final: true });
  });

  it("errors before a stream starts are plain JSON-RPC errors", async () => {
    const response = await rpc03Request("tasks/resubscribe", { id: crypto.randomUUID() });
    expect(response.headers.get("content-type")).toMatch(/json/);
    expect(((await response.json()) as any).error).toMatchObject({ code: -32001 });
  });
});

describe("0.3 JSON-RPC: push notification configs", () => {
  it("set / get / list / delete in 0.3 shapes; the id defaults to the task id", async () => {
    const task = await result03("message/send", { message: message03("tck-complete-task") });
    const auth = { schemes: ["Bearer"], credentials: "secret" };
    const set = await result03("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: { url: HOOK, token: "tok", authentication: auth } });
    expect(set).toEqual({ taskId: task.id, pushNotificationConfig: { id: task.id, url: HOOK, token: "tok", authentication: auth } });
    const mine = await result03("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: { id: "mine", url: `${HOOK}/2` } });
    expect(await result03("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: "mine" })).toEqual(mine);
    expect(await result03("tasks/pushNotificationConfig/get", { id: task.id })).toEqual(set);
    expect(await result03("tasks/pushNotificationConfig/list", { id: task.id })).toEqual([set, mine]);
    expect(await result03("tasks/pushNotificationConfig/delete", { id: task.id, pushNotificationConfigId: "mine" })).toBeNull();
    expect((await rpc03("tasks/pushNotificationConfig/get", { id: task.id, pushNotificationConfigId: "mine" })).error).toMatchObject({ code: -32001 });
    // The v1.0 view of a 0.3 config is the flat one.
    expect(await ok("jsonrpc", "GetTaskPushNotificationConfig", { taskId: task.id, id: task.id })).toEqual({ id: task.id, taskId: task.id, url: HOOK, token: "tok", authentication: { scheme: "Bearer", credentials: "secret" } });
  });

  it("configs made over 0.3 (set and inline) are stored as 0.3 ones; v1.0 ones are not", async () => {
    const task = await result03("message/send", { message: message03("tck-input-required"), configuration: { pushNotificationConfig: { id: "inline03", url: HOOK } } });
    await result03("tasks/pushNotificationConfig/set", { taskId: task.id, pushNotificationConfig: { id: "set03", url: HOOK } });
    await ok("jsonrpc", "CreateTaskPushNotificationConfig", { taskId: task.id, id: "v1", url: HOOK });
    const stub = taskStub(env as unknown as A2AEnv, "", task.id);
    const rows = await runInDurableObject(stub, (_i, state) => state.storage.sql.exec<{ id: string; version: string | null; agent_url: string }>("SELECT id, version, agent_url FROM push_configs ORDER BY id").toArray());
    expect(rows.map((r) => [r.id, r.version])).toEqual([["inline03", "0.3"], ["set03", "0.3"], ["v1", null]]);
    // The version travels in its own column: the issuer stays the plain agent URL.
    for (const r of rows) expect(r.agent_url).toBe("http://agent.test");

    // What the consumer gets for the 0.3 config: the task, which it sends as the bare 0.3 Task.
    const payload = await stub.pushPayload("inline03", 2);
    expect(payload).toMatchObject({ version: "0.3", taskJson: expect.any(String) });
    const body = JSON.parse(pushBodyV03(JSON.parse(payload!.taskJson!) as Task));
    expect(body).toMatchObject({ kind: "task", id: task.id, status: { state: "input-required" } });
  });
});

// ---------------------------------------------------------------------------------------------

describe("0.3 HTTP+JSON under /v1", () => {
  it("POST /v1/message:send takes the 0.3 proto body and answers {task} in 0.3 ProtoJSON", async () => {
    const body = await restOk("POST", "/message:send", { message: protoMessage("tck-complete-task"), configuration: { blocking: true } });
    expect(body.task).toMatchObject({ id: expect.any(String), contextId: expect.any(String), status: { state: "TASK_STATE_COMPLETED" } });
    expect(body.task.status.message).toMatchObject({ role: "ROLE_AGENT", content: [{ text: "Hello from TCK" }] });
    expect(body.task.history[0]).toMatchObject({ role: "ROLE_USER", content: [{ text: "hello" }] });
    expect(JSON.stringify(body)).not.toContain('"kind"');
  });

  it("without `blocking` in a configuration (proto3 false) answers at once; without a configuration it blocks", async () => {
    const early = await restOk("POST", "/message:send", { message: protoMessage("tck-delayed-complete"), configuration: { acceptedOutputModes: ["text/plain"] } });
    expect(["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"]).toContain(early.task.status.state);
    const blocked = await restOk("POST", "/message:send", { message: protoMessage("tck-complete-task") });
    expect(blocked.task.status.state).toBe("TASK_STATE_COMPLETED");
    const reply = await restOk("POST", "/message:send", { message: protoMessage("tck-message-response") });
    expect(reply.message).toMatchObject({ role: "ROLE_AGENT", content: [{ text: "Direct message response" }] });
  });

  it("files and data in proto form", async () => {
    const content = [{ text: "t" }, { file: { fileWithBytes: btoa("abc"), mimeType: "text/plain" } }, { file: { fileWithUri: "https://example.com/x" } }, { data: { data: { a: 1 } } }];
    const body = await restOk("POST", "/message:send", { message: { ...protoMessage("tck-artifact-file"), content } });
    expect(body.task.history[0].content).toEqual(content);
    expect(body.task.artifacts[0].parts).toEqual([{ file: { fileWithBytes: btoa("tck"), mimeType: "text/plain", name: "output.txt" } }]);
  });

  it("GET /v1/tasks/{id} with historyLength, POST :cancel without a body (TASK_STATE_CANCELLED)", async () => {
    const started = await restOk("POST", "/message:send", { message: protoMessage("test-slow", { content: [{ text: "5000" }] }), configuration: {} });
    const got = await restOk("GET", `/tasks/${started.task.id}?historyLength=1`);
    expect(got.id).toBe(started.task.id);
    expect(got.history).toHaveLength(1);
    const response = await fetchWorker(`/v1/tasks/${started.task.id}:cancel`, { method: "POST", headers: { "content-type": "application/json" } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).status.state).toBe("TASK_STATE_CANCELLED");
  });

  it("streams: 0.3 proto StreamResponses, final on the last status update; GET :subscribe resumes with Last-Event-ID", async () => {
    const response = await rest03("POST", "/message:stream", { message: protoMessage("tck-stream-001") });
    const got = await frames(response);
    expect(got.map((f) => Object.keys(f.data)[0])).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect(got[3]!.data.statusUpdate).toMatchObject({ status: { state: "TASK_STATE_COMPLETED" }, final: true });
    expect(got[1]!.data.statusUpdate.final).toBeUndefined();
    expect(got[2]!.data.artifactUpdate.artifact.parts).toEqual([{ text: "Stream hello from TCK" }]);

    const taskId = got[0]!.data.task.id;
    const replay = await frames(await fetchWorker(`/v1/tasks/${taskId}:subscribe`, { headers: { "last-event-id": got[1]!.id! } }));
    expect(replay.map((f) => Object.keys(f.data)[0])).toEqual(["artifactUpdate", "statusUpdate"]);

    const live = await restOk("POST", "/message:send", { message: protoMessage("test-chunks", { content: [{ text: "10" }] }), configuration: {} });
    const followed = await frames(await fetchWorker(`/v1/tasks/${live.task.id}:subscribe`, { method: "POST" }));
    expect(Object.keys(followed[0]!.data)).toEqual(["task"]);
    expect(followed.at(-1)!.data.statusUpdate).toMatchObject({ status: { state: "TASK_STATE_COMPLETED" }, final: true });
  });

  it("push configs in proto form", async () => {
    const { task } = await restOk("POST", "/message:send", { message: protoMessage("tck-complete-task") });
    const created = await restOk("POST", `/tasks/${task.id}/pushNotificationConfigs`, {
      name: `tasks/${task.id}/pushNotificationConfigs/`, pushNotificationConfig: { url: HOOK, authentication: { schemes: ["Bearer"], credentials: "c" } },
    });
    expect(created).toEqual({ name: `tasks/${task.id}/pushNotificationConfigs/${task.id}`, pushNotificationConfig: { id: task.id, url: HOOK, authentication: { schemes: ["Bearer"], credentials: "c" } } });
    expect(await restOk("GET", `/tasks/${task.id}/pushNotificationConfigs/${task.id}`)).toEqual(created);
    expect(await restOk("GET", `/tasks/${task.id}/pushNotificationConfigs`)).toEqual({ configs: [created] });
    expect(await restOk("DELETE", `/tasks/${task.id}/pushNotificationConfigs/${task.id}`)).toEqual({});
    expect(await restOk("GET", `/tasks/${task.id}/pushNotificationConfigs`)).toEqual({ configs: [] });
  });

  it("errors are bare {code, message} with the HTTP status of the error table", async () => {
    const missing = await rest03("GET", `/tasks/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: -32001, message: expect.any(String) });
    const card = await rest03("GET", "/card");
    expect(card.status).toBe(400);
    expect(await card.json()).toMatchObject({ code: -32004 });
    const bad = await rest03("POST", "/message:send", { message: { messageId: "m", role: "ROLE_USER" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: -32602 });
    const notJson = await fetchWorker("/v1/message:send", { method: "POST", headers: { "content-type": "text/plain" }, body: "hi" });
    expect(notJson.status).toBe(415);
    expect(await notJson.json()).toMatchObject({ code: -32005 });
  });

  it("a request naming A2A-Version 1.0 is not a 0.3 one: the v1.0 routes answer (tenant `v1` is reserved)", async () => {
    const response = await rest03("POST", "/message:send", { message: userMessage(uid("tck-complete-task")) }, { "a2a-version": "1.0" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toMatchObject({ status: "INVALID_ARGUMENT" });
  });
});

// ---------------------------------------------------------------------------------------------

describe("the hybrid Agent Card", () => {
  const definition: AgentDefinition = {
    card: {
      name: "n", description: "d", version: "1", skills: [{ id: "s", name: "s", description: "d", tags: ["t"], securityRequirements: [{ schemes: { key: { list: [] } } }] }],
      securitySchemes: {
        key: { apiKeySecurityScheme: { location: "header", name: "x-api-key" } },
        oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: "https://auth/token", scopes: { read: "r" } } } } },
      },
      securityRequirements: [{ schemes: { key: { list: [] } } }, { schemes: { oauth: { list: ["read"] } } }],
    },
    execute: () => {},
  };

  it("is off by default (the card stays pure v1.0), on with options.v03Compat or A2A_V03_COMPAT", async () => {
    const card = await (await fetchWorker("/.well-known/agent-card.json")).json() as any;
    expect(card.protocolVersion).toBeUndefined();
    expect(card.supportedInterfaces.every((i: any) => i.protocolVersion === "1.0")).toBe(true);
    const e = (v?: string) => ({ A2A_V03_COMPAT: v }) as unknown as A2AEnv;
    expect(v03CardEnabled(definition, e())).toBe(false);
    expect(v03CardEnabled({ ...definition, options: { v03Compat: true } }, e())).toBe(true);
    expect(v03CardEnabled({ ...definition, options: { v03Compat: true } }, e("false"))).toBe(false);
    expect(v03CardEnabled(definition, e("true"))).toBe(true);
    const v1 = buildCard(definition, "https://a.example");
    expect(withV03Card(v1, definition, e(), "https://a.example")).toBe(v1);
  });

  it("adds the 0.3 fields, 0.3 scheme keys and 0.3 interfaces, and still parses as a v1.0 card", () => {
    const v1 = buildCard(definition, "https://a.example");
    const hybrid = toHybridCard(v1, "https://a.example") as any;
    expect(hybrid).toMatchObject({
      protocolVersion: "0.3.0", url: "https://a.example/", preferredTransport: "JSONRPC",
      additionalInterfaces: [{ url: "https://a.example/", transport: "JSONRPC" }, { url: "https://a.example", transport: "HTTP+JSON" }],
      supportsAuthenticatedExtendedCard: false,
      security: [{ key: [] }, { oauth: ["read"] }],
    });
    expect(hybrid.supportedInterfaces).toEqual([
      ...v1.supportedInterfaces,
      { url: "https://a.example/", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      { url: "https://a.example", protocolBinding: "HTTP+JSON", protocolVersion: "0.3" },
    ]);
    expect(hybrid.securitySchemes.key).toEqual({ apiKeySecurityScheme: { location: "header", name: "x-api-key" }, type: "apiKey", in: "header", name: "x-api-key" });
    expect(hybrid.securitySchemes.oauth).toMatchObject({ type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://auth/token", scopes: { read: "r" } } } });
    expect(hybrid.skills[0].security).toEqual([{ key: [] }]);
    expect(AgentCardSchema.safeParse(hybrid).success).toBe(true);
    expect(v1).not.toHaveProperty("protocolVersion");
    // The extended card for 0.3 callers: hybrid, unsigned; over REST the 0.3 proto card.
    expect(cardToV03({ ...v1, signatures: [{ protected: "p", signature: "s" }] }, "https://a.example")).not.toHaveProperty("signatures");
    expect(cardToProto(v1, "https://a.example")).toMatchObject({ protocolVersion: "0.3.0", url: "https://a.example/", security: v1.securityRequirements, skills: [{ security: [{ schemes: { key: { list: [] } } }] }] });
  });
});

// ---------------------------------------------------------------------------------------------

describe("translations round-trip v1.0 → 0.3 → v1.0", () => {
  const message = (role: "ROLE_USER" | "ROLE_AGENT", parts: any[], extra: Record<string, unknown> = {}) =>
    ({ messageId: crypto.randomUUID(), role, parts, contextId: "ctx", taskId: "t1", ...extra });
  const task: Task = {
    id: "t1", contextId: "ctx", metadata: { m: 1 },
    status: { state: "TASK_STATE_WORKING", timestamp: "2026-01-01T00:00:00.000Z", message: message("ROLE_AGENT", [{ text: "working" }]) },
    history: [message("ROLE_USER", [
      { text: "hi", metadata: { a: 1 } },
      { raw: btoa("bytes"), filename: "f.bin", mediaType: "application/octet-stream" },
      { url: "https://example.com/x.png", mediaType: "image/png" },
      { data: { nested: { deep: [1, 2] } } },
      { data: 42 },
      { data: ["a", "b"], metadata: { keep: true } },
      { data: null },
    ], { metadata: { k: "v" }, extensions: ["urn:x"], referenceTaskIds: ["t0"] })],
    artifacts: [{ artifactId: "a1", name: "out", description: "d", parts: [{ text: "x" }, { data: { y: 1 } }], metadata: { z: 1 }, extensions: ["urn:e"] }],
  };

  it("Task (and its messages, parts, artifacts) in the 0.3 JSON-RPC shapes", () => {
    expect(taskFromV03(JSON.parse(JSON.stringify(taskToV03(task))))).toEqual(task);
  });

  it("every task state", () => {
    for (const state of TASK_STATES) expect(stateFromV03(stateToV03(state))).toBe(state);
    expect(stateToV03("TASK_STATE_INPUT_REQUIRED")).toBe("input-required");
    expect(stateToV03("TASK_STATE_CANCELED")).toBe("canceled");
  });

  it("stream events, with final by the stream's rule", () => {
    const events: StreamResponse[] = [
      { task },
      { message: task.history![0]! },
      { statusUpdate: { taskId: "t1", contextId: "ctx", status: { state: "TASK_STATE_INPUT_REQUIRED" }, metadata: { s: 1 } } },
      { artifactUpdate: { taskId: "t1", contextId: "ctx", artifact: task.artifacts![0]!, append: true, lastChunk: true, metadata: { q: 2 } } },
    ];
    for (const event of events) expect(streamResponseFromV03(streamResponseToV03(event, "send"))).toEqual(event);
    expect(streamResponseToV03(events[2]!, "send")).toMatchObject({ kind: "status-update", final: true });
    expect(streamResponseToV03(events[2]!, "subscribe")).toMatchObject({ final: false });
  });

  it("push configs and send params", () => {
    const config = { id: "c1", taskId: "t1", url: HOOK, token: "tok", authentication: { scheme: "Bearer", credentials: "cr" } };
    expect(pushConfigFromV03(pushConfigToV03(config))).toEqual(config);
    const send = sendParamsFromV03({
      message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "x" }] },
      configuration: { blocking: false, historyLength: 2, acceptedOutputModes: ["text/plain"], pushNotificationConfig: { url: HOOK, authentication: { schemes: ["Basic", "Bearer"] } } },
      metadata: { a: 1 },
    });
    expect(send).toEqual({
      message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] }, metadata: { a: 1 },
      configuration: { returnImmediately: true, historyLength: 2, acceptedOutputModes: ["text/plain"], taskPushNotificationConfig: { url: HOOK, authentication: { scheme: "Basic" } } },
    });
  });

  it("Task in the 0.3 REST ProtoJSON (parts without metadata, object data)", () => {
    const plain: Task = JSON.parse(JSON.stringify(task));
    plain.history![0]!.parts = [{ text: "hi" }, { raw: btoa("b"), mediaType: "a/b", filename: "n" }, { url: "https://e/x" }, { data: { o: 1 } }];
    delete plain.history![0]!.referenceTaskIds; // not in the 0.3 proto
    plain.status.state = "TASK_STATE_CANCELED";
    const proto = taskToProto(plain);
    expect(proto.status).toMatchObject({ state: "TASK_STATE_CANCELLED" });
    expect(taskFromProto(JSON.parse(JSON.stringify(proto)))).toEqual(plain);
    const event = { statusUpdate: { taskId: "t1", contextId: "ctx", status: { state: "TASK_STATE_COMPLETED" as const } } };
    expect(streamResponseToProto(event, "subscribe")).toEqual({ statusUpdate: { ...event.statusUpdate, status: { state: "TASK_STATE_COMPLETED" }, final: true } });
    expect(sendRequestFromProto({ request: { messageId: "m", role: 1, content: [{ text: "x" }] }, configuration: { blocking: true } }))
      .toEqual({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] }, configuration: {} });
  });
});
