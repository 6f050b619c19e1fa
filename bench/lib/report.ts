/** The results: ratios, targets, the JSON file and the table (markdown, printed and saved). */
import type { FanoutSummary, StreamSummary } from "./stream-scenarios.ts";
import type { ThroughputSummary } from "./http-scenarios.ts";
import type { PushSummary } from "./push-scenario.ts";
import { round } from "./stats.ts";

type Per<T> = { ours?: T; oursDisk?: T; peer?: T; ceiling?: T };

export interface Results {
  machine: Record<string, unknown>;
  config: Record<string, unknown>;
  scenarios: Record<string, Record<string, unknown>>;
  targets: { scenario: string; target: string; value: string; met: boolean | null }[];
}

const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? round(a / b) : null);
const n = (v: number | null | undefined, digits = 0) => (v === null || v === undefined ? "—" : v.toLocaleString("en-US", { maximumFractionDigits: digits }));
const ms = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `${n(v, v < 10 ? 2 : 1)} ms`);
const mb = (v: number | undefined) => (v === undefined ? "—" : `${n(v / 2 ** 20)} MiB`);
const x = (v: number | null) => (v === null ? "—" : `${v.toFixed(2)}×`);

export function throughputEntry(title: string, per: Per<ThroughputSummary>): Record<string, unknown> {
  return {
    title,
    metric: "throughput, req/s (ratio = ours / peer, higher is better)",
    ...per,
    ratio: ratio(per.ours?.rps, per.peer?.rps),
    ratioToCeiling: ratio(per.ours?.rps, per.ceiling?.rps),
    ...(per.oursDisk ? { ratioOursDiskToPeer: ratio(per.oursDisk.rps, per.peer?.rps) } : {}),
  };
}

export function streamEntry(title: string, per: Per<StreamSummary>): Record<string, unknown> {
  return {
    title,
    metric: "time to first event, p50 (ratio = peer / ours, higher is better)",
    ...per,
    ratio: ratio(per.peer?.ttfeP50Ms, per.ours?.ttfeP50Ms),
    ratioToCeiling: ratio(per.ceiling?.ttfeP50Ms, per.ours?.ttfeP50Ms),
    ratioLastEvent: ratio(per.peer?.ttleP50Ms, per.ours?.ttleP50Ms),
  };
}

export function fanoutEntry(title: string, per: Per<FanoutSummary>): Record<string, unknown> {
  return { title, metric: "events delivered per second (ratio = ours / peer, higher is better)", ...per, ratio: ratio(per.ours?.eventsPerSec, per.peer?.eventsPerSec) };
}

export function pushEntry(title: string, per: Per<PushSummary>): Record<string, unknown> {
  return {
    title,
    metric: "distinct notifications delivered per second, first SendMessage to last arrival (ratio = ours / peer, higher is better)",
    note: "a2a-edge runs under wrangler dev here (Queues exist only in Miniflare): a proxy in front of it, and a local queue broker that hands the consumer one batch (at most 10 messages) at a time; slower than the raw workerd of the other scenarios and than production Queues",
    ...per,
    ratio: ratio(per.ours?.deliveriesPerSec, per.peer?.deliveriesPerSec),
  };
}

export function listEntry(title: string, first: Per<ThroughputSummary>, middle: Per<ThroughputSummary>, seed: Record<string, unknown>, middlePage: number, pages: number): Record<string, unknown> {
  const side = (k: "ours" | "peer" | "ceiling") => (first[k] || middle[k] ? { firstPage: first[k], middlePage: middle[k], seed: seed[k] } : undefined);
  return {
    title,
    metric: `ListTasks of page 1 and page ${middlePage} of ${pages}, req/s (ratio = ours / peer on the middle page, higher is better)`,
    ours: side("ours"),
    peer: side("peer"),
    ceiling: side("ceiling"),
    ratio: ratio(middle.ours?.rps, middle.peer?.rps),
    ratios: { firstPage: ratio(first.ours?.rps, first.peer?.rps), middlePage: ratio(middle.ours?.rps, middle.peer?.rps) },
    ratiosToCeiling: { firstPage: ratio(first.ours?.rps, first.ceiling?.rps), middlePage: ratio(middle.ours?.rps, middle.ceiling?.rps) },
  };
}

