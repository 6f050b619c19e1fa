/**
 * The HTTP+JSON binding (reference §1): every route with and without the `/{tenant}` prefix,
 * custom-verb routes (`:send`, `:cancel`, `:subscribe`) registered before `/tasks/{id}`, and
 * `{"error":{code,status,message,details}}` bodies.
 */
import type { RouterType } from "itty-router";
import { A2AError, BARE_FRAMING, SSE_HEADERS, toRestError } from "../protocol/index";
import * as ops from "../server/handler";
import type { CallContext } from "../server/handler";
import { checkVersion, isJsonMediaType, jsonResponse, readJsonBody, restMediaType } from "../server/http";
import { checkRateLimit } from "../server/rate-limit";
import { asA2AError, retryAfterHeader } from "./jsonrpc";

/** What each REST handler receives, already decoded. */
export interface RestCall {
  request: Request;
  url: URL;
  path: Record<string, string>;
  cx: CallContext;
  maxBodyBytes: number;
}

type Operation = (call: RestCall) => Promise<Response>;
type Method = "get" | "post" | "delete";

const json = (call: RestCall, body: unknown) => jsonResponse(body ?? {}, 200, restMediaType(call.request));
const sse = (stream: ReadableStream<Uint8Array>) => new Response(stream, { headers: SSE_HEADERS });
const query = (call: RestCall) => Object.fromEntries(call.url.searchParams);

async function body(call: RestCall): Promise<Record<string, unknown>> {
  const parsed = await readJsonBody(call.request, call.maxBodyBytes);
  if (parsed === undefined || parsed === null) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) throw new A2AError("InvalidParams", "The body must be a JSON object");
  return parsed as Record<string, unknown>;
}

/** [method, path, operation]; the path uses `[:]` for a literal colon (itty would read `:send` as a parameter). */
const ROUTES: [Method, string, Operation, name: string][] = [
  ["post", "/message[:]send", async (c) => json(c, await ops.sendMessage(c.cx, await body(c))), "SendMessage"],
  ["post", "/message[:]stream", async (c) => sse(await ops.sendStreamingMessage(c.cx, await body(c), BARE_FRAMING)), "SendStreamingMessage"],
  ["post", "/tasks/:id[:]cancel", async (c) => json(c, await ops.cancelTask(c.cx, { ...(await body(c)), id: c.path.id })), "CancelTask"],
  ["get", "/tasks/:id[:]subscribe", async (c) => sse(await ops.subscribeToTask(c.cx, { id: c.path.id }, BARE_FRAMING, c.request.headers.get("last-event-id"))), "SubscribeToTask"],
  ["post", "/tasks/:id[:]subscribe", async (c) => sse(await ops.subscribeToTask(c.cx, { ...(await body(c)), id: c.path.id }, BARE_FRAMING, c.request.headers.get("last-event-id"))), "SubscribeToTask"],
  ["post", "/tasks/:taskId/pushNotificationConfigs", async (c) => json(c, await ops.createPushConfig(c.cx, { ...(await body(c)), taskId: c.path.taskId })), "CreateTaskPushNotificationConfig"],
  ["get", "/tasks/:taskId/pushNotificationConfigs", async (c) => json(c, await ops.listPushConfigs(c.cx, { ...query(c), taskId: c.path.taskId })), "ListTaskPushNotificationConfigs"],
  ["get", "/tasks/:taskId/pushNotificationConfigs/:id", async (c) => json(c, await ops.getPushConfig(c.cx, { taskId: c.path.taskId, id: c.path.id })), "GetTaskPushNotificationConfig"],
  ["delete", "/tasks/:taskId/pushNotificationConfigs/:id", async (c) => json(c, await ops.deletePushConfig(c.cx, { taskId: c.path.taskId, id: c.path.id })), "DeleteTaskPushNotificationConfig"],
  // a2a-edge extension: the delivery log of a task's push notifications.
  ["get", "/tasks/:taskId/pushDeliveries", async (c) => json(c, await ops.listPushDeliveries(c.cx, { ...query(c), taskId: c.path.taskId })), "ListTaskPushDeliveries"],
  ["get", "/tasks/:id", async (c) => json(c, await ops.getTask(c.cx, { ...query(c), id: c.path.id })), "GetTask"],
  ["get", "/tasks", async (c) => json(c, await ops.listTasks(c.cx, query(c))), "ListTasks"],
  ["get", "/extendedAgentCard", async (c) => json(c, await ops.getExtendedAgentCard(c.cx, {})), "GetExtendedAgentCard"],
];

/** Route arguments: the call context and the body limit, passed by the worker to router.fetch. */
export type RouteArgs = [cx: CallContext, maxBodyBytes: number];

export function registerRestRoutes(router: RouterType<Request & { params: Record<string, string> }, RouteArgs>): void {
  // Routes without a tenant first, so `/tasks/x` is GetTask and never ListTasks of tenant "tasks".
  for (const prefix of ["", "/:tenant"]) {
    for (const [method, path, operation, name] of ROUTES) {
      router[method](prefix + path, (request, cx, maxBodyBytes) => runRest(request, cx, maxBodyBytes, operation, name));
    }
  }
}

async function runRest(request: Request & { params: Record<string, string> }, cx: CallContext, maxBodyBytes: number, operation: Operation, name: string): Promise<Response> {
  cx.audit.operation = name;
  try {
    const url = new URL(request.url);
    const path: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.params)) path[key] = decodeURIComponent(value);
    const callCx: CallContext = path.tenant === undefined ? cx : { ...cx, pathTenant: path.tenant };
    if (path.id !== undefined || path.taskId !== undefined) cx.audit.taskId = path.taskId ?? path.id;
    if (path.tenant !== undefined) cx.audit.tenant = path.tenant;
    checkVersion(request, url);
    ops.checkExtensions(callCx);
    await checkRateLimit(cx.env, name, path.tenant ?? "", cx.caller.id);
    if (request.method === "POST") {
      const contentType = request.headers.get("content-type");
      // A body-less POST (`:cancel`, `:subscribe`) may omit Content-Type (reference §6).
      const hasBody = contentType !== null || Number(request.headers.get("content-length") ?? 0) > 0;
      if (hasBody && !isJsonMediaType(contentType)) throw new A2AError("UnsupportedMediaType");
    }
    return await operation({ request, url, path, cx: callCx, maxBodyBytes });
  } catch (error) {
    const failure = asA2AError(error);
    cx.audit.outcome = failure.spec.reason;
    return restError(request, failure);
  }
}

export function restError(request: Request, error: A2AError): Response {
  return jsonResponse(toRestError(error), error.spec.http, restMediaType(request), retryAfterHeader(error));
}
