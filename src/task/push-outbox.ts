/**
 * The push outbox of one task: which stored events become notifications, and handing them to the
 * queue. Rows are added in the event's own synchronous block; sending is I/O afterwards, and a row
 * whose send failed (or that the queue lost) is sent again from the task object's alarm.
 */
import { A2AError, isSettled, type StreamResponse, type TaskPushNotificationConfig } from "../protocol/index";
import { PushStore, type PushVersion } from "./push-store";
import type { StoredTask } from "./store";
import type { PushPayload } from "./task-types";

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

  /** Creates (or replaces) a config of the task, within the per-task cap. */
  create(stored: StoredTask, config: TaskPushNotificationConfig, agentUrl: string, maxConfigs: number, version: PushVersion): TaskPushNotificationConfig {
    const id = config.id || crypto.randomUUID();
    if (!this.store.has(id) && this.store.count() >= maxConfigs) {
      throw new A2AError("InvalidParams", `A task can have at most ${maxConfigs} push notification configs`, { taskId: stored.task.id, limit: String(maxConfigs) });
    }
    const saved = pushConfigOf(config, id, stored.task.id, stored.tenant);
    this.store.put(saved, agentUrl, version);
    return saved;
  }

  get(stored: StoredTask, id: string): TaskPushNotificationConfig {
    const found = this.store.get(id);
    // The spec reuses TaskNotFound for a missing config.
    if (!found) throw new A2AError("TaskNotFound", `Push notification config ${id} not found`, { taskId: stored.task.id, configId: id });
    return found.config;
  }

  /** What the consumer needs for one delivery; null once it is settled or its config is gone. */
  payload(stored: StoredTask, configId: string, seq: number, eventAt: (seq: number) => { seq: number; json: string } | undefined): PushPayload | null {
    const state = this.store.state(configId, seq);
    const found = this.store.get(configId);
    if (!found || (state !== "pending" && state !== "queued")) return null;
    const event = eventAt(seq);
    if (!event || event.seq !== seq) return null;
    const attempts = this.store.deliveries(configId).find((d) => d.seq === seq)?.attempts ?? 0;
    const payload: PushPayload = { config: found.config, owner: stored.owner, agentUrl: found.agentUrl, eventJson: event.json, attempts, version: found.version };
    // A 0.3 config gets the task itself (reference §8.1 #5).
    if (found.version === "0.3") payload.taskJson = JSON.stringify(stored.task);
    return payload;
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

/** The stored form of a config: its id, and the task and tenant it belongs to. */
export function pushConfigOf(config: TaskPushNotificationConfig, id: string, taskId: string, tenant: string): TaskPushNotificationConfig {
  const saved: TaskPushNotificationConfig = { id, taskId, url: config.url };
  if (tenant) saved.tenant = tenant;
  if (config.token) saved.token = config.token;
  if (config.authentication) saved.authentication = config.authentication;
  return saved;
}

