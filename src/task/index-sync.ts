/**
 * Keeps the caller's TaskIndex current: after each status change the task object schedules a sync;
 * syncs are coalesced, retried with backoff, and a caller can wait until the index reflects everything.
 */
import type { IndexEntry } from "./index-object";

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
