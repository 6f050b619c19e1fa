/**
 * Streaming scenarios. S4: SendStreamingMessage of a 20-event stream, closed loop — time to the first
 * event and to the last. S5: fan-out — one task, N SSE subscribers, M events: time until every
 * subscriber has every event, events delivered per second, and a per-subscriber check of count and order.
 */
import http from "node:http";
import type { BenchConfig } from "./config.ts";
import { peakRss } from "./procs.ts";
import { chunkText, kindOf, openStream, stateOf, type SseEvent } from "./sse.ts";
import { median, percentile, round } from "./stats.ts";
import { rpc, userMessage, type Target, type TargetName } from "./targets.ts";

const HEADERS = { "content-type": "application/json", "a2a-version": "1.0", accept: "text/event-stream" };

// ---- S4 ---------------------------------------------------------------------------------------

export interface StreamSummary {
  streamsPerSec: number | null;
  ttfeP50Ms: number | null;
  ttfeP99Ms: number | null;
  ttleP50Ms: number | null;
  ttleP99Ms: number | null;
  eventsPerStream: number;
  streams: number;
  failed: number;
  rounds: { streamsPerSec: number | null; ttfeP50Ms: number | null; ttleP50Ms: number | null }[];
}

interface StreamRound { ttfe: number[]; ttle: number[]; seconds: number; failed: number; events: number }

async function streamLoop(t: Target, cfg: BenchConfig, seconds: number): Promise<StreamRound> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.streamConcurrency });
  const path = t.name === "ceiling" ? "/sse" : "/";
  const out: StreamRound = { ttfe: [], ttle: [], seconds, failed: 0, events: 0 };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: userMessage(`stream ${cfg.streamEvents}`) } });
      const t0 = performance.now();
      let first = -1;
      let count = 0;
      let last: SseEvent | undefined;
      openStream({ url: t.base + path, method: "POST", headers: HEADERS, body, agent }, {
        onEvent(event) {
          if (first < 0) first = performance.now() - t0;
          count++;
          last = event;
        },
        onEnd() {
          const ok = count === cfg.streamEvents && (t.name === "ceiling" || stateOf(last!) === "TASK_STATE_COMPLETED");
          if (ok) {
            out.ttfe.push(first);
            out.ttle.push(performance.now() - t0);
            out.events += count;
          } else out.failed++;
          resolve();
        },
        onError() {
          out.failed++;
          resolve();
        },
      });
    });
  await Promise.all(Array.from({ length: cfg.streamConcurrency }, async () => {
    while (performance.now() < deadline) await one();
  }));
  out.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return out;
}

export async function s4(targets: Target[], cfg: BenchConfig): Promise<Partial<Record<TargetName, StreamSummary>>> {
  for (const t of targets) await streamLoop(t, cfg, cfg.warmupSeconds);
  const rounds = new Map<TargetName, StreamRound[]>();
  for (let r = 0; r < cfg.rounds; r++) {
    for (const t of targets) {
      const res = await streamLoop(t, cfg, cfg.seconds);
      (rounds.get(t.name) ?? rounds.set(t.name, []).get(t.name)!).push(res);
      process.stderr.write(`  S4 round ${r + 1}/${cfg.rounds} ${t.name}: ${(res.ttle.length / res.seconds).toFixed(0)} streams/s, first event p50 ${percentile(res.ttfe, 50).toFixed(2)} ms, last p50 ${percentile(res.ttle, 50).toFixed(2)} ms${res.failed ? `, ${res.failed} FAILED` : ""}\n`);
    }
  }
  const out: Partial<Record<TargetName, StreamSummary>> = {};
  for (const [name, rs] of rounds) {
    out[name] = {
      streamsPerSec: round(median(rs.map((x) => x.ttle.length / x.seconds)), 0),
      ttfeP50Ms: round(median(rs.map((x) => percentile(x.ttfe, 50)))),
      ttfeP99Ms: round(median(rs.map((x) => percentile(x.ttfe, 99)))),
      ttleP50Ms: round(median(rs.map((x) => percentile(x.ttle, 50)))),
      ttleP99Ms: round(median(rs.map((x) => percentile(x.ttle, 99)))),
      eventsPerStream: cfg.streamEvents,
      streams: rs.reduce((n, x) => n + x.ttle.length, 0),
      failed: rs.reduce((n, x) => n + x.failed, 0),
      rounds: rs.map((x) => ({ streamsPerSec: round(x.ttle.length / x.seconds, 0), ttfeP50Ms: round(percentile(x.ttfe, 50)), ttleP50Ms: round(percentile(x.ttle, 50)) })),
    };
  }
  return out;
}

