/**
 * SSE fan-out inside a task object: one byte stream per subscriber, `id: <seq>` on every event,
 * a keep-alive comment so dead clients surface, and a cap on unread chunks so one slow reader is
 * dropped (it can resume with Last-Event-ID) instead of slowing the others or filling memory.
 *
 * Frames queued in one turn go out as one chunk per subscriber, written on the next microtask
 * (stream chunks, not bytes, are what fan-out pays for); subscribers that got the same frames share
 * the encoded chunk.
 */
import { sseFrame, type Framing } from "../protocol/sse";

const encoder = new TextEncoder();
const KEEPALIVE = encoder.encode(": keepalive\n\n");

interface Subscriber {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  framing: Framing;
  pending: number;
  endsAtInterrupt: boolean;
  /** Frames of this turn, not yet written. */
  batch: string[];
  /** The seq of the batch's first frame, and whether the batch holds only broadcast frames (then it can be shared). */
  batchSeq: number | undefined;
  batchShared: boolean;
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
  #flushScheduled = false;

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
    this.#subs.set(id, { writer: writable.getWriter(), framing, pending: 0, endsAtInterrupt: options.endsAtInterrupt ?? false, batch: [], batchSeq: undefined, batchShared: true });
    this.#heartbeat ??= setInterval(() => this.#writeAll(KEEPALIVE), this.#limits.heartbeatMs);
    return { id, readable };
  }

  send(id: number, seq: number | undefined, json: string): void {
    const sub = this.#subs.get(id);
    if (sub) this.#queue(sub, sseFrame(seq, sub.framing.prefix + json + sub.framing.suffix), seq, false);
  }

  /** Sends one event to everyone; subscribers that share a framing share the frame. */
  broadcast(seq: number | undefined, json: string): void {
    let frames: Map<string, string> | undefined;
    for (const sub of this.#subs.values()) {
      const key = sub.framing.prefix;
      let frame = frames?.get(key);
      if (frame === undefined) {
        frame = sseFrame(seq, sub.framing.prefix + json + sub.framing.suffix);
        (frames ??= new Map()).set(key, frame);
      }
      this.#queue(sub, frame, seq, true);
    }
  }

  #queue(sub: Subscriber, frame: string, seq: number | undefined, shared: boolean): void {
    if (sub.batch.length === 0) {
      sub.batchSeq = seq;
      sub.batchShared = shared;
    } else if (!shared) {
      sub.batchShared = false;
    }
    sub.batch.push(frame);
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      queueMicrotask(() => this.#flush());
    }
  }

  /** Writes every subscriber's batch as one chunk; identical batches are encoded once. */
  #flush(): void {
    this.#flushScheduled = false;
    let chunks: Map<string, Uint8Array> | undefined;
    for (const [id, sub] of this.#subs) {
      if (sub.batch.length === 0) continue;
      const key = sub.batchShared ? `${sub.framing.prefix}|${sub.batchSeq}|${sub.batch.length}` : undefined;
      let bytes = key === undefined ? undefined : chunks?.get(key);
      if (!bytes) {
        bytes = encoder.encode(sub.batch.length === 1 ? sub.batch[0]! : sub.batch.join(""));
        if (key !== undefined) (chunks ??= new Map()).set(key, bytes);
      }
      sub.batch = [];
      this.#write(id, sub, bytes);
    }
  }

  /** An `event: error` frame (reference §9 #28), then the stream ends. */
  fail(id: number, errorJson: (framing: Framing) => string): void {
    const sub = this.#subs.get(id);
    if (!sub) return;
    this.#queue(sub, sseFrame(undefined, errorJson(sub.framing), "error"), undefined, false);
    this.close(id);
  }

  /** Ends a stream after what was queued for it. */
  close(id: number): void {
    const sub = this.#subs.get(id);
    if (!sub) return;
    if (sub.batch.length) {
      this.#write(id, sub, encoder.encode(sub.batch.join("")));
      sub.batch = [];
    }
    if (this.#subs.get(id) !== sub) return; // dropped as too slow by that last write
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
