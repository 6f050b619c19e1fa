/**
 * RegistryObject: one Durable Object per registry namespace, holding every entry in SQLite. Finding
 * needs filters across all entries and one global order for pagination, which a single SQLite database
 * answers with indexed lookups (skill, tag and media-type terms per skill) and a keyset page; sharding
 * would turn every find into a scatter-gather with merged cursors. See README "Agent registry" for sizes.
 */
import { DurableObject } from "cloudflare:workers";
import type { AgentCard } from "../protocol/index";
import type { RegistryEnv } from "./env";
import { indexCard, preferredInterface } from "./index-card";
import type { SignatureCheck } from "./signature";
import type { AgentEntry, AgentRecord } from "./types";

/** An entry as registration writes it. */
export interface NewEntry {
  id: string;
  cardUrl: string;
  card: AgentCard;
  etag: string | undefined;
  signature: SignatureCheck;
  jwksUrl: string | undefined;
  /** The JWKS given inline, as JSON. */
  jwks: string | undefined;
  registeredBy: string;
  latencyMs: number;
}

/** What the sweep needs to check one entry. */
export interface DueEntry {
  id: string;
  cardUrl: string;
  etag: string | undefined;
  jwksUrl: string | undefined;
  jwks: string | undefined;
}

export type CheckResult =
  | { id: string; ok: true; latencyMs: number; changed?: { card: AgentCard; etag: string | undefined; signature: SignatureCheck } }
  | { id: string; ok: false; error: string };

