/**
 * The raw view's source: a `fetch` for the client that records every request, every response and every
 * SSE event (as the client receives them, before it parses them), with the person's secrets masked.
 */
import { createParser } from "eventsource-parser";
import type { Fetch } from "../../client/index";

export type RawKind = "request" | "response" | "event" | "end" | "error";

export interface RawEntry {
  /** Position in the log. */
  seq: number;
  /** Which request this belongs to (a response and its events share the request's number). */
  exchange: number;
  kind: RawKind;
  at: number;
  /** One line: method and path, status, event id… */
  summary: string;
  /** The whole thing, as JSON. */
  detail: unknown;
}

const MAX_ENTRIES = 2000;

/** The recorded exchanges; listeners hear of each new entry (`entry`) and of `clear`. */
export class RawLog extends EventTarget {
  readonly entries: RawEntry[] = [];
  #seq = 0;
  #exchange = 0;

  nextExchange(): number {
    return ++this.#exchange;
  }

  add(exchange: number, kind: RawKind, summary: string, detail: unknown): void {
    const entry: RawEntry = { seq: ++this.#seq, exchange, kind, at: Date.now(), summary, detail };
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    this.dispatchEvent(new CustomEvent<RawEntry>("entry", { detail: entry }));
  }

  clear(): void {
    this.entries.length = 0;
    this.dispatchEvent(new Event("clear"));
  }
}

/** Parses JSON text when it is JSON, else keeps the text. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function headerObject(headers: Headers, mask: (text: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = mask(value);
  });
  return out;
}

/**
 * Wraps `inner` so that everything passing through lands in `log`. `secrets()` lists the strings to
 * mask (the tokens and keys the person typed in), wherever they appear: headers, URL, bodies.
 */
export function recordingFetch(log: RawLog, secrets: () => string[], inner: Fetch = (input, init) => fetch(input, init)): Fetch {
  const mask = (text: string) => secrets().reduce((out, secret) => (secret ? out.split(secret).join("•••") : out), text);
  return async (input, init) => {
    const exchange = log.nextExchange();
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = typeof init?.body === "string" ? init.body : undefined;
    const path = mask(url.pathname + url.search);
    const rpcMethod = body && /"jsonrpc"/.test(body) ? (parsed(body) as { method?: unknown }).method : undefined;
    const label = `${request.method} ${path}${typeof rpcMethod === "string" ? ` ${rpcMethod}` : ""}`;
    log.add(exchange, "request", label, {
      method: request.method,
      url: mask(url.toString()),
      headers: headerObject(request.headers, mask),
      ...(body === undefined ? {} : { body: parsed(mask(body)) }),
    });
    const started = performance.now();
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      log.add(exchange, "error", `${label}: ${String(error)}`, { error: String(error) });
      throw error;
    }
    const ms = Math.round(performance.now() - started);
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const head = { status: response.status, statusText: response.statusText, headers: headerObject(response.headers, mask) };
    const summary = `${response.status} ${label} · ${type || "no body"} · ${ms} ms`;
    if (type !== "text/event-stream" || !response.body) {
      const text = await response.clone().text().catch(() => "");
      log.add(exchange, "response", summary, { ...head, ...(text ? { body: parsed(text) } : {}) });
      return response;
    }
    log.add(exchange, "response", summary, { ...head, body: "(event stream: each event follows)" });
    return new Response(recordEvents(response.body, log, exchange, label), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Passes the stream on unchanged while a parser of its own records each event. */
function recordEvents(body: ReadableStream<Uint8Array>, log: RawLog, exchange: number, path: string): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let count = 0;
  const parser = createParser({
    onEvent(event) {
      count++;
      const data = parsed(event.data);
      const kind = data && typeof data === "object" ? Object.keys((data as { result?: object }).result ?? data).join(",") : "";
      log.add(exchange, "event", `event ${event.id ?? "(no id)"} ${kind} · ${path}`, { id: event.id, event: event.event, data });
    },
    onComment(comment) {
      log.add(exchange, "event", `: ${comment.trim()} · ${path}`, { comment });
    },
  });
  const end = (how: string) => log.add(exchange, "end", `stream ${how} after ${count} events · ${path}`, { events: count, how });
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end("closed by the agent");
          controller.close();
          return;
        }
        parser.feed(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (error) {
        log.add(exchange, "error", `stream cut after ${count} events · ${path}: ${String(error)}`, { events: count, error: String(error) });
        controller.error(error);
      }
    },
    cancel(reason) {
      end("closed by the console");
      return reader.cancel(reason);
    },
  });
}
