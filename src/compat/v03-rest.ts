/**
 * The 0.3 HTTP+JSON binding under `/v1/…` (reference §8): ProtoJSON bodies of the 0.3 proto (see
 * v03-proto.ts), bare `{code, message}` error bodies, SSE events carrying the 0.3 StreamResponse.
 * A request that names a 1.x A2A-Version is not a 0.3 one: these routes pass it on to the v1.0 routes
 * (where `v1` is a reserved tenant name).
 */
import type { RouterType } from "itty-router";
import type { RouteArgs } from "../bindings/rest";
import { A2AError, BARE_FRAMING, SSE_HEADERS, type StreamResponse } from "../protocol/index";
import * as ops from "../server/handler";
import type { CallContext } from "../server/handler";
import { isJsonMediaType, jsonResponse, readJsonBody } from "../server/http";
import { cardToProto } from "./v03-card";
import {
  createPushConfigV03, getPushConfigV03, isV03Request, listPushConfigsV03, v03Context, v03PushContext, withExtensionsHeader,
} from "./v03-context";
import { asA2AError, toV03Error, v03RestError } from "./v03-errors";
import {
  pushConfigFromProto, pushConfigToProto, sendRequestFromProto, sendResultToProto, streamResponseToProto, taskToProto,
} from "./v03-proto";
import type { RestCall } from "../bindings/rest";
import type { FinalRule, Json } from "./v03-shapes";
import { reencodeSse } from "./v03-stream";

/** A 0.3 route receives what a v1.0 route does. */
type V03Call = RestCall;

type Operation = (call: V03Call) => Promise<Response>;

const json = (body: unknown) => jsonResponse(body ?? {}, 200);

function sse(stream: ReadableStream<Uint8Array>, rule: FinalRule): Response {
  return new Response(reencodeSse(stream, {
    item: (event: StreamResponse) => JSON.stringify(streamResponseToProto(event, rule)),
    error: (error: A2AError) => JSON.stringify(toV03Error(error)),
  }), { headers: SSE_HEADERS });
}

/** The JSON body; empty and `null` (what some 0.3 clients send on body-less POSTs) count as `{}`. */
async function body(call: V03Call): Promise<Json> {
  const parsed = await readJsonBody(call.request, call.maxBodyBytes);
  if (parsed === undefined || parsed === null) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) throw new A2AError("InvalidParams", "The body must be a JSON object");
  return parsed as Json;
}

async function send(c: V03Call): Promise<{ cx: CallContext; request: Json }> {
  const request = sendRequestFromProto(await body(c));
  const configuration = request.configuration as Json | undefined;
  return { cx: configuration?.taskPushNotificationConfig ? v03PushContext(c.cx) : c.cx, request };
}

const subscribe: Operation = async (c) =>
  sse(await ops.subscribeToTask(c.cx, { id: c.path.id }, BARE_FRAMING, c.request.headers.get("last-event-id")), "subscribe");

/** [method, path under /v1, operation]; `[:]` is a literal colon for itty-router. */
const ROUTES: ["get" | "post" | "delete", string, Operation][] = [
  ["get", "/card", async (c) => json(cardToProto(await ops.getExtendedAgentCard(c.cx, {}), c.cx.baseUrl))],
  ["post", "/message[:]send", async (c) => {
    const s = await send(c);
    return json(sendResultToProto(await ops.sendMessage(s.cx, s.request)));
  }],
  ["post", "/message[:]stream", async (c) => {
    const s = await send(c);
    return sse(await ops.sendStreamingMessage(s.cx, s.request, BARE_FRAMING), "send");
  }],
  ["post", "/tasks/:id[:]cancel", async (c) => json(taskToProto(await ops.cancelTask(c.cx, { id: c.path.id, metadata: (await body(c)).metadata })))],
  ["get", "/tasks/:id[:]subscribe", subscribe],
  ["post", "/tasks/:id[:]subscribe", subscribe],
  ["get", "/tasks/:id", async (c) => {
    const historyLength = c.url.searchParams.get("historyLength") ?? c.url.searchParams.get("history_length") ?? undefined;
    return json(taskToProto(await ops.getTask(c.cx, { id: c.path.id, historyLength })));
  }],
  ["post", "/tasks/:taskId/pushNotificationConfigs", async (c) =>
    json(pushConfigToProto(await createPushConfigV03(c.cx, pushConfigFromProto(await body(c), c.path.taskId!))))],
  ["get", "/tasks/:taskId/pushNotificationConfigs", async (c) =>
    json({ configs: (await listPushConfigsV03(c.cx, c.path.taskId)).map(pushConfigToProto) })],
  ["get", "/tasks/:taskId/pushNotificationConfigs/:configId", async (c) =>
    json(pushConfigToProto(await getPushConfigV03(c.cx, c.path.taskId, c.path.configId)))],
  ["delete", "/tasks/:taskId/pushNotificationConfigs/:configId", async (c) => {
    await ops.deletePushConfig(c.cx, { taskId: c.path.taskId, id: c.path.configId });
    return json({});
  }],
];

/**
 * Registers the 0.3 routes. Call it before registerRestRoutes: the v1.0 `/{tenant}/…` routes would
 * otherwise take `/v1/…` for tenant "v1".
 */
export function registerRestV03Routes(router: RouterType<Request & { params: Record<string, string> }, RouteArgs>): void {
  for (const [method, path, operation] of ROUTES) {
    router[method](`/v1${path}`, (request, cx, maxBodyBytes) => runV03(request, cx, maxBodyBytes, operation));
  }
}

/** Undefined (the next route answers) when the request is not a 0.3 one. */
async function runV03(request: Request & { params: Record<string, string> }, cx: CallContext, maxBodyBytes: number, operation: Operation): Promise<Response | undefined> {
  const url = new URL(request.url);
  if (!isV03Request(request, url)) return undefined;
  let response: Response;
  try {
    const path: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.params)) path[key] = decodeURIComponent(value);
    ops.checkExtensions(cx);
    if (request.method === "POST") {
      const contentType = request.headers.get("content-type");
      const hasBody = contentType !== null || Number(request.headers.get("content-length") ?? 0) > 0;
      if (hasBody && !isJsonMediaType(contentType)) throw new A2AError("UnsupportedMediaType");
    }
    response = await operation({ request, url, path, cx: v03Context(cx), maxBodyBytes });
  } catch (error) {
    response = v03RestError(asA2AError(error));
  }
  return withExtensionsHeader(response, cx);
}