// ---- S5 ---------------------------------------------------------------------------------------

export interface FanoutRound {
  /** From sending the message that starts the burst until the last subscriber has its last event. */
  timeToAllMs: number;
  eventsPerSec: number;
  deliveries: number;
  expected: number;
  /** Subscribers that got exactly the events, in order (chunk numbers 1..k, increasing ids, COMPLETED last). */
  inOrder: number;
  problems: string[];
}

export interface FanoutSummary {
  subscribers: number;
  events: number;
  expectedDeliveries: number;
  /** Medians over rounds. */
  timeToAllMs: number | null;
  eventsPerSec: number | null;
  /** True only if, in every round, every subscriber got every event in order. */
  allInOrder: boolean;
  rounds: FanoutRound[];
  peakRssBytes?: number;
}

interface Subscriber {
  events: SseEvent[];
  lastAt: number;
  ended: boolean;
  error?: string;
}

function checkSubscriber(sub: Subscriber, expected: number): string | undefined {
  if (sub.error) return sub.error;
  const after = sub.events.slice(1); // event 0 is the snapshot of the held task
  if (kindOf(sub.events[0]!) !== "task") return `first event is ${kindOf(sub.events[0]!)}, not the task snapshot`;
  if (after.length !== expected) return `${after.length} events after the snapshot, expected ${expected}`;
  let chunk = 0;
  let lastId = Number(sub.events[0]!.id ?? -1);
  for (const e of after) {
    if (e.id !== undefined) {
      if (Number(e.id) <= lastId) return `id ${e.id} after ${lastId}`;
      lastId = Number(e.id);
    }
    const text = chunkText(e);
    if (text !== undefined) {
      if (Number(text) !== chunk + 1) return `chunk ${text} after ${chunk}`;
      chunk++;
    }
  }
  if (chunk < expected - 2) return `only ${chunk} chunks`;
  if (stateOf(after[after.length - 1]!) !== "TASK_STATE_COMPLETED") return "last event is not COMPLETED";
  return undefined;
}

