/**
 * The HTTP+JSON binding: a route per operation relative to the interface URL, the tenant as a `/{tenant}`
 * path prefix, `{"error":{…}}` bodies, bare StreamResponses in SSE events.
 */
import type { Binding } from "./card";
import { A2AHttpError, fromRestError, invalidResponse } from "./errors";
import { isJson, readJson, type HttpSession } from "./http";
import {
  isEventStream, streamItems,
  type CallOptions, type StreamCallOptions, type StreamItem, type StreamOperation, type Transport, type UnaryOperation,
} from "./transport";

interface Route {
  method: "GET" | "POST" | "DELETE";
  path: string;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

const seg = (value: unknown) => encodeURIComponent(String(value ?? ""));

/** Everything but the named keys (the ones that travel in the path). */
function without(params: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) if (!keys.includes(key) && key !== "tenant" && value !== undefined) out[key] = value;
  return out;
}

function route(operation: UnaryOperation | StreamOperation, p: Record<string, unknown>): Route {
  switch (operation) {
    case "SendMessage": return { method: "POST", path: "/message:send", body: without(p) };
    case "SendStreamingMessage": return { method: "POST", path: "/message:stream", body: without(p) };
    case "GetTask": return { method: "GET", path: `/tasks/${seg(p.id)}`, query: without(p, "id") };
    case "ListTasks": return { method: "GET", path: "/tasks", query: without(p) };
    case "CancelTask": return { method: "POST", path: `/tasks/${seg(p.id)}:cancel`, body: without(p, "id") };
    case "SubscribeToTask": return { method: "POST", path: `/tasks/${seg(p.id)}:subscribe`, body: {} };
    case "CreateTaskPushNotificationConfig":
      return { method: "POST", path: `/tasks/${seg(p.taskId)}/pushNotificationConfigs`, body: without(p, "taskId") };
    case "GetTaskPushNotificationConfig":
      return { method: "GET", path: `/tasks/${seg(p.taskId)}/pushNotificationConfigs/${seg(p.id)}` };
    case "ListTaskPushNotificationConfigs":
      return { method: "GET", path: `/tasks/${seg(p.taskId)}/pushNotificationConfigs`, query: without(p, "taskId") };
    case "DeleteTaskPushNotificationConfig":
      return { method: "DELETE", path: `/tasks/${seg(p.taskId)}/pushNotificationConfigs/${seg(p.id)}` };
    case "GetExtendedAgentCard": return { method: "GET", path: "/extendedAgentCard" };
  }
}

export class RestTransport implements Transport {
  readonly binding: Binding = "HTTP+JSON";
  readonly #session: HttpSession;
  readonly #base: string;

  constructor(session: HttpSession, url: string, tenant: string | undefined) {
    this.#session = session;
    const base = url.replace(/\/+$/, "");
    this.#base = tenant ? `${base}/${encodeURIComponent(tenant)}` : base;
  }

  async call(operation: UnaryOperation, params: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const response = await this.#send(route(operation, params), "application/a2a+json, application/json", options);
    if (!response.ok) throw await this.#error(response);
    if (response.status === 204) return {};
    if (!isJson(response)) {
      const text = await response.text();
      if (text === "") return {};
      throw invalidResponse(`expected JSON, got ${response.headers.get("content-type") ?? "no content type"}`, response.status);
    }
    return (await readJson(response)) ?? {};
  }

  async stream(operation: StreamOperation, params: Record<string, unknown>, options: StreamCallOptions = {}): Promise<AsyncIterable<StreamItem>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
    const response = await this.#send(route(operation, params), "text/event-stream", { ...options, headers });
    if (!response.ok) throw await this.#error(response);
    if (!isEventStream(response)) {
      const text = await response.text().catch(() => "");
      throw invalidResponse(`expected an event stream, got ${response.headers.get("content-type")}: ${text.slice(0, 200)}`, response.status);
    }
    // An `event: error` ends the stream for good: it carries the status of the stream's response.
    return streamItems(response, (data) => data, (data) => fromRestError(data, response.status) ?? invalidResponse(`error event: ${JSON.stringify(data)}`, response.status));
  }

  #send(r: Route, accept: string, options: CallOptions): Promise<Response> {
    const url = new URL(this.#base + r.path);
    for (const [key, value] of Object.entries(r.query ?? {})) {
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else if (value !== null && typeof value === "object") url.searchParams.set(key, JSON.stringify(value));
      else url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { ...options.headers, accept };
    const request: Parameters<HttpSession["send"]>[0] = { method: r.method, url, headers };
    if (r.body !== undefined) {
      request.body = JSON.stringify(r.body);
      headers["content-type"] = "application/json";
    }
    if (options.signal) request.signal = options.signal;
    return this.#session.send(request);
  }

  async #error(response: Response): Promise<Error> {
    if (isJson(response)) {
      const body = await readJson(response).catch(() => undefined);
      const error = fromRestError(body, response.status);
      if (error) return error;
      return new A2AHttpError(response.status, response.statusText, JSON.stringify(body) ?? "", response.url);
    }
    return new A2AHttpError(response.status, response.statusText, await response.text().catch(() => ""), response.url);
  }
}