export function checkTargets(s: Results["scenarios"]): Results["targets"] {
  const out: Results["targets"] = [];
  for (const key of ["S1", "S2", "S3"]) {
    const e = s[key];
    if (!e) continue;
    const r = e.ratio as number | null;
    out.push({ scenario: key, target: "throughput ≥ 1.0× the peer's", value: x(r), met: r === null ? null : r >= 1 });
  }
  if (s.S4) {
    const ours = (s.S4.ours as StreamSummary | undefined)?.ttfeP50Ms;
    const peer = (s.S4.peer as StreamSummary | undefined)?.ttfeP50Ms;
    out.push({ scenario: "S4", target: "time to first event no worse than the peer's", value: `${ms(ours)} vs ${ms(peer)}`, met: ours == null || peer == null ? null : ours <= peer });
  }
  if (s.S5) {
    const ours = s.S5.ours as FanoutSummary | undefined;
    out.push({
      scenario: "S5",
      target: `all ${n(ours?.expectedDeliveries)} deliveries, in order, at ≥ 20,000 events/s`,
      value: ours ? `${ours.allInOrder ? "all in order" : "NOT all in order"}, ${n(ours.eventsPerSec)} events/s` : "—",
      met: ours ? ours.allInOrder && (ours.eventsPerSec ?? 0) >= 20_000 : null,
    });
  }
  if (s.S6 && s.S6.ours) {
    const ours = s.S6.ours as PushSummary;
    out.push({
      scenario: "S6",
      target: `every one of ${n(ours.notifications)} notifications delivered, every signature valid`,
      value: `${ours.allDelivered ? "all delivered" : "NOT all delivered"}, ${ours.allSigned ? "all signatures valid" : "NOT all signatures valid"}, ${n(ours.duplicates)} duplicates, ${n(ours.deliveriesPerSec)} deliveries/s`,
      met: ours.allDelivered && ours.allSigned === true,
    });
  }
  return out;
}

function tputCell(t: ThroughputSummary | undefined): string {
  if (!t) return "—";
  return `${n(t.rps)} req/s · p50 ${ms(t.p50Ms)} · p99 ${ms(t.p99Ms)}${t.failed ? ` · **${t.failed} failed**` : ""}`;
}

