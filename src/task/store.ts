/**
 * The SQLite layout of one task object: the task row, its history, artifacts (parts stored as rows so
 * that appending a chunk costs one insert) and the event log, whose rowid is the event's `seq`.
 * Every method is synchronous: callers combine them in one block with no `await`, which makes the block atomic.
 */
import type { Artifact, Message, Task, TaskStatus } from "../protocol/index";
import type { TaskChange } from "./reducer";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS task (
  id TEXT PRIMARY KEY, tenant TEXT NOT NULL, owner TEXT NOT NULL, context_id TEXT NOT NULL,
  status TEXT NOT NULL, metadata TEXT, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS history (n INTEGER PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS artifacts (artifact_id TEXT PRIMARY KEY, ord INTEGER NOT NULL, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS artifact_parts (
  artifact_id TEXT NOT NULL, n INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (artifact_id, n));
CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, json TEXT NOT NULL);
`;

/** Who a task belongs to: every operation checks both. */
export interface TaskOwner {
  tenant: string;
  owner: string;
}

export interface StoredTask extends TaskOwner {
  task: Task;
  lastSeq: number;
  createdAt: number;
}

export class TaskStore {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    this.#sql.exec(SCHEMA);
  }

  load(): StoredTask | null {
    const row = this.#sql
      .exec<{ id: string; tenant: string; owner: string; context_id: string; status: string; metadata: string | null; created_at: number }>(
        "SELECT id, tenant, owner, context_id, status, metadata, created_at FROM task LIMIT 1",
      )
      .toArray()[0];
    if (!row) return null;
    const task: Task = { id: row.id, contextId: row.context_id, status: JSON.parse(row.status) as TaskStatus };
    const history = this.#sql.exec<{ json: string }>("SELECT json FROM history ORDER BY n").toArray();
    if (history.length) task.history = history.map((h) => JSON.parse(h.json) as Message);
    const artifacts = this.#sql.exec<{ artifact_id: string; json: string }>("SELECT artifact_id, json FROM artifacts ORDER BY ord").toArray();
    if (artifacts.length) {
      const parts = new Map<string, Artifact["parts"]>();
      for (const p of this.#sql.exec<{ artifact_id: string; json: string }>("SELECT artifact_id, json FROM artifact_parts ORDER BY artifact_id, n")) {
        let list = parts.get(p.artifact_id);
        if (!list) parts.set(p.artifact_id, (list = []));
        list.push(JSON.parse(p.json) as Artifact["parts"][number]);
      }
      task.artifacts = artifacts.map((a) => ({ ...(JSON.parse(a.json) as Omit<Artifact, "parts">), parts: parts.get(a.artifact_id) ?? [] }));
    }
    if (row.metadata) task.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
    const lastSeq = this.#sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events").one().seq ?? 0;
    return { task, tenant: row.tenant, owner: row.owner, lastSeq, createdAt: row.created_at };
  }

  /** Writes a new task: its row and its history so far. */
  create(task: Task, owner: TaskOwner, createdAt: number): void {
    this.#sql.exec(
      "INSERT INTO task (id, tenant, owner, context_id, status, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      task.id, owner.tenant, owner.owner, task.contextId ?? "", JSON.stringify(task.status),
      task.metadata ? JSON.stringify(task.metadata) : null, createdAt,
    );
    for (const m of task.history ?? []) this.appendHistory(m);
  }

  appendHistory(message: Message): void {
    this.#sql.exec("INSERT INTO history (json) VALUES (?)", JSON.stringify(message));
  }

  /** Appends to the event log; the returned rowid is the event's sequence number. */
  appendEvent(json: string): number {
    return this.#sql.exec<{ seq: number }>("INSERT INTO events (json) VALUES (?) RETURNING seq", json).one().seq;
  }

  eventsAfter(seq: number): { seq: number; json: string }[] {
    return this.#sql.exec<{ seq: number; json: string }>("SELECT seq, json FROM events WHERE seq > ? ORDER BY seq", seq).toArray();
  }

  /** Persists what one applied event changed (see applyEvent). */
  persist(task: Task, change: TaskChange): void {
    switch (change.kind) {
      case "status":
        this.#sql.exec("UPDATE task SET status = ?", JSON.stringify(task.status));
        if (change.movedToHistory) this.appendHistory(change.movedToHistory);
        return;
      case "message":
        this.appendHistory(change.message);
        return;
      case "artifact":
        this.#persistArtifact(task, change.artifact, change.appendedParts);
        return;
      case "snapshot":
        throw new Error("a stored task is changed by events, never replaced by a snapshot");
    }
  }

  #persistArtifact(task: Task, artifact: Artifact, appendedParts: Artifact["parts"] | undefined): void {
    const { parts, ...head } = artifact;
    const ord = task.artifacts?.indexOf(artifact) ?? 0;
    this.#sql.exec(
      "INSERT INTO artifacts (artifact_id, ord, json) VALUES (?, ?, ?) ON CONFLICT (artifact_id) DO UPDATE SET json = excluded.json",
      artifact.artifactId, ord, JSON.stringify(head),
    );
    let first = 0;
    if (appendedParts) first = parts.length - appendedParts.length;
    else this.#sql.exec("DELETE FROM artifact_parts WHERE artifact_id = ?", artifact.artifactId);
    for (let n = first; n < parts.length; n++) {
      this.#sql.exec("INSERT INTO artifact_parts (artifact_id, n, json) VALUES (?, ?, ?)", artifact.artifactId, n, JSON.stringify(parts[n]));
    }
  }
}