export interface HealthPolicy {
  unhealthyAfter: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** A find query as the object runs it (validated and decoded by the Worker). */
export interface StoredQuery {
  skill?: string;
  tag?: string;
  inputMode?: string;
  outputMode?: string;
  /** Lower-cased words that must all appear. */
  words: string[];
  includeUnhealthy: boolean;
  verifiedOnly: boolean;
  pageSize: number;
  /** Keyset cursor: the last (sort key, id) of the previous page. */
  after?: [string, string];
}

export interface StoredPage {
  agents: AgentEntry[];
  next?: [string, string];
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS agents (
  id TEXT PRIMARY KEY, card_url TEXT NOT NULL, card TEXT NOT NULL, sort_key TEXT NOT NULL, search TEXT NOT NULL,
  etag TEXT, sig_status TEXT NOT NULL, sig_kid TEXT, jwks_url TEXT, jwks TEXT, registered_by TEXT NOT NULL,
  registered_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, last_seen INTEGER NOT NULL, last_checked INTEGER NOT NULL,
  latency_ms INTEGER NOT NULL, healthy INTEGER NOT NULL, failures INTEGER NOT NULL, last_error TEXT, next_check INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS agents_by_name ON agents (sort_key, id);
CREATE INDEX IF NOT EXISTS agents_by_next_check ON agents (next_check);
CREATE TABLE IF NOT EXISTS skill_terms (
  kind TEXT NOT NULL, value TEXT NOT NULL, agent_id TEXT NOT NULL, skill_id TEXT NOT NULL,
  PRIMARY KEY (kind, value, agent_id, skill_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS skill_terms_by_agent ON skill_terms (agent_id);
`;

type Row = {
  id: string; card_url: string; card: string; sort_key: string; etag: string | null; sig_status: string; sig_kid: string | null;
  registered_at: number; updated_at: number; last_seen: number; last_checked: number; latency_ms: number; healthy: number;
  failures: number; last_error: string | null; next_check: number; matched: string | null;
};

const COLUMNS = "a.id, a.card_url, a.card, a.sort_key, a.etag, a.sig_status, a.sig_kid, a.registered_at, a.updated_at, a.last_seen, a.last_checked, a.latency_ms, a.healthy, a.failures, a.last_error, a.next_check";
const SEPARATOR = "\u001f";

export class RegistryObject extends DurableObject<RegistryEnv> {
  readonly #sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: RegistryEnv) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#sql.exec(SCHEMA);
  }

  /** Adds or replaces an entry (a re-registration keeps `registeredAt` and starts healthy). */
  upsert(entry: NewEntry): { created: boolean; record: AgentRecord } {
    const now = Date.now();
    const index = indexCard(entry.card);
    let created = false;
    this.ctx.storage.transactionSync(() => {
      const existing = this.#sql.exec<{ registered_at: number }>("SELECT registered_at FROM agents WHERE id = ?", entry.id).toArray()[0];
      created = existing === undefined;
      this.#sql.exec(
        `INSERT OR REPLACE INTO agents (id, card_url, card, sort_key, search, etag, sig_status, sig_kid, jwks_url, jwks, registered_by,
           registered_at, updated_at, last_seen, last_checked, latency_ms, healthy, failures, last_error, next_check)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, NULL, ?)`,
        entry.id, entry.cardUrl, JSON.stringify(entry.card), index.sortKey, index.search, entry.etag ?? null,
        entry.signature.status, entry.signature.kid ?? null, entry.jwksUrl ?? null, entry.jwks ?? null, entry.registeredBy,
        existing?.registered_at ?? now, now, now, now, Math.round(entry.latencyMs), now,
      );
      this.#writeTerms(entry.id, index.terms);
    });
    return { created, record: this.get(entry.id)! };
  }

  remove(id: string): boolean {
    let removed = false;
    this.ctx.storage.transactionSync(() => {
      removed = this.#sql.exec("DELETE FROM agents WHERE id = ?", id).rowsWritten > 0;
      this.#sql.exec("DELETE FROM skill_terms WHERE agent_id = ?", id);
    });
    return removed;
  }

  get(id: string): AgentRecord | undefined {
    const row = this.#sql.exec<Row>(`SELECT ${COLUMNS}, NULL AS matched FROM agents a WHERE a.id = ?`, id).toArray()[0];
    if (!row) return undefined;
    const entry = toEntry(row);
    return { ...entry, card: JSON.parse(row.card) as AgentCard };
  }

  count(): number {
    return this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM agents").one().n;
  }

  find(query: StoredQuery): StoredPage {
    const params: (string | number)[] = [];
    const filters: [kind: string, value: string][] = [];
    if (query.skill !== undefined) filters.push(["skill", query.skill]);
    if (query.tag !== undefined) filters.push(["tag", query.tag]);
    if (query.inputMode !== undefined) filters.push(["in", query.inputMode]);
    if (query.outputMode !== undefined) filters.push(["out", query.outputMode]);

    // The skills that meet every skill-level filter, per agent: one indexed lookup per filter.
    let source = "agents a";
    let matched = "NULL";
    if (filters.length) {
      const joins = filters.slice(1).map((_, i) =>
        `JOIN skill_terms t${i + 1} ON t${i + 1}.agent_id = t0.agent_id AND t${i + 1}.skill_id = t0.skill_id AND t${i + 1}.kind = ? AND t${i + 1}.value = ?`);
      source = `(SELECT t0.agent_id, group_concat(t0.skill_id, char(31)) AS skills FROM skill_terms t0 ${joins.join(" ")}
                 WHERE t0.kind = ? AND t0.value = ? GROUP BY t0.agent_id) m JOIN agents a ON a.id = m.agent_id`;
      for (const [kind, value] of filters.slice(1)) params.push(kind, value);
      params.push(filters[0]![0], filters[0]![1]);
      matched = "m.skills";
    }
    const where: string[] = [];
    if (!query.includeUnhealthy) where.push("a.healthy = 1");
    if (query.verifiedOnly) where.push("a.sig_status = 'verified'");
    for (const word of query.words) {
      where.push("a.search LIKE ? ESCAPE '\\'");
      params.push(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    if (query.after) {
      where.push("(a.sort_key, a.id) > (?, ?)");
      params.push(query.after[0], query.after[1]);
    }
    params.push(query.pageSize + 1);
    const rows = this.#sql.exec<Row>(
      `SELECT ${COLUMNS}, ${matched} AS matched FROM ${source} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY a.sort_key, a.id LIMIT ?`,
      ...params,
    ).toArray();
    const page = rows.slice(0, query.pageSize);
    const last = page.at(-1);
    return { agents: page.map(toEntry), ...(rows.length > query.pageSize && last ? { next: [last.sort_key, last.id] as [string, string] } : {}) };
  }

  /** Entries whose next check is due, the longest-waiting first. */
  due(now: number, limit: number): DueEntry[] {
    return this.#sql.exec<{ id: string; card_url: string; etag: string | null; jwks_url: string | null; jwks: string | null }>(
      "SELECT id, card_url, etag, jwks_url, jwks FROM agents WHERE next_check <= ? ORDER BY next_check, id LIMIT ?", now, limit,
    ).toArray().map((r) => ({ id: r.id, cardUrl: r.card_url, etag: r.etag ?? undefined, jwksUrl: r.jwks_url ?? undefined, jwks: r.jwks ?? undefined }));
  }

  /**
   * Records a sweep's results. Success: healthy, failures reset, checked again next sweep. Failure: one
   * more consecutive failure, unhealthy from `unhealthyAfter` on, and the next check backs off
   * exponentially (base × 2^(failures−1), capped). Entries removed meanwhile are skipped.
   */
  recordChecks(results: CheckResult[], policy: HealthPolicy): number {
    const now = Date.now();
    let updated = 0;
    this.ctx.storage.transactionSync(() => {
      for (const result of results) {
        if (result.ok) {
          updated += this.#sql.exec(
            `UPDATE agents SET last_seen = ?, last_checked = ?, latency_ms = ?, healthy = 1, failures = 0, last_error = NULL, next_check = ? WHERE id = ?`,
            now, now, Math.round(result.latencyMs), now, result.id,
          ).rowsWritten;
          if (result.changed) this.#replaceCard(result.id, result.changed, now);
        } else {
          const row = this.#sql.exec<{ failures: number; healthy: number }>("SELECT failures, healthy FROM agents WHERE id = ?", result.id).toArray()[0];
          if (!row) continue;
          const failures = row.failures + 1;
          const healthy = failures >= policy.unhealthyAfter ? 0 : row.healthy;
          const wait = Math.min(policy.backoffBaseMs * 2 ** (failures - 1), policy.backoffMaxMs);
          updated += this.#sql.exec(
            "UPDATE agents SET last_checked = ?, healthy = ?, failures = ?, last_error = ?, next_check = ? WHERE id = ?",
            now, healthy, failures, result.error.slice(0, 500), now + wait, result.id,
          ).rowsWritten;
        }
      }
    });
    return updated;
  }

  /** A card that changed since the last check: stored with its new ETag, signature status and terms. */
  #replaceCard(id: string, changed: { card: AgentCard; etag: string | undefined; signature: SignatureCheck }, now: number): void {
    if (this.#sql.exec("SELECT 1 FROM agents WHERE id = ?", id).toArray().length === 0) return;
    const index = indexCard(changed.card);
    this.#sql.exec(
      "UPDATE agents SET card = ?, sort_key = ?, search = ?, etag = ?, sig_status = ?, sig_kid = ?, updated_at = ? WHERE id = ?",
      JSON.stringify(changed.card), index.sortKey, index.search, changed.etag ?? null, changed.signature.status, changed.signature.kid ?? null, now, id,
    );
    this.#writeTerms(id, index.terms);
  }

  #writeTerms(id: string, terms: ReturnType<typeof indexCard>["terms"]): void {
    this.#sql.exec("DELETE FROM skill_terms WHERE agent_id = ?", id);
    for (const term of terms) {
      this.#sql.exec("INSERT OR IGNORE INTO skill_terms (kind, value, agent_id, skill_id) VALUES (?, ?, ?, ?)", term.kind, term.value, id, term.skillId);
    }
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

function toEntry(row: Row): AgentEntry {
  const card = JSON.parse(row.card) as AgentCard;
  const entry: AgentEntry = {
    id: row.id,
    cardUrl: row.card_url,
    name: card.name,
    description: card.description,
    version: card.version,
    capabilities: card.capabilities,
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills,
    matchedSkills: row.matched === null ? card.skills.map((s) => s.id) : row.matched.split(SEPARATOR),
    interface: preferredInterface(card),
    supportedInterfaces: card.supportedInterfaces,
    securitySchemes: Object.keys(card.securitySchemes ?? {}),
    authRequired: (card.securityRequirements?.length ?? 0) > 0,
    signature: row.sig_kid === null ? { status: row.sig_status as AgentEntry["signature"]["status"] } : { status: row.sig_status as AgentEntry["signature"]["status"], kid: row.sig_kid },
    health: {
      healthy: row.healthy === 1,
      lastSeen: iso(row.last_seen),
      lastChecked: iso(row.last_checked),
      latencyMs: row.latency_ms,
      failures: row.failures,
      nextCheck: iso(row.next_check),
      ...(row.last_error === null ? {} : { lastError: row.last_error }),
    },
    registeredAt: iso(row.registered_at),
    updatedAt: iso(row.updated_at),
  };
  if (card.provider) entry.provider = card.provider;
  if (card.documentationUrl) entry.documentationUrl = card.documentationUrl;
  if (card.iconUrl) entry.iconUrl = card.iconUrl;
  if (row.etag !== null) entry.etag = row.etag;
  return entry;
}
