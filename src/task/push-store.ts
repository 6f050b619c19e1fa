/**
 * Push configs and the delivery outbox of one task, in the task object's SQLite. Outbox rows are
 * written in the same synchronous block that stores an event; they record every delivery's fate, so
 * they double as the task's delivery log. All methods are synchronous.
 */
import type { TaskPushNotificationConfig } from "../protocol/index";

/** The payload format a config receives: the v1.0 StreamResponse, or the bare Task of 0.3 (reference §8.1 #5). */
export type PushVersion = "1.0" | "0.3";


const SCHEMA = `
CREATE TABLE IF NOT EXISTS push_configs (
  id TEXT PRIMARY KEY, json TEXT NOT NULL, agent_url TEXT NOT NULL, created INTEGER NOT NULL, version TEXT);
CREATE TABLE IF NOT EXISTS outbox (
  config_id TEXT NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  touched INTEGER NOT NULL, outcome TEXT, PRIMARY KEY (config_id, seq));
CREATE INDEX IF NOT EXISTS outbox_by_state ON outbox (state, touched);
`;

/** pending: to enqueue; queued: in the queue; delivered / failed (permanent) / dead (attempts exhausted): final. */
export type DeliveryState = "pending" | "queued" | "delivered" | "failed" | "dead";

export interface Delivery {
  configId: string;
  seq: number;
  state: DeliveryState;
  attempts: number;
  /** When the state last changed, ms. */
  updated: number;
  outcome?: string;
}

export interface StoredPushConfig {
  config: TaskPushNotificationConfig;
  /** The agent's public URL when the config was made: the `iss` of its notifications. */
  agentUrl: string;
  /** The protocol version the config was registered with: it decides the payload format. */
  version: PushVersion;
}

/** A queued row with no word from the consumer for this long is enqueued again (the queue may have lost it). */
export const DEFAULT_REQUEUE_AFTER_MS = 15 * 60_000;

export class PushStore {
  readonly #sql: SqlStorage;
  readonly #requeueAfterMs: number;
  #ids: string[] | undefined;
  /** Whether the tables exist: most tasks never get a push config, so they are made with the first one. */
  #tables: boolean | undefined;

  constructor(sql: SqlStorage, requeueAfterMs = DEFAULT_REQUEUE_AFTER_MS) {
    this.#sql = sql;
    this.#requeueAfterMs = requeueAfterMs;
  }

  /** After the task's storage was wiped (purge): nothing is cached any more. */
  forget(): void {
    this.#tables = undefined;
    this.#ids = undefined;
  }

  #hasTables(): boolean {
    return (this.#tables ??= this.#sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'push_configs'").toArray().length > 0);
  }

  #makeTables(): void {
    if (this.#hasTables()) return;
    this.#sql.exec(SCHEMA);
    this.#tables = true;
  }

  count(): number {
    return this.#configIds().length;
  }

