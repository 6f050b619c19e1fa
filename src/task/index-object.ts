/**
 * TaskIndex: one Durable Object per (tenant, caller) that lists that caller's tasks for ListTasks.
 * Task objects upsert a summary after each status change; an update older than the stored one
 * (by the task's event seq) is ignored, so out-of-order delivery cannot roll a task back.
 */
import { DurableObject } from "cloudflare:workers";
import type { A2AEnv } from "../env";
import type { TaskState } from "../protocol/index";

export interface IndexEntry {
  /** Which index the entry belongs in. */
  tenant: string;
  owner: string;
  taskId: string;
  contextId: string;
  state: TaskState;
  /** Status timestamp in ms: the list order, newest first. */
  statusTime: number;
  seq: number;
  /** The task without history and artifacts, as JSON. */
  headJson: string;
}

export interface IndexQuery {
  contextId?: string;
  state?: TaskState;
  /** Inclusive lower bound on the status time, in ms. */
  statusTimeAfter?: number;
  pageSize: number;
  /** The cursor from a previous page, already decoded. */
  after?: { time: number; taskId: string };
}

export interface IndexPage {
  entries: { taskId: string; headJson: string }[];
  totalSize: number;
  /** The cursor of the next page, absent on the last one. */
  next?: { time: number; taskId: string };
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  task_id TEXT PRIMARY KEY, context_id TEXT NOT NULL, state TEXT NOT NULL,
  status_time INTEGER NOT NULL, seq INTEGER NOT NULL, head TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS tasks_by_time ON tasks (status_time DESC, task_id DESC);
CREATE INDEX IF NOT EXISTS tasks_by_context ON tasks (context_id, status_time DESC, task_id DESC);
CREATE INDEX IF NOT EXISTS tasks_by_state ON tasks (state);
`;

export class TaskIndexObject extends DurableObject<A2AEnv> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: A2AEnv) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#sql.exec(SCHEMA);
  }

  /** For the health check: the namespace answers. */
  ping(): "pong" {
    return "pong";
  }

  upsert(entry: IndexEntry): void {
    this.#sql.exec(
      `INSERT INTO tasks (task_id, context_id, state, status_time, seq, head) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (task_id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
         status_time = excluded.status_time, seq = excluded.seq, head = excluded.head
       WHERE excluded.seq >= tasks.seq`,
      entry.taskId, entry.contextId, entry.state, entry.statusTime, entry.seq, entry.headJson,
    );
  }

  /** A purged task leaves the list with it. */
  remove(taskId: string): void {
    this.#sql.exec("DELETE FROM tasks WHERE task_id = ?", taskId);
  }

  /** How many of this caller's tasks are not terminal (counting stops at `cap`). */
  activeCount(cap: number): number {
    return this.#sql.exec<{ n: number }>(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM tasks WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED') LIMIT ?)`,
      cap,
    ).one().n;
  }

  list(query: IndexQuery): IndexPage {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (query.contextId !== undefined) { where.push("context_id = ?"); args.push(query.contextId); }
    if (query.state !== undefined) { where.push("state = ?"); args.push(query.state); }
    if (query.statusTimeAfter !== undefined) { where.push("status_time >= ?"); args.push(query.statusTimeAfter); }
    const filter = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const totalSize = this.#sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM tasks ${filter}`, ...args).one().n;

    const pageWhere = [...where];
    const pageArgs = [...args];
    if (query.after) {
      pageWhere.push("(status_time < ? OR (status_time = ? AND task_id < ?))");
      pageArgs.push(query.after.time, query.after.time, query.after.taskId);
    }
    const rows = this.#sql
      .exec<{ task_id: string; status_time: number; head: string }>(
        `SELECT task_id, status_time, head FROM tasks ${pageWhere.length ? `WHERE ${pageWhere.join(" AND ")}` : ""}
         ORDER BY status_time DESC, task_id DESC LIMIT ?`,
        ...pageArgs, query.pageSize + 1,
      )
      .toArray();
    const page = rows.slice(0, query.pageSize);
    const last = page[page.length - 1];
    const result: IndexPage = { entries: page.map((r) => ({ taskId: r.task_id, headJson: r.head })), totalSize };
    if (rows.length > query.pageSize && last) result.next = { time: last.status_time, taskId: last.task_id };
    return result;
  }
}
