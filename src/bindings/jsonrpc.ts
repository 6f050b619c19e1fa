/** The JSON-RPC 2.0 binding: one POST endpoint, method names = the operation names (reference §1). */
import { A2AError, jsonRpcFraming, SSE_HEADERS, toJsonRpcError } from "../protocol/index";
import * as ops from "../server/handler";
import type { CallContext } from "../server/handler";
import { handleJsonRpcV03 } from "../compat/v03";
import { checkRateLimit } from "../server/rate-limit";
import { checkVersion, isJsonMediaType, jsonResponse, readJsonBody, requestedVersion } from "../server/http";

type JsonRpcId = string | number | null;
type Unary = (cx: CallContext, params: unknown) => Promise<unknown>;
type Streaming = (cx: CallContext, params: unknown, request: Request, id: JsonRpcId) => Promise<ReadableStream<Uint8Array>>;

const UNARY: Record<string, Unary> = {
  SendMessage: ops.sendMessage,
  GetTask: ops.getTask,
  ListTasks: ops.listTasks,
  CancelTask: ops.cancelTask,
  CreateTaskPushNotificationConfig: ops.createPushConfig,
  GetTaskPushNotificationConfig: ops.getPushConfig,
  ListTaskPushNotificationConfigs: ops.listPushConfigs,
  DeleteTaskPushNotificationConfig: ops.deletePushConfig,
  /** a2a-edge extension: the delivery log of a task's push notifications. */
  ListTaskPushDeliveries: ops.listPushDeliveries,
  GetExtendedAgentCard: ops.getExtendedAgentCard,
};

const STREAMING: Record<string, Streaming> = {
  SendStreamingMessage: (cx, params, _request, id) => ops.sendStreamingMessage(cx, params, jsonRpcFraming(id)),
  SubscribeToTask: (cx, params, request, id) => ops.subscribeToTask(cx, params, jsonRpcFraming(id), request.headers.get("last-event-id")),
};

export async function handleJsonRpc(request: Request, url: URL, cx: CallContext, maxBodyBytes: number): Promise<Response> {
  let id: JsonRpcId = null;
  try {
    const contentType = request.headers.get("content-type");
    if (contentType !== null && !isJsonMediaType(contentType)) throw new A2AError("UnsupportedMediaType");
    const body = await readJsonBody(request, maxBodyBytes);
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new A2AError("InvalidRequest", "The body must be one JSON-RPC 2.0 request object");
    }
    const call = body as Record<string, unknown>;
    if (isValidId(call.id)) id = call.id;
    if (call.jsonrpc !== "2.0") throw new A2AError("InvalidRequest", 'jsonrpc must be "2.0"');
    if (!("id" in call) || !isValidId(call.id)) throw new A2AError("InvalidRequest", "id must be a string, a number or null");
    if (typeof call.method !== "string") throw new A2AError("InvalidRequest", "method must be a string");
    cx.audit.operation = call.method;
    const params = call.params;
    if (params !== undefined && (params === null || typeof params !== "object" || Array.isArray(params))) {
      throw new A2AError("InvalidParams", "params must be an object");
    }
    if (call.method.includes("/")) {
      // A 0.3 method name (`message/send`): served by the 0.3 translation, unless the client said it speaks 1.x.
      if (requestedVersion(request, url)?.startsWith("1")) throw new A2AError("MethodNotFound", `Method not found: ${call.method} (a 0.3 method; this request says A2A-Version 1.x)`, { method: call.method });
      return await handleJsonRpcV03(id, call.method, params, request, cx);
    }
    checkVersion(request, url);
    ops.checkExtensions(cx);
    const fields = params as { tenant?: unknown; id?: unknown; taskId?: unknown } | undefined;
    const tenant = fields?.tenant;
    const taskId = fields?.taskId ?? fields?.id;
    if (typeof taskId === "string") cx.audit.taskId = taskId;
    if (typeof tenant === "string") cx.audit.tenant = tenant;
    await checkRateLimit(cx.env, call.method, typeof tenant === "string" ? tenant : "", cx.caller.id);

    const unary = UNARY[call.method];
    if (unary) return jsonResponse({ jsonrpc: "2.0", id, result: (await unary(cx, params)) ?? null }, 200);
    const streaming = STREAMING[call.method];
    if (streaming) return new Response(await streaming(cx, params, request, id), { headers: SSE_HEADERS });
    throw new A2AError("MethodNotFound", `Method not found: ${call.method}`, { method: call.method });
  } catch (error) {
    const failure = asA2AError(error);
    cx.audit.outcome = failure.spec.reason;
    return jsonResponse({ jsonrpc: "2.0", id, error: toJsonRpcError(failure) }, 200, "application/json", retryAfterHeader(failure));
  }
}

/** A rate-limited refusal says when to come back. */
export function retryAfterHeader(error: A2AError): Record<string, string> | undefined {
  const seconds = error.metadata?.retryAfterSeconds;
  return seconds ? { "retry-after": seconds } : undefined;
}

function isValidId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value)) || value === null;
}

export function asA2AError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  console.error("unexpected error:", error);
  return new A2AError("Internal");
}
