/**
 * A small per-isolate cache of finished tasks for GetTask. A terminal task never changes again, so
 * reading it needs no trip to its Durable Object; entries live at most a minute (a task purged after its
 * retention disappears from here within that minute) and the cache holds a bounded number of them.
 */
import { isTerminal, type Task } from "../protocol/index";

const MAX_ENTRIES = 2000;
const MAX_TTL_MS = 60_000;

/** Insertion-ordered, so the oldest entry is the first one: a simple LRU. */
const entries = new Map<string, { task: Task; at: number }>();

function key(tenant: string, caller: string, taskId: string): string {
  return `${tenant}\u0000${caller}\u0000${taskId}`;
}

/**
 * The cached full task (all history), if it is here and fresh. `retentionMs` bounds freshness, so a
 * task purged after a short retention is not served from here for long.
 */
export function cachedFinishedTask(tenant: string, caller: string, taskId: string, retentionMs: number): Task | undefined {
  const k = key(tenant, caller, taskId);
  const entry = entries.get(k);
  if (!entry) return undefined;
  if (Date.now() - entry.at > (retentionMs > 0 ? Math.min(MAX_TTL_MS, retentionMs) : MAX_TTL_MS)) {
    entries.delete(k);
    return undefined;
  }
  entries.delete(k); // refresh its place: most recently used last
  entries.set(k, entry);
  return entry.task;
}

/** Remembers a task read in full, if it is finished. */
export function rememberIfFinished(tenant: string, caller: string, task: Task): void {
  if (!isTerminal(task.status.state)) return;
  entries.set(key(tenant, caller, task.id), { task, at: Date.now() });
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
}
