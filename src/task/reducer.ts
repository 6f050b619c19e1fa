/**
 * Applies one StreamResponse to a Task, in place: the single definition of how events build a task.
 * The task object uses it for its state and the client for tasks it follows. It reports what changed
 * so that callers can persist exactly that.
 */
import type { Artifact, Message, StreamResponse, Task } from "../protocol/index";

export type TaskChange =
  | { kind: "snapshot" }
  | { kind: "status"; movedToHistory?: Message }
  | { kind: "artifact"; artifact: Artifact; appendedParts?: Artifact["parts"] }
  | { kind: "message"; message: Message };

export function applyEvent(task: Task, event: StreamResponse): TaskChange {
  if ("task" in event) {
    Object.assign(task, event.task);
    return { kind: "snapshot" };
  }
  if ("statusUpdate" in event) {
    // The previous status message becomes history once a newer status replaces it.
    const previous = task.status.message;
    if (previous) (task.history ??= []).push(previous);
    task.status = event.statusUpdate.status;
    return previous ? { kind: "status", movedToHistory: previous } : { kind: "status" };
  }
  if ("artifactUpdate" in event) {
    const update = event.artifactUpdate;
    const artifacts = (task.artifacts ??= []);
    const index = artifacts.findIndex((a) => a.artifactId === update.artifact.artifactId);
    const existing = index >= 0 ? artifacts[index] : undefined;
    if (update.append && existing) {
      const merged: Artifact = { ...existing, ...update.artifact, parts: existing.parts.concat(update.artifact.parts) };
      artifacts[index] = merged;
      return { kind: "artifact", artifact: merged, appendedParts: update.artifact.parts };
    }
    const fresh: Artifact = { ...update.artifact, parts: [...update.artifact.parts] };
    if (existing) artifacts[index] = fresh;
    else artifacts.push(fresh);
    return { kind: "artifact", artifact: fresh };
  }
  (task.history ??= []).push(event.message);
  return { kind: "message", message: event.message };
}

/**
 * A copy of the task with at most the last `historyLength` messages (unset = all, 0 = none). The arrays
 * are copied, so the copy stays as it is while the task goes on (events replace items, never edit them).
 */
export function withHistoryLength(task: Task, historyLength: number | undefined, includeArtifacts = true): Task {
  const out: Task = { id: task.id, contextId: task.contextId, status: task.status };
  if (includeArtifacts && task.artifacts?.length) out.artifacts = task.artifacts.slice();
  if (task.history?.length && historyLength !== 0) {
    out.history = historyLength === undefined ? task.history.slice() : task.history.slice(-historyLength);
  }
  if (task.metadata) out.metadata = task.metadata;
  return out;
}
