/**
 * A2A 0.3 compatibility at the edge, v1.0 inside (reference §8): 0.3 requests are translated to the
 * v1.0 operations and their answers back, so everything behind the bindings speaks only v1.0.
 *
 * - JSON-RPC: method names with a `/` (v03-jsonrpc.ts), routed here by the JSON-RPC binding.
 * - HTTP+JSON: the `/v1/…` routes (v03-rest.ts), ProtoJSON of the 0.3 proto.
 * - The hybrid Agent Card, opt-in (v03-card.ts).
 * - Push configs registered over 0.3 receive the 0.3 payload, the Task (v03-context.ts, push consumer).
 */
export { handleJsonRpcV03 } from "./v03-jsonrpc";
export { registerRestV03Routes } from "./v03-rest";
export { toHybridCard, v03CardEnabled, withV03Card } from "./v03-card";
