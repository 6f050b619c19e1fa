/**
 * A small SSE client on node:http (lighter than fetch, so the client steals less CPU from the server on a
 * small machine): it frames `id:` / `data:` / `event:` blocks and hands each event to the caller as it
 * arrives. Stream events are unwrapped from their JSON-RPC envelope (`result`) when there is one.
 */
import http from "node:http";

export interface SseEvent {
  id?: string;
  event?: string;
  /** The StreamResponse, already unwrapped from a JSON-RPC envelope. */
  data: Record<string, unknown>;
}

export interface StreamRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  agent: http.Agent;
}

export interface StreamHandlers {
  onEvent(event: SseEvent): void;
  onEnd(): void;
  onError(error: Error): void;
}

export function openStream(req: StreamRequest, handlers: StreamHandlers): http.ClientRequest {
  const request = http.request(req.url, { method: req.method, headers: req.headers, agent: req.agent }, (res) => {
    if (res.statusCode !== 200 || !String(res.headers["content-type"] ?? "").startsWith("text/event-stream")) {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => handlers.onError(new Error(`HTTP ${res.statusCode} ${res.headers["content-type"]}: ${text.slice(0, 300)}`)));
      return;
    }
    res.setEncoding("utf8");
    let buffer = "";
    res.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = parseBlock(block);
        if (event) handlers.onEvent(event);
      }
    });
    res.on("end", () => handlers.onEnd());
    res.on("error", (e) => handlers.onError(e));
  });
  request.on("error", (e) => handlers.onError(e));
  request.end(req.body);
  return request;
}

function parseBlock(block: string): SseEvent | undefined {
  let id: string | undefined;
  let event: string | undefined;
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("data:")) data += (data ? "\n" : "") + line.slice(line[5] === " " ? 6 : 5);
    else if (line.startsWith("id:")) id = line.slice(3).trim();
    else if (line.startsWith("event:")) event = line.slice(6).trim();
  }
  if (!data) return undefined; // a comment (keep-alive)
  const parsed = JSON.parse(data) as Record<string, unknown>;
  const unwrapped = (parsed.jsonrpc === "2.0" ? (parsed.result ?? { error: parsed.error }) : parsed) as Record<string, unknown>;
  const out: SseEvent = { data: unwrapped };
  if (id !== undefined) out.id = id;
  if (event !== undefined) out.event = event;
  return out;
}

/** Which StreamResponse member an event carries: task, message, statusUpdate or artifactUpdate. */
export function kindOf(event: SseEvent): string {
  return Object.keys(event.data).find((k) => k === "task" || k === "message" || k === "statusUpdate" || k === "artifactUpdate" || k === "error") ?? "unknown";
}

export function stateOf(event: SseEvent): string | undefined {
  const update = event.data.statusUpdate as { status?: { state?: string } } | undefined;
  const task = event.data.task as { status?: { state?: string } } | undefined;
  return update?.status?.state ?? task?.status?.state;
}

/** The text of an artifact chunk's first part (the echo agents number their chunks). */
export function chunkText(event: SseEvent): string | undefined {
  const update = event.data.artifactUpdate as { artifact?: { parts?: { text?: string }[] } } | undefined;
  return update?.artifact?.parts?.[0]?.text;
}
