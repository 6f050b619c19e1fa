/** Bad input is normal input: each gets its exact A2A error, never a 500, and nothing stored changes. */
import { describe, expect, it } from "vitest";
import { fetchWorker, ok, uid, userMessage, V1 } from "./helpers";

const JSON_HEADERS = { ...V1, "content-type": "application/json" };
const rpc = (body: string, headers: Record<string, string> = JSON_HEADERS) => fetchWorker("/", { method: "POST", body, headers });
const big = (bytes: number) => JSON.stringify({ message: userMessage("big", "x".repeat(bytes)) });

interface Expected {
  code: number;
  reason: string;
  id?: unknown;
}

const JSONRPC_CASES: [name: string, send: () => Promise<Response>, expected: Expected][] = [
  ["malformed JSON", () => rpc("{not json"), { code: -32700, reason: "PARSE_ERROR", id: null }],
  ["empty body", () => rpc(""), { code: -32600, reason: "INVALID_REQUEST", id: null }],
  ["a batch array", () => rpc("[]"), { code: -32600, reason: "INVALID_REQUEST", id: null }],
  ["wrong jsonrpc version", () => rpc(JSON.stringify({ jsonrpc: "1.0", id: 7, method: "GetTask", params: { id: "x" } })), { code: -32600, reason: "INVALID_REQUEST", id: 7 }],
  ["missing id", () => rpc(JSON.stringify({ jsonrpc: "2.0", method: "GetTask", params: { id: "x" } })), { code: -32600, reason: "INVALID_REQUEST", id: null }],
  ["an object as id", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "GetTask" })), { code: -32600, reason: "INVALID_REQUEST", id: null }],
  ["method not a string", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: 5 })), { code: -32600, reason: "INVALID_REQUEST", id: 1 }],
  ["unknown method", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: "u", method: "FlyToMoon", params: {} })), { code: -32601, reason: "METHOD_NOT_FOUND", id: "u" }],
  ["0.3 slash method", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "message/send", params: {} })), { code: -32601, reason: "METHOD_NOT_FOUND", id: 2 }],
  ["params as array", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "GetTask", params: ["x"] })), { code: -32602, reason: "INVALID_PARAMS", id: 3 }],
  ["missing message", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "SendMessage", params: {} })), { code: -32602, reason: "INVALID_PARAMS", id: 4 }],
  ["message without parts", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "SendMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [] } } })), { code: -32602, reason: "INVALID_PARAMS", id: 5 }],
  ["part with two members", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 6, method: "SendMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "a", data: {} }] } } })), { code: -32602, reason: "INVALID_PARAMS", id: 6 }],
  ["lowercase 0.3 role", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "SendMessage", params: { message: { messageId: "m", role: "user", parts: [{ text: "a" }] } } })), { code: -32602, reason: "INVALID_PARAMS", id: 8 }],
  ["wrong type for historyLength", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "GetTask", params: { id: "x", historyLength: "lots" } })), { code: -32602, reason: "INVALID_PARAMS", id: 9 }],
  ["unknown task", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 10, method: "GetTask", params: { id: crypto.randomUUID() } })), { code: -32001, reason: "TASK_NOT_FOUND", id: 10 }],
  ["missing A2A-Version (means 0.3)", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 11, method: "GetTask", params: { id: "x" } }), { "content-type": "application/json" }), { code: -32009, reason: "VERSION_NOT_SUPPORTED", id: 11 }],
  ["A2A-Version 2.0", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 12, method: "GetTask", params: { id: "x" } }), { "content-type": "application/json", "a2a-version": "2.0" }), { code: -32009, reason: "VERSION_NOT_SUPPORTED", id: 12 }],
  ["wrong content type", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 13, method: "GetTask", params: { id: "x" } }), { ...V1, "content-type": "text/plain" }), { code: -32005, reason: "CONTENT_TYPE_NOT_SUPPORTED", id: null }],
  ["oversize body", () => rpc(JSON.stringify({ jsonrpc: "2.0", id: 14, method: "SendMessage", params: JSON.parse(big(70_000)) })), { code: -32600, reason: "PAYLOAD_TOO_LARGE", id: null }],
];

describe("JSON-RPC bad input", () => {
  it.each(JSONRPC_CASES)("%s", async (_name, send, expected) => {
    const response = await send();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = (await response.json()) as any;
    expect(body.jsonrpc).toBe("2.0");
    expect(body.id).toEqual(expected.id);
    expect(body.error.code).toBe(expected.code);
    expect(body.error.data[0]).toMatchObject({ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: expected.reason, domain: "a2a-protocol.org" });
    expect(typeof body.error.message).toBe("string");
  });

  it("reports which field failed", async () => {
    const body = (await (await rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{}] } } }))).json()) as any;
    const violations = body.error.data.find((d: any) => d["@type"].endsWith("BadRequest")).fieldViolations;
    expect(violations[0].field).toBe("message.parts.0");
  });

  it("accepts A2A-Version from the query, and a patch version", async () => {
    const params = { message: userMessage(uid("tck-complete-task")) };
    const viaQuery = await fetchWorker("/?A2A-Version=1.0", { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params }), headers: { "content-type": "application/json" } });
    expect(((await viaQuery.json()) as any).result.task.status.state).toBe("TASK_STATE_COMPLETED");
    const patch = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params }), { "content-type": "application/a2a+json", "a2a-version": "1.0.3" });
    expect(((await patch.json()) as any).result.task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("accepts snake_case fields and enum numbers (ProtoJSON input rules)", async () => {
    const body = { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { message_id: uid("tck-complete-task"), role: 1, parts: [{ text: "hi", media_type: "text/plain" }], context_id: "ctx-snake" } } };
    const result = ((await (await rpc(JSON.stringify(body))).json()) as any).result;
    expect(result.task.contextId).toBe("ctx-snake");
    expect(result.task.history[0].parts[0]).toEqual({ text: "hi", mediaType: "text/plain" });
    expect(result.task.history[0].role).toBe("ROLE_USER");
  });
});

