/** Server-Sent Events framing shared by the task object (which writes) and the bindings (which answer). */

/** What wraps each StreamResponse JSON in a `data:` line: nothing for HTTP+JSON, a JSON-RPC envelope for JSON-RPC. */
export interface Framing {
  prefix: string;
  suffix: string;
}

export const BARE_FRAMING: Framing = { prefix: "", suffix: "" };

/** JSON-RPC stream events are responses that echo the request id (reference §6). */
export function jsonRpcFraming(id: string | number | null): Framing {
  return { prefix: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`, suffix: "}" };
}

/** One SSE event; the data is single-line JSON, so one `data:` line suffices. */
export function sseFrame(seq: number | undefined, data: string, event?: string): string {
  let frame = "";
  if (event) frame += `event: ${event}\n`;
  if (seq !== undefined) frame += `id: ${seq}\n`;
  return `${frame}data: ${data}\n\n`;
}

export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};