export function table(results: Results): string {
  const s = results.scenarios;
  const rows: string[][] = [];
  const tput = (label: string, e: Record<string, unknown> | undefined) => {
    if (!e) return;
    rows.push([label, tputCell(e.ours as ThroughputSummary), tputCell(e.peer as ThroughputSummary), tputCell(e.ceiling as ThroughputSummary), x(e.ratio as number | null), x(e.ratioToCeiling as number | null)]);
  };
  tput("S1 SendMessage, JSON-RPC (new task each)", s.S1);
  if (s.S1?.oursDisk) {
    const e = s.S1;
    rows.push(["S1 … a2a-edge's Durable Objects on the VM disk (fsync)", tputCell(e.oursDisk as ThroughputSummary), tputCell(e.peer as ThroughputSummary), tputCell(e.ceiling as ThroughputSummary), x(e.ratioOursDiskToPeer as number | null), x(ratio((e.oursDisk as ThroughputSummary).rps, (e.ceiling as ThroughputSummary | undefined)?.rps))]);
  }
  tput("S2 SendMessage, HTTP+JSON (new task each)", s.S2);
  tput("S3 GetTask, JSON-RPC", s.S3);
  if (s.S4) {
    const e = s.S4 as Per<StreamSummary> & Record<string, unknown>;
    const first = (t?: StreamSummary) => (t ? `p50 ${ms(t.ttfeP50Ms)} · p99 ${ms(t.ttfeP99Ms)}${t.failed ? ` · **${t.failed} failed**` : ""}` : "—");
    const last = (t?: StreamSummary) => (t ? `p50 ${ms(t.ttleP50Ms)} · p99 ${ms(t.ttleP99Ms)} · ${n(t.streamsPerSec)} streams/s` : "—");
    rows.push([`S4 stream of ${e.ours?.eventsPerStream ?? 20} events: first event`, first(e.ours), first(e.peer), first(e.ceiling), x(e.ratio as number | null), x(e.ratioToCeiling as number | null)]);
    rows.push([`S4 … last event`, last(e.ours), last(e.peer), last(e.ceiling), x(e.ratioLastEvent as number | null), "—"]);
  }
  if (s.S5) {
    const e = s.S5 as Per<FanoutSummary> & Record<string, unknown>;
    const cell = (t?: FanoutSummary) => (t ? `${n(t.eventsPerSec)} events/s · all ${n(t.expectedDeliveries)} in ${ms(t.timeToAllMs)} · ${t.allInOrder ? "all in order ✓" : "**NOT all in order**"}` : "—");
    rows.push([`S5 fan-out: ${e.ours?.subscribers ?? ""} subscribers × ${e.ours?.events ?? ""} events`, cell(e.ours), cell(e.peer), "n/a", x(e.ratio as number | null), "—"]);
  }
  if (s.S6?.ours || s.S6?.peer) {
    const e = s.S6 as Per<PushSummary> & Record<string, unknown>;
    const rate = (t?: PushSummary) => {
      if (!t) return "—";
      const signed = t.allSigned === null ? "unsigned" : t.allSigned ? "all signed ✓" : "**NOT all signed**";
      return `${n(t.deliveriesPerSec)} deliveries/s · ${t.allDelivered ? "all delivered" : "**NOT all delivered**"} · ${n(t.duplicates)} duplicates · ${signed}`;
    };
    const lat = (t?: PushSummary) => (t ? `p50 ${ms(t.latencyP50Ms)} · p99 ${ms(t.latencyP99Ms)} · one task at a time: p50 ${ms(t.idleLatencyP50Ms)}` : "—");
    const count = e.ours?.notifications ?? e.peer?.notifications;
    rows.push([`S6 push: ${n(count)} webhook deliveries (a2a-edge under wrangler dev, signed)`, rate(e.ours), rate(e.peer), "n/a", x(e.ratio as number | null), "—"]);
    rows.push([`S6 … latency, event made → webhook (during the burst)`, lat(e.ours), lat(e.peer), "n/a", x(ratio(e.peer?.latencyP50Ms, e.ours?.latencyP50Ms)), "—"]);
  } else rows.push(["S6 push: 1,000 signed webhook deliveries", "not measured in this run", "—", "—", "—", "—"]);
  if (s.S7) {
    const e = s.S7 as Record<string, { firstPage?: ThroughputSummary; middlePage?: ThroughputSummary } | undefined> & { ratios: Record<string, number | null>; ratiosToCeiling: Record<string, number | null> };
    const pages = String(s.S7.metric).match(/page (\d+) of (\d+)/);
    rows.push([`S7 ListTasks, ${n(Number(results.config.listTasks))} tasks: page 1`, tputCell(e.ours?.firstPage), tputCell(e.peer?.firstPage), tputCell(e.ceiling?.firstPage), x(e.ratios.firstPage ?? null), x(e.ratiosToCeiling.firstPage ?? null)]);
    rows.push([`S7 … page ${pages?.[1]} of ${pages?.[2]}`, tputCell(e.ours?.middlePage), tputCell(e.peer?.middlePage), tputCell(e.ceiling?.middlePage), x(e.ratios.middlePage ?? null), x(e.ratiosToCeiling.middlePage ?? null)]);
  }
  const rss = (label: string, key: "S1" | "S5") => {
    const e = s[key] as Per<{ peakRssBytes?: number }> | undefined;
    if (!e) return;
    const ours = e.ours?.peakRssBytes;
    const peer = e.peer?.peakRssBytes;
    rows.push([label, mb(ours), mb(peer), mb(e.ceiling?.peakRssBytes), ours && peer ? `RSS ${(ours / peer).toFixed(2)}× the peer's` : "—", "—"]);
  };
  rss("Peak RSS of the runtime process under S1", "S1");
  rss("Peak RSS of the runtime process under S5", "S5");
  const header = ["scenario", "ours: a2a-edge on workerd", "peer: @a2a-js/sdk on Node", "ceiling: bare Worker", "ours/peer", "ours/ceiling"];
  const lines = [header, header.map(() => "---"), ...rows].map((r) => `| ${r.join(" | ")} |`);
  const targets = results.targets.map((t) => `- ${t.scenario}: ${t.target} — ${t.value} — **${t.met === null ? "not measured" : t.met ? "met" : "MISSED"}**`);
  return [...lines, "", ...targets].join("\n");
}