async function fanoutRound(t: Target, cfg: BenchConfig): Promise<FanoutRound> {
  const held = await rpc<{ task: { id: string; status: { state: string } } }>(t.base, "SendMessage", { message: userMessage("hold") });
  if (held.task.status.state !== "TASK_STATE_INPUT_REQUIRED") throw new Error(`S5 on ${t.name}: hold gave ${held.task.status.state}`);
  const taskId = held.task.id;
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const subs: Subscriber[] = [];
  const expected = cfg.fanoutEvents;
  let notifySnapshot: () => void = () => {};
  let notifyDone: () => void = () => {};
  let snapshots = 0;
  let done = 0;
  const allSnapshots = new Promise<void>((resolve) => (notifySnapshot = resolve));
  const allDone = new Promise<void>((resolve) => (notifyDone = resolve));
  const requests: http.ClientRequest[] = [];
  for (let i = 0; i < cfg.subscribers; i++) {
    const sub: Subscriber = { events: [], lastAt: 0, ended: false };
    subs.push(sub);
    const finish = () => {
      if (sub.ended) return;
      sub.ended = true;
      if (++done === cfg.subscribers) notifyDone();
    };
    requests.push(openStream({ url: `${t.base}/tasks/${taskId}:subscribe`, method: "GET", headers: { "a2a-version": "1.0", accept: "text/event-stream" }, agent }, {
      onEvent(event) {
        sub.events.push(event);
        sub.lastAt = performance.now();
        if (sub.events.length === 1 && ++snapshots === cfg.subscribers) notifySnapshot();
        if (sub.events.length === expected + 1) finish();
      },
      onEnd: finish,
      onError(error) {
        sub.error ??= error.message;
        if (sub.events.length === 0 && ++snapshots === cfg.subscribers) notifySnapshot();
        finish();
      },
    }));
  }
  const timeout = <T>(p: Promise<T>, ms: number, what: string) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`S5 on ${t.name}: ${what} within ${ms} ms`)), ms).unref())]);
  try {
    await timeout(allSnapshots, 30_000, "not every subscriber got its snapshot");
    const t0 = performance.now();
    const burst = rpc(t.base, "SendMessage", { message: userMessage(`burst ${expected}`, { taskId }) });
    await timeout(allDone, 60_000, "not every subscriber finished");
    await burst;
    const lastAt = Math.max(...subs.map((s) => s.lastAt));
    const timeToAllMs = lastAt - t0;
    const deliveries = subs.reduce((n, s) => n + Math.max(0, s.events.length - 1), 0);
    const problems = subs.map((s) => checkSubscriber(s, expected)).filter((p): p is string => p !== undefined);
    return {
      timeToAllMs: round(timeToAllMs)!,
      eventsPerSec: round(deliveries / (timeToAllMs / 1000), 0)!,
      deliveries,
      expected: expected * cfg.subscribers,
      inOrder: cfg.subscribers - problems.length,
      problems: [...new Set(problems)].slice(0, 5),
    };
  } finally {
    for (const r of requests) r.destroy();
    agent.destroy();
  }
}

export async function s5(targets: Target[], cfg: BenchConfig): Promise<Partial<Record<TargetName, FanoutSummary>>> {
  const active = targets.filter((t) => t.name !== "ceiling");
  const rounds = new Map<TargetName, FanoutRound[]>();
  const peaks = new Map<TargetName, number>();
  for (const t of active) await fanoutRound(t, { ...cfg, subscribers: Math.min(50, cfg.subscribers) }); // warm-up
  for (let r = 0; r < cfg.rounds; r++) {
    for (const t of active) {
      const { result, peakBytes } = await peakRss(t.proc.pid, () => fanoutRound(t, cfg));
      if (peakBytes !== undefined) peaks.set(t.name, Math.max(peaks.get(t.name) ?? 0, peakBytes));
      (rounds.get(t.name) ?? rounds.set(t.name, []).get(t.name)!).push(result);
      process.stderr.write(`  S5 round ${r + 1}/${cfg.rounds} ${t.name}: ${result.deliveries}/${result.expected} deliveries in ${result.timeToAllMs} ms (${result.eventsPerSec} events/s), ${result.inOrder}/${cfg.subscribers} subscribers complete and in order${result.problems.length ? ` — ${result.problems.join("; ")}` : ""}\n`);
    }
  }
  const out: Partial<Record<TargetName, FanoutSummary>> = {};
  for (const [name, rs] of rounds) {
    const summary: FanoutSummary = {
      subscribers: cfg.subscribers,
      events: cfg.fanoutEvents,
      expectedDeliveries: cfg.subscribers * cfg.fanoutEvents,
      timeToAllMs: round(median(rs.map((x) => x.timeToAllMs))),
      eventsPerSec: round(median(rs.map((x) => x.eventsPerSec)), 0),
      allInOrder: rs.every((x) => x.inOrder === cfg.subscribers && x.deliveries === x.expected),
      rounds: rs,
    };
    const peak = peaks.get(name);
    if (peak !== undefined) summary.peakRssBytes = peak;
    out[name] = summary;
  }
  return out;
}
