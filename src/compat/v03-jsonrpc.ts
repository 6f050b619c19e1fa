/**
 * The 0.3 JSON-RPC methods (`message/send`, `tasks/get`, …) on the one JSON-RPC endpoint: params in
 * their 0.3 shapes are translated to v1.0, the v1.0 operation runs, and its result comes back bare
 * with `kind` (streams: one JSON-RPC response per event, `final: true` on the last status update).
 * Errors are plain 0.3 JSON-RPC errors, with HTTP 200.
 */
import { A2AError, BARE_FRAMING, SSE_HEADERS } from "../protocol/index";
import * as ops from "../server/handler";
import type { CallContext } from "../server/handler";
import { jsonResponse } from "../server/http";
import { cardToV03 } from "./v03-card";
import {
  createPushConfigV03, getPushConfigV03, isV03Request, listPushConfigsV03, v03Context, v03PushContext, withExtensionsHeader,
} from "./v03-context";
import { asA2AError, toV03Error } from "./v03-errors";
import {
  pushConfigFromV03, pushConfigToV03, sendParamsFromV03, sendResultToV03, streamResponseToV03, taskToV03,
  type FinalRule, type Json,
} from "./v03-shapes";
import { reencodeSse } from "./v03-stream";

type JsonRpcId = string | number | null;

interface Call {
  cx: CallContext;
  params: Json;
  request: Request;
  id: JsonRpcId;
}

/** A unary result, or a stream of v1.0 frames with the rule for `final`. */
type Outcome = { result: unknown } | { stream: ReadableStream<Uint8Array>; rule: FinalRule };

const hasPushConfig = (params: Json) => {
  const configuration = params.configuration as Json | undefined;
  return configuration?.pushNotificationConfig != null;
};
const sendContext = (call: Call) => (hasPushConfig(call.params) ? v03PushContext(call.cx) : call.cx);

const METHODS: Record<string, (call: Call) => Promise<Outcome>> = {
  "message/send": async (c) => ({ result: sendResultToV03(await ops.sendMessage(sendContext(c), sendParamsFromV03(c.params))) }),
  "message/stream": async (c) => ({ stream: await ops.sendStreamingMessage(sendContext(c), sendParamsFromV03(c.params), BARE_FRAMING), rule: "send" }),
  "tasks/get": async (c) => ({ result: taskToV03(await ops.getTask(c.cx, { id: c.params.id, historyLength: c.params.historyLength })) }),
  "tasks/cancel": async (c) => ({ result: taskToV03(await ops.cancelTask(c.cx, { id: c.params.id, metadata: c.params.metadata })) }),
  "tasks/resubscribe": async (c) => ({
    stream: await ops.subscribeToTask(c.cx, { id: c.params.id }, BARE_FRAMING, c.request.headers.get("last-event-id")),
    rule: "subscribe",
  }),
  "tasks/pushNotificationConfig/set": async (c) => ({ result: pushConfigToV03(await createPushConfigV03(c.cx, pushConfigFromV03(c.params))) }),
  "tasks/pushNotificationConfig/get": async (c) => ({ result: pushConfigToV03(await getPushConfigV03(c.cx, c.params.id, c.params.pushNotificationConfigId)) }),
  "tasks/pushNotificationConfig/list": async (c) => ({ result: (await listPushConfigsV03(c.cx, c.params.id)).map(pushConfigToV03) }),
  "tasks/pushNotificationConfig/delete": async (c) => {
    await ops.deletePushConfig(c.cx, { taskId: c.params.id, id: c.params.pushNotificationConfigId });
    return { result: null };
  },
  "agent/getAuthenticatedExtendedCard": async (c) => ({ result: cardToV03(await ops.getExtendedAgentCard(c.cx, {}), c.cx.baseUrl) }),
};

/** Called by the JSON-RPC binding for every method name with a `/` (the envelope is already checked). */
export async function handleJsonRpcV03(id: JsonRpcId, method: string, params: unknown, request: Request, cx: CallContext): Promise<Response> {
  let response: Response;
  try {
    if (!isV03Request(request, new URL(request.url))) {
      throw new A2AError("VersionNotSupported", `${method} is an A2A 0.3 method; this request names another A2A-Version`);
    }
    ops.checkExtensions(cx);
    const run = METHODS[method];
    if (!run) throw new A2AError("MethodNotFound", `Method not found: ${method}`, { method });
    const outcome = await run({ cx: v03Context(cx), params: (params ?? {}) as Json, request, id });
    response = "stream" in outcome
      ? new Response(reencodeSse(outcome.stream, jsonRpcFrames(id, outcome.rule)), { headers: SSE_HEADERS })
      : jsonResponse({ jsonrpc: "2.0", id, result: outcome.result ?? null }, 200);
  } catch (error) {
    response = jsonResponse({ jsonrpc: "2.0", id, error: toV03Error(asA2AError(error)) }, 200);
  }
  return withExtensionsHeader(response, cx);
}

function jsonRpcFrames(id: JsonRpcId, rule: FinalRule) {
  return {
    item: (event: Parameters<typeof streamResponseToV03>[0]) => JSON.stringify({ jsonrpc: "2.0", id, result: streamResponseToV03(event, rule) }),
    error: (error: A2AError) => JSON.stringify({ jsonrpc: "2.0", id, error: toV03Error(error) }),
  };
}
