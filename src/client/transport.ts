/**
 * What both bindings offer the client: a unary call and a stream, for the eleven operations by their
 * JSON-RPC names. Each binding only translates wire formats; results come back identical.
 */
import type { StreamResponse } from "../protocol/objects";
import type { Binding } from "./card";
import { A2AClientError, invalidResponse } from "./errors";
import { mediaType } from "./http";
import { readSse } from "./sse";

export type UnaryOperation =
  | "SendMessage"
  | "GetTask"
  | "ListTasks"
  | "CancelTask"
  | "CreateTaskPushNotificationConfig"
  | "GetTaskPushNotificationConfig"
  | "ListTaskPushNotificationConfigs"
  | "DeleteTaskPushNotificationConfig"
  | "GetExtendedAgentCard";

export type StreamOperation = "SendStreamingMessage" | "SubscribeToTask";

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers for this call only (service parameters such as `A2A-Extensions`). */
  headers?: Record<string, string>;
}

export interface StreamCallOptions extends CallOptions {
  /** SubscribeToTask: resume right after this SSE event id (the `Last-Event-ID` header). */
  lastEventId?: string;
}

/** One stream event and its SSE `id`, when the server sent one. */
export interface StreamItem {
  id?: string;
  response: StreamResponse;
}

export interface Transport {
  readonly binding: Binding;
  /** The request parameters without `tenant`: the transport adds the interface's tenant. */
  call(operation: UnaryOperation, params: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  /** Resolves once the stream has started; an error before that is thrown here. */
  stream(operation: StreamOperation, params: Record<string, unknown>, options?: StreamCallOptions): Promise<AsyncIterable<StreamItem>>;
}

const PAYLOADS = ["task", "message", "statusUpdate", "artifactUpdate"] as const;

/** A StreamResponse: exactly one of task | message | statusUpdate | artifactUpdate, an object. */
export function checkStreamResponse(value: unknown, httpStatus: number): StreamResponse {
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const present = PAYLOADS.filter((key) => record[key] !== undefined);
    if (present.length === 1 && typeof record[present[0]!] === "object" && record[present[0]!] !== null) return value as StreamResponse;
  }
  throw invalidResponse(`not a StreamResponse: ${JSON.stringify(value)?.slice(0, 200)}`, httpStatus);
}

export function isEventStream(response: Response): boolean {
  return mediaType(response) === "text/event-stream";
}

/**
 * The events of an SSE body. `decode` turns one `data` JSON into a StreamResponse (or throws its error);
 * `decodeError` turns the data of an `event: error` into the error to throw.
 */
export async function* streamItems(
  response: Response,
  decode: (data: unknown) => unknown,
  decodeError: (data: unknown) => A2AClientError,
): AsyncGenerator<StreamItem> {
  if (!response.body) return;
  for await (const event of readSse(response.body)) {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      throw invalidResponse(`an SSE event is not JSON: ${event.data.slice(0, 200)}`, response.status);
    }
    if (event.event === "error") throw decodeError(data);
    const item: StreamItem = { response: checkStreamResponse(decode(data), response.status) };
    if (event.id !== undefined && event.id !== "") item.id = event.id;
    yield item;
  }
}
