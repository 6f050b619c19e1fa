/**
 * The ceiling: a bare Worker on the same workerd binary that answers every request with a constant body —
 * no routing, no validation, no Durable Object, no storage. What raw workerd can do on this machine.
 *  - any path: a constant JSON-RPC result shaped like S1's answer (a completed echo task, ~750 bytes);
 *  - /sse: a constant 20-event SSE stream (for S4).
 */
const ids = { task: "00000000-0000-4000-8000-000000000001", context: "00000000-0000-4000-8000-000000000002" };
const message = (id, role, text) => ({ messageId: id, role, parts: [{ text }], taskId: ids.task, contextId: ids.context });
const JSON_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  result: {
    task: {
      id: ids.task,
      contextId: ids.context,
      status: { state: "TASK_STATE_COMPLETED", timestamp: "2026-01-01T00:00:00.000Z", message: message("00000000-0000-4000-8000-000000000003", "ROLE_AGENT", "hello") },
      history: [message("00000000-0000-4000-8000-000000000004", "ROLE_USER", "hello")],
    },
  },
});
const SSE_BODY = Array.from({ length: 20 }, (_, i) =>
  `id: ${i + 1}\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { artifactUpdate: { taskId: ids.task, contextId: ids.context, artifact: { artifactId: "a", parts: [{ text: String(i) }] } } } })}\n\n`,
).join("");
const JSON_HEADERS = { "content-type": "application/json" };
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

export default {
  fetch(request) {
    if (request.url.endsWith("/sse")) return new Response(SSE_BODY, { headers: SSE_HEADERS });
    return new Response(JSON_BODY, { headers: JSON_HEADERS });
  },
};
