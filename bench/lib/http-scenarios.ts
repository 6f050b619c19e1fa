/**
 * Request/response scenarios under closed-loop load: S1 (SendMessage, JSON-RPC), S2 (SendMessage,
 * HTTP+JSON), S3 (GetTask) and S7 (ListTasks, first and middle page of 10,000 tasks).
 * Every target gets a warm-up, then the targets alternate round by round; medians are reported.
 */
import type { BenchConfig } from "./config.ts";
import { load, type HttpRequestSpec, type LoadResult } from "./load.ts";
import { peakRss } from "./procs.ts";
import { median, round } from "./stats.ts";
import { rpc, sendEcho, type Target, type TargetName } from "./targets.ts";

export interface ThroughputSummary {
  rps: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  rounds: { rps: number | null; p50Ms: number; p99Ms: number }[];
  /** Requests that failed (connection errors, non-2xx, or a body that failed the check): must be 0. */
  failed: number;
  requests: number;
  peakRssBytes?: number;
}

/** One spec per target; a target without one is skipped. */
export type SpecFor = (target: Target) => HttpRequestSpec | undefined;

export async function throughput(targets: Target[], specFor: SpecFor, cfg: BenchConfig, opts: { trackRss?: boolean; label: string }): Promise<Partial<Record<TargetName, ThroughputSummary>>> {
  const active = targets.filter((t) => specFor(t));
  for (const t of active) await load(t.base, specFor(t)!, { connections: cfg.connections, seconds: cfg.warmupSeconds });
  const runs = new Map<TargetName, LoadResult[]>();
  const peaks = new Map<TargetName, number>();
  for (let r = 0; r < cfg.rounds; r++) {
    for (const t of active) {
      const run = () => load(t.base, specFor(t)!, { connections: cfg.connections, seconds: cfg.seconds });
      let result: LoadResult;
      if (opts.trackRss) {
        const measured = await peakRss(t.proc.pid, run);
        result = measured.result;
        if (measured.peakBytes !== undefined) peaks.set(t.name, Math.max(peaks.get(t.name) ?? 0, measured.peakBytes));
      } else {
        result = await run();
      }
      (runs.get(t.name) ?? runs.set(t.name, []).get(t.name)!).push(result);
      process.stderr.write(`  ${opts.label} round ${r + 1}/${cfg.rounds} ${t.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${failedOf(result) ? `, ${failedOf(result)} FAILED` : ""}\n`);
    }
  }
  const out: Partial<Record<TargetName, ThroughputSummary>> = {};
  for (const [name, results] of runs) {
    const summary: ThroughputSummary = {
      rps: round(median(results.map((x) => x.rps)), 0),
      p50Ms: round(median(results.map((x) => x.p50Ms))),
      p99Ms: round(median(results.map((x) => x.p99Ms))),
      rounds: results.map((x) => ({ rps: round(x.rps, 0), p50Ms: x.p50Ms, p99Ms: x.p99Ms })),
      failed: results.reduce((n, x) => n + failedOf(x), 0),
      requests: results.reduce((n, x) => n + x.requests, 0),
    };
    const peak = peaks.get(name);
    if (peak !== undefined) summary.peakRssBytes = peak;
    out[name] = summary;
  }
  return out;
}

function failedOf(r: LoadResult): number {
  return r.errors + r.non2xx + r.mismatches;
}

const completed = (body: string) => body.includes('"TASK_STATE_COMPLETED"') && !body.includes('"error":');
const anyJson = (body: string) => body.startsWith("{");

const sendBody = (tenant?: string) =>
  JSON.stringify({
    jsonrpc: "2.0", id: 1, method: "SendMessage",
    params: { message: { messageId: "[<id>]", role: "ROLE_USER", parts: [{ text: "hello" }] }, ...(tenant ? { tenant } : {}) },
  });

/** S1: blocking SendMessage over JSON-RPC; every request creates a task that completes. */
export const s1: SpecFor = (t) => ({ method: "POST", path: "/", body: sendBody(), verify: t.name === "ceiling" ? anyJson : completed });

