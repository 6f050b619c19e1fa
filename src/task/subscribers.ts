/**
 * SSE fan-out inside a task object: one byte stream per subscriber, `id: <seq>` on every event,
 * a keep-alive comment so dead clients surface, and a cap on unread frames so one slow reader is
 * dropped (it can resume with Last-Event-ID) instead of slowing the others or filling memory.
 */
import { sseFrame, type Framing } from "../protocol/sse";

const encoder = new TextEncoder();
const KEEPALIVE = encoder.encode(": keepalive\n\n");

interface Subscriber {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  framing: Framing;
  pending: number;
  endsAtInterrupt: boolean;
}

export interface SubscriberLimits {
  heartbeatMs: number;
  /** Frames written but not yet read before a subscriber counts as stuck. */
  maxPending: number;
}

export class Subscribers {
  readonly #subs = new Map<number, Subscriber>();
  readonly #limits: SubscriberLimits;
  #nextId = 1;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(limits: SubscriberLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#subs.size;
  }

  /** A new subscriber; the caller writes its replay with `send` before any other event can run. */
  open(framing: Framing, options: { endsAtInterrupt?: boolean } = {}): { id: number; readable: ReadableStream<Uint8Array> } {
    const { readable, writable } = new IdentityTransformStream();
    const id = this.#nextId++;
    this.#subs.set(id, { writer: writable.getWriter(), framing, pending: 0, endsAtInterrupt: options.endsAtInterrupt ?? false });
    this.#heartbeat ??= setInterval(() => this.#writeAll(KEEPALIVE), this.#limits.heartbeatMs);
    return { id, readable };
  }

  send(id: number, seq: number | undefined, json: string): void {
    const sub = this.#subs.get(id);
    if (sub) this.#write(id, sub, encoder.encode(sseFrame(seq, sub.framing.prefix + json + sub.framing.suffix)));
  }

  /** Sends one event to everyone; subscribers that share a framing share the encoded bytes. */
  broadcast(seq: number | undefined, json: string): void {
    let cache: Map<string, Uint8Array> | undefined;
    for (const [id, sub] of this.#subs) {
      const key = sub.framing.prefix;
      let bytes = cache?.get(key);
      if (!bytes) {
        bytes = encoder.encode(sseFrame(seq, sub.framing.prefix + json + sub.framing.suffix));
        (cache ??= new Map()).set(key, bytes);
      }
      this.#write(id, sub, bytes);
    }
  }

  /** An `event: error` frame (reference §9 #28), then the stream ends. */
  fail(id: number, errorJson: (framing: Framing) => string): void {
    const sub = this.#subs.get(id);
    if (!sub) return;
    this.#write(id, sub, encoder.encode(sseFrame(undefined, errorJson(sub.framing), "error")));
    this.close(id);
  }

  close(id: number): void {
    const sub = this.#subs.get(id);
    if (!sub) return;
    this.#subs.delete(id);
    sub.writer.close().catch(() => {});
    this.#stopHeartbeatIfIdle();
  }

  /** Ends the streams that end at an interrupted state (INPUT_REQUIRED). */
  closeInterruptible(): void {
    for (const [id, sub] of [...this.#subs]) if (sub.endsAtInterrupt) this.close(id);
  }

  closeAll(): void {
    for (const id of [...this.#subs.keys()]) this.close(id);
  }

  #writeAll(bytes: Uint8Array): void {
    for (const [id, sub] of this.#subs) this.#write(id, sub, bytes);
  }

  #write(id: number, sub: Subscriber, bytes: Uint8Array): void {
    if (sub.pending >= this.#limits.maxPending) return this.#drop(id, sub);
    sub.pending++;
    sub.writer.write(bytes).then(
      () => { sub.pending--; },
      () => this.#drop(id, sub),
    );
  }

  #drop(id: number, sub: Subscriber): void {
    if (this.#subs.get(id) !== sub) return;
    this.#subs.delete(id);
    sub.writer.abort("subscriber too slow or gone").catch(() => {});
    this.#stopHeartbeatIfIdle();
  }

  #stopHeartbeatIfIdle(): void {
    if (this.#subs.size === 0 && this.#heartbeat !== undefined) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
    }
  }
}