const REST_CASES: [name: string, path: string, init: RequestInit, status: number, reason: string][] = [
  ["malformed JSON", "/message:send", { method: "POST", body: "{oops", headers: JSON_HEADERS }, 400, "PARSE_ERROR"],
  ["missing message", "/message:send", { method: "POST", body: "{}", headers: JSON_HEADERS }, 400, "INVALID_PARAMS"],
  ["body not an object", "/message:send", { method: "POST", body: "[1]", headers: JSON_HEADERS }, 400, "INVALID_PARAMS"],
  ["wrong content type", "/message:send", { method: "POST", body: "hello", headers: { ...V1, "content-type": "text/plain" } }, 415, "CONTENT_TYPE_NOT_SUPPORTED"],
  ["oversize body", "/message:send", { method: "POST", body: big(70_000), headers: JSON_HEADERS }, 413, "PAYLOAD_TOO_LARGE"],
  ["missing A2A-Version", "/tasks/x", { method: "GET" }, 400, "VERSION_NOT_SUPPORTED"],
  ["unknown task", "/tasks/00000000-0000-0000-0000-000000000000", { method: "GET", headers: V1 }, 404, "TASK_NOT_FOUND"],
  ["negative historyLength", "/tasks/x?historyLength=-2", { method: "GET", headers: V1 }, 400, "INVALID_PARAMS"],
  ["non-numeric pageSize", "/tasks?pageSize=ten", { method: "GET", headers: V1 }, 400, "INVALID_PARAMS"],
  ["unknown status filter", "/tasks?status=TASK_STATE_SLEEPING", { method: "GET", headers: V1 }, 400, "INVALID_PARAMS"],
  ["unknown route", "/nothing/here/at/all", { method: "GET", headers: V1 }, 404, "METHOD_NOT_FOUND"],
  ["wrong HTTP method", "/message:send", { method: "GET", headers: V1 }, 405, "METHOD_NOT_ALLOWED"],
  ["unknown custom verb", "/tasks/x:explode", { method: "POST", headers: V1 }, 405, "METHOD_NOT_ALLOWED"],
];

describe("HTTP+JSON bad input", () => {
  it.each(REST_CASES)("%s", async (_name, path, init, status, reason) => {
    const response = await fetchWorker(path, init);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = (await response.json()) as any;
    expect(body.error.code).toBe(status);
    expect(typeof body.error.status).toBe("string");
    expect(body.error.details[0]).toMatchObject({ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "a2a-protocol.org" });
  });

  it("answers application/a2a+json when the client asks for it", async () => {
    const response = await fetchWorker("/tasks/nope", { headers: { ...V1, accept: "application/a2a+json" } });
    expect(response.headers.get("content-type")).toBe("application/a2a+json");
  });

  it("accepts a percent-encoded colon and a body-less POST :cancel", async () => {
    const sent = await fetchWorker("/message%3Asend", { method: "POST", body: JSON.stringify({ message: userMessage(uid("tck-input-required")) }), headers: { ...V1, "content-type": "application/a2a+json" } });
    const task = ((await sent.json()) as any).task;
    const canceled = await fetchWorker(`/tasks/${task.id}:cancel`, { method: "POST", headers: V1 });
    expect(((await canceled.json()) as any).status.state).toBe("TASK_STATE_CANCELED");
  });

  it("leaves a stored task untouched by bad requests against it", async () => {
    const { task } = await ok("rest", "SendMessage", { message: userMessage(uid("tck-input-required")) });
    const before = await ok("rest", "GetTask", { id: task.id });
    await fetchWorker("/message:send", { method: "POST", body: JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{}], taskId: task.id } }), headers: JSON_HEADERS });
    await fetchWorker("/message:send", { method: "POST", body: big(70_000).replace('"big"', `"big","taskId":"${task.id}"`), headers: JSON_HEADERS });
    await fetchWorker(`/tasks/${task.id}:cancel`, { method: "POST", body: "nope", headers: { ...V1, "content-type": "text/plain" } });
    await rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "CancelTask", params: { id: task.id } }), { "content-type": "application/json" });
    expect(await ok("rest", "GetTask", { id: task.id })).toEqual(before);
  });
});