/** S2: the same over HTTP+JSON. */
export const s2: SpecFor = (t) => ({
  method: "POST",
  path: "/message:send",
  body: JSON.stringify({ message: { messageId: "[<id>]", role: "ROLE_USER", parts: [{ text: "hello" }] } }),
  verify: t.name === "ceiling" ? anyJson : completed,
});

/** S3: GetTask of one existing (completed) task, over JSON-RPC. */
export async function s3Specs(targets: Target[]): Promise<SpecFor> {
  const ids = new Map<TargetName, string>();
  for (const t of targets) if (t.name !== "ceiling") ids.set(t.name, await sendEcho(t.base));
  return (t) => {
    const id = ids.get(t.name) ?? "00000000-0000-4000-8000-000000000001";
    return {
      method: "POST",
      path: "/",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id } }),
      verify: t.name === "ceiling" ? anyJson : (body) => completed(body) && body.includes(id),
    };
  };
}

export const S7_TENANT = "bench-s7";

export interface S7Setup {
  first: SpecFor;
  middle: SpecFor;
  seed: Partial<Record<TargetName, { tasks: number; seconds: number | null; tasksPerSec: number | null }>>;
  middlePage: number;
}

/**
 * S7 setup: `cfg.listTasks` tasks for one caller (in a tenant of their own), created through the real
 * SendMessage path under the same load generator, then the cursor of the middle page found by paging.
 */
export async function s7Setup(targets: Target[], cfg: BenchConfig): Promise<S7Setup> {
  const listBody = (pageToken?: string) =>
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: { tenant: S7_TENANT, pageSize: cfg.pageSize, historyLength: 0, ...(pageToken ? { pageToken } : {}) } });
  const seed: S7Setup["seed"] = {};
  const tokens = new Map<TargetName, string>();
  const pages = Math.ceil(cfg.listTasks / cfg.pageSize);
  const middlePage = Math.max(2, Math.floor(pages / 2) + 1); // page 101 of 200
  for (const t of targets) {
    if (t.name === "ceiling") continue;
    const started = performance.now();
    const r = await load(t.base, { method: "POST", path: "/", body: sendBody(S7_TENANT), verify: completed }, { connections: cfg.connections, amount: cfg.listTasks });
    const seconds = (performance.now() - started) / 1000;
    if (r.errors + r.non2xx + r.mismatches > 0) throw new Error(`S7 seeding on ${t.name}: ${r.errors} errors, ${r.non2xx} non-2xx, ${r.mismatches} bad answers`);
    seed[t.name] = { tasks: cfg.listTasks, seconds: round(seconds), tasksPerSec: round(cfg.listTasks / seconds, 0) };
    let page = await rpc<{ tasks: unknown[]; nextPageToken: string; totalSize?: number }>(t.base, "ListTasks", { tenant: S7_TENANT, pageSize: cfg.pageSize, historyLength: 0 });
    if (page.totalSize !== undefined && page.totalSize !== cfg.listTasks) throw new Error(`S7 on ${t.name}: totalSize ${page.totalSize}, expected ${cfg.listTasks}`);
    // After this loop `page` is page middlePage - 1, whose cursor fetches the middle page.
    for (let n = 2; n < middlePage; n++) {
      page = await rpc(t.base, "ListTasks", { tenant: S7_TENANT, pageSize: cfg.pageSize, historyLength: 0, pageToken: page.nextPageToken });
      if (page.tasks.length !== cfg.pageSize || !page.nextPageToken) throw new Error(`S7 on ${t.name}: page ${n} has ${page.tasks.length} tasks`);
    }
    tokens.set(t.name, page.nextPageToken);
  }
  const fullPage = (body: string) => body.includes('"result":') && body.includes('"tasks":[{') && !body.includes('"error":');
  return {
    seed,
    middlePage,
    first: (t) => ({ method: "POST", path: "/", body: listBody(), verify: t.name === "ceiling" ? anyJson : fullPage }),
    middle: (t) => ({ method: "POST", path: "/", body: listBody(tokens.get(t.name) ?? "x"), verify: t.name === "ceiling" ? anyJson : fullPage }),
  };
}
