/**
 * Keeps the caller's TaskIndex current: after each status change the task object schedules a sync;
 * syncs are coalesced, retried with backoff, and a caller can wait until the index reflects everything.
 */
import type { IndexEntry } from "./index-object";
import type { StoredTask } from "./store";

/** The index's summary of a task: its head (no history, no artifacts) and what lists filter on. */
export function indexEntryOf(stored: StoredTask | null | undefined): IndexEntry | undefined {
  if (!stored) return undefined;
  const { history: _h, artifacts: _a, ...head } = stored.task;
  return {
    tenant: stored.tenant, owner: stored.owner,
    taskId: stored.task.id, contextId: stored.task.contextId ?? "", state: stored.task.status.state,
    statusTime: Date.parse(stored.task.status.timestamp ?? "") || stored.createdAt, seq: stored.lastSeq,
    headJson: JSON.stringify(head),
  };
}

export class IndexSync {
  readonly #send: (entry: IndexEntry) => Promise<void>;
  readonly #entry: () => IndexEntry | undefined;
  #dirty = false;
  #flight: Promise<void> | undefined;

  /** `entry` reads the task's summary at send time; `send` upserts it into the index. */
  constructor(entry: () => IndexEntry | undefined, send: (entry: IndexEntry) => Promise<void>) {
    this.#entry = entry;
    this.#send = send;
  }

  schedule(): void {
    this.#dirty = true;
    this.#flight ??= this.#flush();
  }

  /** Resolves once the index reflects every change scheduled so far (or retries ran out). */
  synced(): Promise<void> {
    return this.#flight ?? Promise.resolve();
  }

  async #flush(): Promise<void> {
    try {
      for (let attempt = 0; this.#dirty && attempt < 5; ) {
        this.#dirty = false;
        const entry = this.#entry();
        if (!entry) break;
        try {
          await this.#send(entry);
          attempt = 0;
        } catch (error) {
          console.error(`index update failed for task ${entry.taskId}:`, error);
          this.#dirty = true;
          attempt++;
          await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        }
      }
    } finally {
      this.#flight = undefined;
    }
  }
}
