/**
 * A2A 0.3 compatibility at the edge, v1.0 inside (reference §8): the 0.3 JSON-RPC methods and shapes
 * are translated to the v1.0 operations and back. Filled in by the 0.3 compatibility work.
 */
import { A2AError, toJsonRpcError } from "../protocol/index";
import type { CallContext } from "../server/handler";
import { jsonResponse } from "../server/http";

type JsonRpcId = string | number | null;

export async function handleJsonRpcV03(id: JsonRpcId, method: string, _params: unknown, _request: Request, _cx: CallContext): Promise<Response> {
  const error = new A2AError("MethodNotFound", `Method not found: ${method}`, { method });
  return jsonResponse({ jsonrpc: "2.0", id, error: toJsonRpcError(error) }, 200);
}
