/**
 * Re-encodes the task object's SSE bytes (bare v1.0 StreamResponse frames, `id: <seq>` on each) for a
 * 0.3 client, frame by frame. `id:` and `event:` lines are kept, so Last-Event-ID resumption works the
 * same; comments (the keep-alive) pass through untouched; `event: error` frames become 0.3 errors.
 */
import type { A2AError, StreamResponse } from "../protocol/index";
import { errorOfV1Payload } from "./v03-errors";

export interface FrameEncoder {
  /** The `data:` of one stream item. */
  item(event: StreamResponse): string;
  /** The `data:` of an error frame. */
  error(error: A2AError): string;
}

const encoder = new TextEncoder();

export function reencodeSse(source: ReadableStream<Uint8Array>, encode: FrameEncoder): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = "";
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        controller.enqueue(encoder.encode(reencodeFrame(frame, encode)));
      }
    },
    flush(controller) {
      buffer += decoder.decode();
      if (buffer.trim()) controller.enqueue(encoder.encode(reencodeFrame(buffer, encode)));
    },
  });
  return source.pipeThrough(transform);
}

/** One frame (without its blank line) in, one frame (with it) out. */
export function reencodeFrame(frame: string, encode: FrameEncoder): string {
  const head: string[] = [];
  const data: string[] = [];
  let event: string | undefined;
  for (const line of frame.split("\n")) {
    if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    else {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      head.push(line);
    }
  }
  if (!data.length) return `${frame}\n\n`;
  let out: string;
  try {
    const parsed = JSON.parse(data.join("\n")) as unknown;
    out = event === "error" ? encode.error(errorOfV1Payload(parsed)) : encode.item(parsed as StreamResponse);
  } catch {
    out = encode.error(errorOfV1Payload(null));
  }
  return `${head.length ? `${head.join("\n")}\n` : ""}data: ${out}\n\n`;
}
