/**
 * The push outbox of one task: which stored events become notifications, and handing them to the
 * queue. Rows are added in the event's own synchronous block; sending is I/O afterwards, and a row
 * whose send failed (or that the queue lost) is sent again from the task object's alarm.
 */
import { isSettled, type StreamResponse } from "../protocol/index";
import { PushStore } from "./push-store";

/** The queue message: a pointer to the event, never the payload (queue messages are capped at 128 KB). */
export interface PushPointer {
  tenant: string;
  taskId: string;
  configId: string;
  seq: number;
}

/** Which events are pushed: every status and artifact update, or only final and interrupted states. */
export type PushEvents = "all" | "final";

const RESEND_AFTER_MS = 5_000;

export class PushOutbox {
  readonly store: PushStore;
  readonly #queue: Queue<PushPointer> | undefined;
  readonly #events: PushEvents;
  #flight: Promise<void> | undefined;

  constructor(sql: SqlStorage, queue: Queue<PushPointer> | undefined, events: PushEvents, requeueAfterMs?: number) {
    this.store = new PushStore(sql, requeueAfterMs);
    this.#queue = queue;
    this.#events = events;
  }

  /** Called in the block that stored the event; returns true when deliveries were added. */
  eventStored(seq: number, event: StreamResponse): boolean {
    if (!this.#queue || !this.#pushes(event)) return false;
    return this.store.addDeliveries(seq) > 0;
  }

  #pushes(event: StreamResponse): boolean {
    if ("statusUpdate" in event) return this.#events === "all" || isSettled(event.statusUpdate.status.state);
    return "artifactUpdate" in event && this.#events === "all";
  }

  /** Sends every due row to the queue; concurrent calls share one flight. */
  flush(tenant: string, taskId: string): Promise<void> {
    this.#flight ??= this.#send(tenant, taskId).finally(() => (this.#flight = undefined));
    return this.#flight;
  }

  async #send(tenant: string, taskId: string): Promise<void> {
    const queue = this.#queue;
    if (!queue) return;
    for (;;) {
      const rows = this.store.due(Date.now());
      if (!rows.length) return;
      try {
        await queue.sendBatch(rows.map((row) => ({ body: { tenant, taskId, configId: row.configId, seq: row.seq } })));
        this.store.markQueued(rows, Date.now());
      } catch (error) {
        // The rows stay pending; the alarm tries again.
        console.error(`push enqueue failed for task ${taskId}:`, error);
        this.store.touchPending(rows, Date.now());
        return;
      }
    }
  }

  /** When the alarm should next look at the outbox. */
  nextWake(): number | undefined {
    return this.#queue ? this.store.nextWake(RESEND_AFTER_MS) : undefined;
  }
}
