/** The JSON-RPC 2.0 binding: one POST endpoint, `params.tenant`, SSE events wrapped in JSON-RPC responses. */
import type { Binding } from "./card";
import { A2AHttpError, fromJsonRpcError, fromRestError, invalidResponse, type A2AClientError } from "./errors";
import { isJson, readJson, type HttpSession } from "./http";
import {
  isEventStream, streamItems,
  type CallOptions, type StreamCallOptions, type StreamItem, type StreamOperation, type Transport, type UnaryOperation,
} from "./transport";

/** How operations look on the wire: v1.0 as they are; an older protocol version translates them. */
export interface JsonRpcDialect {
  /** The A2A-Version this dialect states (default: the client's, 1.0). */
  version?: string;
  request(operation: string, params: Record<string, unknown>): { method: string; params: Record<string, unknown> };
  result(operation: string, result: unknown): unknown;
  event(result: unknown): unknown;
}

const V1_DIALECT: JsonRpcDialect = {
  request: (method, params) => ({ method, params }),
  result: (_operation, result) => result,
  event: (result) => result,
};

export class JsonRpcTransport implements Transport {
  readonly binding: Binding = "JSONRPC";
  readonly #session: HttpSession;
  readonly #url: URL;
  readonly #tenant: string | undefined;
  readonly #dialect: JsonRpcDialect;
  #nextId = 1;

  constructor(session: HttpSession, url: string, tenant: string | undefined, dialect: JsonRpcDialect = V1_DIALECT) {
    this.#session = session;
    this.#url = new URL(url);
    this.#tenant = tenant;
    this.#dialect = dialect;
  }

  async call(operation: UnaryOperation, params: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const response = await this.#post(operation, params, "application/json", options);
    const body = await this.#envelope(response);
    if (!("result" in body)) throw invalidResponse("a JSON-RPC response without result or error", response.status);
    return this.#dialect.result(operation, body.result);
  }

  async stream(operation: StreamOperation, params: Record<string, unknown>, options: StreamCallOptions = {}): Promise<AsyncIterable<StreamItem>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
    const response = await this.#post(operation, params, "text/event-stream", { ...options, headers });
    if (!isEventStream(response)) {
      const body = await this.#envelope(response);
      throw invalidResponse(`expected an event stream, got ${JSON.stringify(body).slice(0, 200)}`, response.status);
    }
    return streamItems(response, (data) => this.#unwrap(data, response.status), (data) => this.#error(data, response.status));
  }

  #post(operation: string, params: Record<string, unknown>, accept: string, options: CallOptions): Promise<Response> {
    const wire = this.#dialect.request(operation, params);
    const withTenant = this.#tenant !== undefined && this.#tenant !== "" ? { ...wire.params, tenant: this.#tenant } : wire.params;
    const headers: Record<string, string> = { ...options.headers, "content-type": "application/json", accept };
    if (this.#dialect.version) headers["a2a-version"] = this.#dialect.version;
    const request: Parameters<HttpSession["send"]>[0] = {
      method: "POST",
      url: this.#url,
      body: JSON.stringify({ jsonrpc: "2.0", id: this.#nextId++, method: wire.method, params: withTenant }),
      headers,
    };
    if (options.signal) request.signal = options.signal;
    return this.#session.send(request);
  }

  /** The response envelope; a JSON-RPC error (or an HTTP-level A2A error) is thrown. */
  async #envelope(response: Response): Promise<Record<string, unknown>> {
    if (!isJson(response)) {
      const text = await response.text().catch(() => "");
      if (!response.ok) throw new A2AHttpError(response.status, response.statusText, text, response.url);
      throw invalidResponse(`expected JSON, got ${response.headers.get("content-type") ?? "no content type"}`, response.status);
    }
    const body = await readJson(response);
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw invalidResponse("the body is not a JSON-RPC response", response.status);
    const record = body as Record<string, unknown>;
    if (record.jsonrpc === "2.0" && record.error !== undefined) throw fromJsonRpcError(record.error, response.status);
    // Refused before JSON-RPC dispatch (a 401 from a gateway, say): an HTTP+JSON-style error, or none.
    if (!response.ok) throw fromRestError(body, response.status) ?? new A2AHttpError(response.status, response.statusText, JSON.stringify(body), response.url);
    if (record.error !== undefined) throw fromJsonRpcError(record.error, response.status);
    return record;
  }

  #unwrap(data: unknown, status: number): unknown {
    if (data === null || typeof data !== "object") throw invalidResponse("an SSE event is not a JSON-RPC response", status);
    const record = data as Record<string, unknown>;
    if (record.error !== undefined) throw fromJsonRpcError(record.error, status);
    return this.#dialect.event(record.result);
  }

  #error(data: unknown, status: number): A2AClientError {
    const record = (data ?? {}) as Record<string, unknown>;
    return fromJsonRpcError(record.error ?? data, status);
  }
}
