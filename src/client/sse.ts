/**
 * Reads a `text/event-stream` body into events with eventsource-parser (comments such as `: keepalive`
 * are skipped; an event cut off by the end of the body is dropped, as the SSE spec says). Leaving the
 * loop early cancels the body, so the connection is released.
 */
import { EventSourceParserStream, type EventSourceMessage } from "eventsource-parser/stream";

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

export type { EventSourceMessage };
