/** Drives the test Worker over either binding and reads results, errors and SSE streams the same way. */
import { exports } from "cloudflare:workers";

export type Binding = "jsonrpc" | "rest";
export const BINDINGS: Binding[] = ["jsonrpc", "rest"];

export const BASE = "http://agent.test";
export const V1 = { "a2a-version": "1.0" };

export interface CallError {
  code: number;
  reason: string;
  httpStatus: number;
  message: string;
}

export type CallResult<T = Record<string, any>> = { result: T; error?: undefined } | { result?: undefined; error: CallError };

export function fetchWorker(path: string, init?: RequestInit): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(BASE + path, init));
}

export const uid = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

export function userMessage(messageId: string, text = "hello", extra: Record<string, unknown> = {}) {
  return { messageId, role: "ROLE_USER", parts: [{ text }], ...extra };
}

let rpcId = 0;

/** Where each unary operation lives on the REST binding. */
function restRequest(method: string, params: Record<string, any>): { path: string; init: RequestInit } {
  const tenant = params.tenant ? `/${encodeURIComponent(params.tenant)}` : "";
  const { tenant: _t, id, taskId, ...rest } = params;
  const query = (values: Record<string, unknown>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v !== undefined) q.set(k, String(v));
    const s = q.toString();
    return s ? `?${s}` : "";
  };
  const post = (path: string, body: unknown) => ({ path: tenant + path, init: { method: "POST", body: JSON.stringify(body), headers: { ...V1, "content-type": "application/json" } } });
  const get = (path: string) => ({ path: tenant + path, init: { method: "GET", headers: V1 } });
  switch (method) {
    case "SendMessage": return post("/message:send", { ...rest, ...(taskId ? { taskId } : {}) });
    case "SendStreamingMessage": return post("/message:stream", rest);
    case "GetTask": return get(`/tasks/${encodeURIComponent(id)}${query(rest)}`);
    case "ListTasks": return get(`/tasks${query(rest)}`);
    case "CancelTask": return post(`/tasks/${encodeURIComponent(id)}:cancel`, rest);
    case "SubscribeToTask": return post(`/tasks/${encodeURIComponent(id)}:subscribe`, {});
    case "GetExtendedAgentCard": return get("/extendedAgentCard");
    case "CreateTaskPushNotificationConfig": return post(`/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs`, { ...rest, ...(id ? { id } : {}) });
    case "GetTaskPushNotificationConfig": return get(`/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs/${encodeURIComponent(id)}`);
    case "ListTaskPushNotificationConfigs": return get(`/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs${query(rest)}`);
    case "DeleteTaskPushNotificationConfig": return { path: tenant + `/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs/${encodeURIComponent(id)}`, init: { method: "DELETE", headers: V1 } };
    default: throw new Error(`no REST mapping for ${method}`);
  }
}

function jsonRpcRequest(method: string, params: Record<string, any>, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
    headers: { ...V1, "content-type": "application/json", ...headers },
  };
}

/** One unary call; the result or the error, normalized across bindings. */
export async function call<T = Record<string, any>>(binding: Binding, method: string, params: Record<string, any>): Promise<CallResult<T>> {
  if (binding === "jsonrpc") {
    const response = await fetchWorker("/", jsonRpcRequest(method, params));
    const body = (await response.json()) as any;
    if (body.error) {
      return { error: { code: body.error.code, reason: body.error.data?.[0]?.reason, httpStatus: response.status, message: body.error.message } };
    }
    return { result: body.result };
  }
  const { path, init } = restRequest(method, params);
  const response = await fetchWorker(path, init);
  const body = (await response.json()) as any;
  if (!response.ok) {
    return { error: { code: body.error.code, reason: body.error.details?.[0]?.reason, httpStatus: response.status, message: body.error.message } };
  }
  return { result: body };
}

/** A call that must succeed. */
export async function ok<T = Record<string, any>>(binding: Binding, method: string, params: Record<string, any>): Promise<T> {
  const outcome = await call<T>(binding, method, params);
  if (outcome.error) throw new Error(`${method} failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result;
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: any;
}

/** Opens a stream; `lastEventId` becomes the Last-Event-ID header. Returns the Response (check its type first). */
export async function openStream(binding: Binding, method: "SendStreamingMessage" | "SubscribeToTask", params: Record<string, any>, lastEventId?: string, restVerb: "GET" | "POST" = "POST"): Promise<Response> {
  const extra: Record<string, string> = lastEventId === undefined ? {} : { "last-event-id": lastEventId };
  if (binding === "jsonrpc") return fetchWorker("/", jsonRpcRequest(method, params, extra));
  const { path, init } = restRequest(method, params);
  if (restVerb === "GET") return fetchWorker(path, { method: "GET", headers: { ...V1, ...extra } });
  return fetchWorker(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...extra } });
}

/** Reads SSE events until the server closes the stream (or `max` events). JSON-RPC envelopes are unwrapped. */
export async function readEvents(response: Response, max = Infinity): Promise<SseEvent[]> {
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    throw new Error(`not a stream: ${response.status} ${await response.text()}`);
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  while (events.length < max) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0 && events.length < max) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { data: undefined };
      const data: string[] = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "id") event.id = value;
        else if (field === "event") event.event = value;
      }
      if (!data.length) continue;
      const parsed = JSON.parse(data.join("\n"));
      event.data = parsed.jsonrpc && "result" in parsed ? parsed.result : parsed;
      events.push(event);
    }
  }
  if (events.length >= max) await reader.cancel().catch(() => {});
  return events;
}

/** The state each event reports, e.g. ["task:SUBMITTED", "status:WORKING", "artifact", "status:COMPLETED"]. */
export function shapeOf(events: SseEvent[]): string[] {
  return events.map(({ data }) => {
    if (data.task) return `task:${data.task.status.state.replace("TASK_STATE_", "")}`;
    if (data.statusUpdate) return `status:${data.statusUpdate.status.state.replace("TASK_STATE_", "")}`;
    if (data.artifactUpdate) return "artifact";
    if (data.message) return "message";
    return "?";
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls GetTask until `until` holds (or fails after `timeoutMs`). */
export async function waitForTask(binding: Binding, id: string, until: (task: any) => boolean, timeoutMs = 8000): Promise<any> {
  const start = Date.now();
  for (;;) {
    const task = await ok(binding, "GetTask", { id });
    if (until(task)) return task;
    if (Date.now() - start > timeoutMs) throw new Error(`task ${id} stayed ${task.status.state}`);
    await sleep(50);
  }
}