  /** Creates or replaces a config (ids are per task), with the protocol version it was registered in. */
  put(config: TaskPushNotificationConfig, agentUrl: string, version: PushVersion): void {
    this.#makeTables();
    this.#sql.exec(
      "INSERT INTO push_configs (id, json, agent_url, created, version) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json, agent_url = excluded.agent_url, version = excluded.version",
      config.id!, JSON.stringify(config), agentUrl, Date.now(), version === "1.0" ? null : version,
    );
    this.#ids = undefined;
  }

  has(id: string): boolean {
    return this.#configIds().includes(id);
  }

  get(id: string): StoredPushConfig | undefined {
    if (!this.#hasTables()) return undefined;
    const row = this.#sql.exec<{ json: string; agent_url: string; version: string | null }>("SELECT json, agent_url, version FROM push_configs WHERE id = ?", id).toArray()[0];
    return row ? { config: JSON.parse(row.json) as TaskPushNotificationConfig, agentUrl: row.agent_url, version: row.version === "0.3" ? "0.3" : "1.0" } : undefined;
  }

  list(offset: number, limit: number): { configs: TaskPushNotificationConfig[]; more: boolean } {
    if (!this.#hasTables()) return { configs: [], more: false };
    const rows = this.#sql.exec<{ json: string }>("SELECT json FROM push_configs ORDER BY created, id LIMIT ? OFFSET ?", limit + 1, offset).toArray();
    return { configs: rows.slice(0, limit).map((r) => JSON.parse(r.json) as TaskPushNotificationConfig), more: rows.length > limit };
  }

  delete(id: string): void {
    if (!this.#hasTables()) return;
    this.#sql.exec("DELETE FROM push_configs WHERE id = ?", id);
    this.#ids = undefined;
  }

  /** One pending delivery per config for the event `seq`; returns how many were added. */
  addDeliveries(seq: number): number {
    const ids = this.#configIds();
    const now = Date.now();
    for (const id of ids) this.#sql.exec("INSERT OR IGNORE INTO outbox (config_id, seq, state, touched) VALUES (?, ?, 'pending', ?)", id, seq, now);
    return ids.length;
  }

  /** Rows to hand to the queue: pending ones, and queued ones the consumer has been silent about for too long. */
  due(now: number, limit = 100): { configId: string; seq: number }[] {
    if (!this.#hasTables()) return [];
    return this.#sql
      .exec<{ config_id: string; seq: number }>(
        "SELECT config_id, seq FROM outbox WHERE state = 'pending' OR (state = 'queued' AND touched < ?) ORDER BY seq LIMIT ?",
        now - this.#requeueAfterMs, limit,
      )
      .toArray()
      .map((r) => ({ configId: r.config_id, seq: r.seq }));
  }

  /** When the outbox next needs attention (ms), if ever. */
  nextWake(retryPendingAfterMs: number): number | undefined {
    if (!this.#hasTables()) return undefined;
    const row = this.#sql
      .exec<{ pending: number | null; queued: number | null }>(
        "SELECT MIN(CASE WHEN state = 'pending' THEN touched END) AS pending, MIN(CASE WHEN state = 'queued' THEN touched END) AS queued FROM outbox WHERE state IN ('pending', 'queued')",
      )
      .one();
    const times: number[] = [];
    if (row.pending !== null) times.push(row.pending + retryPendingAfterMs);
    if (row.queued !== null) times.push(row.queued + this.#requeueAfterMs);
    return times.length ? Math.min(...times) : undefined;
  }

  markQueued(rows: { configId: string; seq: number }[], now: number): void {
    for (const row of rows) {
      this.#sql.exec("UPDATE outbox SET state = 'queued', touched = ? WHERE config_id = ? AND seq = ? AND state IN ('pending', 'queued')", now, row.configId, row.seq);
    }
  }

  /** Marks a pending row as tried, so the next retry waits. */
  touchPending(rows: { configId: string; seq: number }[], now: number): void {
    for (const row of rows) this.#sql.exec("UPDATE outbox SET touched = ? WHERE config_id = ? AND seq = ? AND state = 'pending'", now, row.configId, row.seq);
  }

  state(configId: string, seq: number): DeliveryState | undefined {
    if (!this.#hasTables()) return undefined;
    return this.#sql.exec<{ state: DeliveryState }>("SELECT state FROM outbox WHERE config_id = ? AND seq = ?", configId, seq).toArray()[0]?.state;
  }

  /** The consumer's report on one attempt; a final state is never overwritten. */
  record(configId: string, seq: number, state: DeliveryState, outcome: string): void {
    if (!this.#hasTables()) return;
    this.#sql.exec(
      "UPDATE outbox SET state = ?, outcome = ?, attempts = attempts + 1, touched = ? WHERE config_id = ? AND seq = ? AND state IN ('pending', 'queued')",
      state, outcome, Date.now(), configId, seq,
    );
  }

  deliveries(configId?: string): Delivery[] {
    if (!this.#hasTables()) return [];
    const rows = this.#sql
      .exec<{ config_id: string; seq: number; state: DeliveryState; attempts: number; touched: number; outcome: string | null }>(
        `SELECT config_id, seq, state, attempts, touched, outcome FROM outbox ${configId === undefined ? "" : "WHERE config_id = ?"} ORDER BY seq, config_id`,
        ...(configId === undefined ? [] : [configId]),
      )
      .toArray();
    return rows.map((r) => {
      const delivery: Delivery = { configId: r.config_id, seq: r.seq, state: r.state, attempts: r.attempts, updated: r.touched };
      if (r.outcome !== null) delivery.outcome = r.outcome;
      return delivery;
    });
  }

  #configIds(): string[] {
    if (!this.#hasTables()) return [];
    return (this.#ids ??= this.#sql.exec<{ id: string }>("SELECT id FROM push_configs ORDER BY created, id").toArray().map((r) => r.id));
  }
}
