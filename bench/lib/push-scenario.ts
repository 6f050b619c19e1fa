/**
 * S6, push notifications: tasks whose every status and artifact update is pushed to a webhook (a loopback
 * node:http server here), until `pushNotifications` notifications are due — by default 250 tasks × 4
 * (WORKING, two artifact chunks, COMPLETED), `pushConcurrency` SendMessage calls in flight.
 *
 * Measured per round: deliveries per second from the first SendMessage to the last notification's first
 * arrival; the latency of each notification from the time the event was made (the status update's own
 * timestamp, the artifact's metadata.emittedAt — both from the server's clock, the same machine's) to its
 * arrival, which under this burst is mostly time spent waiting behind earlier notifications (so it is
 * also measured once with one task at a time); duplicates; that every (task, seq) arrived at least once; and, for a2a-edge, every arrival's
 * signature, checked after the round (so the checking takes no CPU from the servers while they work) with
 * verifyPushNotification from src/push/verify.ts against the server's published JWKS.
 *
 * a2a-edge delivers through Cloudflare Queues, so it runs under `wrangler dev` here (see wrangler-dev.ts);
 * the peer (@a2a-js/sdk) POSTs every event itself, unsigned, once, with no retries. The SDK pushes every
 * event of the turn, the Task it publishes first included, so its echo agent makes that Task the WORKING
 * notification: 4 notifications per task on both sides.
 */
import { build } from "esbuild";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { BenchConfig } from "./config.ts";
import { median, percentile, round } from "./stats.ts";
import { rpc, userMessage, type Target, type TargetName } from "./targets.ts";
import { ROOT } from "./workerd.ts";

const SIGNATURE_HEADER = "a2a-notification-signature";
const CREDENTIALS = "bench-push-token";
/** After the last SendMessage answered, how long the notifications still due may take. */
const DRAIN_TIMEOUT_MS = 30_000;
/** After everything arrived, how long to keep listening for duplicates. */
const LINGER_MS = 1_000;
/** Tasks sent one at a time for the unloaded latency. */
const IDLE_TASKS = 5;

/** verifyPushNotification's shape (src/push/verify.ts), as far as S6 uses it. */
type Verify = (request: Request, options: { jwks: string; audience: string; issuer?: string }) => Promise<{ taskId: string; seq: number }>;

/** Wall-clock milliseconds with sub-millisecond precision (event times come from the server's wall clock). */
const wallNow = () => performance.timeOrigin + performance.now();

interface Arrival {
  path: string;
  at: number;
  /** `taskId#seq` from the signature's claims when signed, else `taskId#kind:detail` from the body. */
  key: string;
  taskId: string;
  signature: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

interface Webhook {
  url: string;
  arrivals: Arrival[];
  /** Resolves once `count` distinct notifications reached `path`, or after `timeoutMs` (false). */
  waitFor(path: string, count: number, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

function decodeClaims(token: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

type Body = {
  task?: { id?: string; status?: { state?: string; timestamp?: string } };
  statusUpdate?: { taskId?: string; status?: { state?: string; timestamp?: string } };
  artifactUpdate?: { taskId?: string; artifact?: { parts?: { text?: string }[]; metadata?: { emittedAt?: number } } };
};

function parseBody(body: string): Body {
  try {
    return JSON.parse(body) as Body;
  } catch {
    return {};
  }
}

/** What the notification says, for keys and checks: its task, and "status:<state>" / "artifact:<n>" / "task:<state>". */
function describe(b: Body): { taskId: string; what: string } {
  if (b.statusUpdate) return { taskId: b.statusUpdate.taskId ?? "", what: `status:${b.statusUpdate.status?.state}` };
  if (b.artifactUpdate) return { taskId: b.artifactUpdate.taskId ?? "", what: `artifact:${b.artifactUpdate.artifact?.parts?.[0]?.text}` };
  if (b.task) return { taskId: b.task.id ?? "", what: `task:${b.task.status?.state}` };
  return { taskId: "", what: "unknown" };
}

/** When the server made the event: a status's timestamp, or the artifact's metadata.emittedAt (ms). */
function eventTime(b: Body): number | undefined {
  const stamp = b.statusUpdate?.status?.timestamp ?? b.task?.status?.timestamp;
  if (stamp) return Date.parse(stamp);
  const at = b.artifactUpdate?.artifact?.metadata?.emittedAt;
  return typeof at === "number" ? at : undefined;
}

async function startWebhook(): Promise<Webhook> {
  const arrivals: Arrival[] = [];
  const distinct = new Map<string, Set<string>>();
  const waiters = new Set<() => void>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = wallNow();
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      const body = Buffer.concat(chunks).toString("utf8");
      const path = request.url ?? "/";
      const signature = request.headers[SIGNATURE_HEADER] as string | undefined;
      const claims = signature ? decodeClaims(signature) : undefined;
      let key: string;
      let taskId: string;
      if (claims && typeof claims.taskId === "string" && typeof claims.seq === "number") {
        taskId = claims.taskId;
        key = `${taskId}#${claims.seq}`;
      } else {
        const d = describe(parseBody(body));
        taskId = d.taskId;
        key = `${taskId}#${d.what}`;
      }
      arrivals.push({ path, at, key, taskId, signature, authorization: request.headers.authorization, contentType: request.headers["content-type"], body });
      const set = distinct.get(path) ?? distinct.set(path, new Set()).get(path)!;
      set.add(key);
      for (const wake of waiters) wake();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    waitFor(path, count, timeoutMs) {
      return new Promise((resolve) => {
        const check = () => {
          if ((distinct.get(path)?.size ?? 0) < count) return;
          finish(true);
        };
        const timer = setTimeout(() => finish(false), timeoutMs);
        const finish = (ok: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(ok);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** src/push/verify.ts bundled for Node (its imports have no file extensions, which Node's loader wants). */
async function loadVerifier(scratch: string): Promise<Verify> {
  const outfile = join(scratch, "push-verify.mjs");
  await build({ entryPoints: [join(ROOT, "src", "push", "verify.ts")], bundle: true, platform: "node", format: "esm", target: "node22", outfile, logLevel: "error" });
  const mod = (await import(outfile)) as { verifyPushNotification: Verify };
  return mod.verifyPushNotification;
}

export interface PushRound {
  tasks: number;
  expected: number;
  /** Distinct notifications that arrived (each (task, seq) counted once). */
  delivered: number;
  /** Requests the webhook got beyond the first of each notification. */
  duplicates: number;
  /** Tasks that did not get each of their notifications (or got unexpected ones). */
  incompleteTasks: number;
  /** First SendMessage to the last notification's first arrival. */
  seconds: number | null;
  /** First SendMessage to the last SendMessage's answer (the tasks are done; notifications may still be due). */
  sendSeconds: number | null;
  deliveriesPerSec: number | null;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  latencyMaxMs: number | null;
  /** Arrivals without the Authorization the config asked for. */
  badAuthorization: number;
  /** a2a-edge: arrivals whose signature verified (all arrivals are checked); null where nothing is signed. */
  signaturesChecked: number | null;
  signaturesValid: number | null;
  failedSends: number;
  problems: string[];
}

export interface PushSummary {
  runtime: string;
  notifications: number;
  perTask: number;
  concurrency: number;
  /** Medians over rounds. */
  deliveriesPerSec: number | null;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  duplicates: number;
  /**
   * Latency with nothing queued: IDLE_TASKS (5) tasks one after another, each sent once the previous
   * one's notifications all arrived (median and largest of those notifications' latencies).
   */
  idleLatencyP50Ms: number | null;
  idleLatencyMaxMs: number | null;
  /** In every round: every notification arrived at least once, every send succeeded, the right Authorization. */
  allDelivered: boolean;
  /** true: every arrival's signature verified; null: the server does not sign. */
  allSigned: boolean | null;
  rounds: PushRound[];
}

interface RoundResult extends PushRound {
  /** Each notification's latency, ms (not saved). */
  latencies: number[];
}

async function pushRound(t: Target, hook: Webhook, cfg: BenchConfig, label: string, tasks: number, verify: Verify | undefined, lingerMs = LINGER_MS): Promise<RoundResult> {
  const path = `/hook/${t.name}/${label}`;
  const url = hook.url + path;
  const perTask = cfg.pushPerTask;
  const expected = tasks * perTask;
  const taskIds = new Set<string>();
  const problems: string[] = [];
  let failedSends = 0;
  let next = 0;
  const params = () => ({
    message: userMessage(`push ${perTask}`),
    configuration: { taskPushNotificationConfig: { url, authentication: { scheme: "Bearer", credentials: CREDENTIALS } } },
  });
  const sender = async () => {
    while (next < tasks) {
      next++;
      try {
        const result = await rpc<{ task: { id: string; status: { state: string } } }>(t.base, "SendMessage", params());
        if (result.task?.status?.state !== "TASK_STATE_COMPLETED") throw new Error(`task ended ${result.task?.status?.state}`);
        taskIds.add(result.task.id);
      } catch (error) {
        failedSends++;
        problems.push(`SendMessage: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300));
      }
    }
  };
  const t0 = wallNow();
  await Promise.all(Array.from({ length: Math.min(cfg.pushConcurrency, tasks) }, sender));
  const sentAt = wallNow();
  const complete = await hook.waitFor(path, taskIds.size * perTask, DRAIN_TIMEOUT_MS);
  if (!complete) problems.push(`not every notification arrived within ${DRAIN_TIMEOUT_MS / 1000} s of the last SendMessage`);
  await new Promise((r) => setTimeout(r, lingerMs)); // duplicates that follow closely

  const arrivals = hook.arrivals.filter((a) => a.path === path);
  const first = new Map<string, Arrival>();
  for (const a of arrivals) if (!first.has(a.key)) first.set(a.key, a);
  const perTaskKeys = new Map<string, number>();
  for (const a of first.values()) perTaskKeys.set(a.taskId, (perTaskKeys.get(a.taskId) ?? 0) + 1);
  let incompleteTasks = 0;
  for (const id of taskIds) if (perTaskKeys.get(id) !== perTask) incompleteTasks++;
  const strangers = [...perTaskKeys.keys()].filter((id) => !taskIds.has(id));
  if (strangers.length) problems.push(`${strangers.length} tasks notified that no SendMessage here created`);
  if (incompleteTasks) problems.push(`${incompleteTasks} tasks without exactly ${perTask} distinct notifications`);

  const latencies: number[] = [];
  let lastAt = -Infinity;
  for (const a of first.values()) {
    lastAt = Math.max(lastAt, a.at);
    const made = eventTime(parseBody(a.body));
    if (made !== undefined && Number.isFinite(made)) latencies.push(a.at - made);
  }
  if (latencies.length < first.size) problems.push(`${first.size - latencies.length} notifications without an event time`);
  const badAuthorization = arrivals.filter((a) => a.authorization !== `Bearer ${CREDENTIALS}`).length;
  if (badAuthorization) problems.push(`${badAuthorization} arrivals without the configured Authorization`);

  let signaturesChecked: number | null = null;
  let signaturesValid: number | null = null;
  if (verify) {
    signaturesChecked = arrivals.length;
    signaturesValid = 0;
    const errors = new Map<string, number>();
    for (const a of arrivals) {
      try {
        const headers: Record<string, string> = { "content-type": a.contentType ?? "" };
        if (a.signature) headers[SIGNATURE_HEADER] = a.signature;
        const v = await verify(new Request(url, { method: "POST", body: a.body, headers }), { jwks: `${t.base}/.well-known/a2a-push-jwks.json`, audience: url, issuer: t.base });
        if (`${v.taskId}#${v.seq}` !== a.key) throw new Error(`claims ${v.taskId}#${v.seq} differ from ${a.key}`);
        signaturesValid++;
      } catch (error) {
        const what = error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error);
        errors.set(what, (errors.get(what) ?? 0) + 1);
      }
    }
    for (const [what, count] of errors) problems.push(`signature refused ×${count}: ${what}`.slice(0, 300));
  }

  const seconds = first.size ? (lastAt - t0) / 1000 : NaN;
  return {
    tasks,
    expected,
    delivered: first.size,
    duplicates: arrivals.length - first.size,
    incompleteTasks,
    seconds: round(seconds, 3),
    sendSeconds: round((sentAt - t0) / 1000, 3),
    deliveriesPerSec: round(first.size / seconds, 0),
    latencyP50Ms: round(percentile(latencies, 50), 1),
    latencyP99Ms: round(percentile(latencies, 99), 1),
    latencyMaxMs: round(Math.max(...latencies), 1),
    badAuthorization,
    signaturesChecked,
    signaturesValid,
    failedSends,
    problems: [...new Set(problems)].slice(0, 8),
    latencies,
  };
}

const runtimes: Partial<Record<TargetName, string>> = {
  ours: "a2a-edge under wrangler dev (Miniflare's local queue; a proxy workerd in front)",
  peer: "@a2a-js/sdk DefaultPushNotificationSender on Node (one POST per event, unsigned, no retries)",
};

/**
 * `targets`: a2a-edge under wrangler dev (signs; checked) and the peer started with --push. Up to `rounds`
 * rounds per target, alternating; no round starts once S6 has run `budgetSeconds` (at least one always runs).
 */
export async function s6(targets: Target[], cfg: BenchConfig, scratch: string, rounds: number, budgetSeconds = 70): Promise<Partial<Record<TargetName, PushSummary>>> {
  const began = Date.now();
  const verify = await loadVerifier(scratch);
  const hook = await startWebhook();
  const tasks = Math.ceil(cfg.pushNotifications / cfg.pushPerTask);
  const signs = (t: Target) => t.name === "ours";
  try {
    for (const t of targets) {
      // Warm-up: the queue consumer, the signer, the JWKS, connections. Checked like a round, not reported.
      const w = await pushRound(t, hook, cfg, "warmup", cfg.pushConcurrency, signs(t) ? verify : undefined);
      process.stderr.write(`  S6 warm-up ${t.name}: ${w.delivered}/${w.expected} in ${w.seconds} s${w.problems.length ? ` — ${w.problems.join("; ")}` : ""}\n`);
      if (w.delivered === 0) throw new Error(`S6 on ${t.name}: no notification arrived during the warm-up: ${w.problems.join("; ")}\n${t.proc.log().slice(-3000)}`);
    }
    const idle = new Map<TargetName, RoundResult[]>();
    for (const t of targets) {
      const rs: RoundResult[] = [];
      for (let i = 1; i <= IDLE_TASKS; i++) rs.push(await pushRound(t, hook, { ...cfg, pushConcurrency: 1 }, `idle-${i}`, 1, signs(t) ? verify : undefined, 0));
      idle.set(t.name, rs);
      const lat = rs.flatMap((x) => x.latencies);
      const problems = [...new Set(rs.flatMap((x) => x.problems))];
      process.stderr.write(`  S6 one task at a time ${t.name}: latency p50 ${round(percentile(lat, 50), 1)} ms, max ${round(Math.max(...lat), 1)} ms over ${lat.length} notifications${problems.length ? ` — ${problems.join("; ")}` : ""}\n`);
    }
    const byTarget = new Map<TargetName, RoundResult[]>();
    for (let r = 0; r < rounds; r++) {
      if (r > 0 && (Date.now() - began) / 1000 > budgetSeconds) {
        process.stderr.write(`  S6: ${r} of ${rounds} rounds within the ${budgetSeconds} s budget; no more\n`);
        break;
      }
      for (const t of targets) {
        const res = await pushRound(t, hook, cfg, `round-${r + 1}`, tasks, signs(t) ? verify : undefined);
        (byTarget.get(t.name) ?? byTarget.set(t.name, []).get(t.name)!).push(res);
        const signed = res.signaturesChecked === null ? "unsigned" : `${res.signaturesValid}/${res.signaturesChecked} signatures valid`;
        process.stderr.write(`  S6 round ${r + 1}/${rounds} ${t.name}: ${res.delivered}/${res.expected} delivered in ${res.seconds} s (${res.deliveriesPerSec}/s; all ${res.tasks} SendMessage answered in ${res.sendSeconds} s), latency p50 ${res.latencyP50Ms} ms p99 ${res.latencyP99Ms} ms, ${res.duplicates} duplicates, ${signed}${res.problems.length ? ` — ${res.problems.join("; ")}` : ""}\n`);
      }
    }
    const out: Partial<Record<TargetName, PushSummary>> = {};
    for (const [name, measured] of byTarget) {
      const idleRounds = idle.get(name) ?? [];
      const idleLat = idleRounds.flatMap((x) => x.latencies);
      const rs: PushRound[] = measured.map(({ latencies: _, ...r }) => r);
      const all = [...rs, ...idleRounds];
      const signed = rs.every((x) => x.signaturesChecked !== null);
      out[name] = {
        runtime: runtimes[name] ?? name,
        notifications: tasks * cfg.pushPerTask,
        perTask: cfg.pushPerTask,
        concurrency: cfg.pushConcurrency,
        deliveriesPerSec: round(median(rs.map((x) => x.deliveriesPerSec ?? NaN)), 0),
        latencyP50Ms: round(median(rs.map((x) => x.latencyP50Ms ?? NaN)), 1),
        latencyP99Ms: round(median(rs.map((x) => x.latencyP99Ms ?? NaN)), 1),
        idleLatencyP50Ms: round(percentile(idleLat, 50), 1),
        idleLatencyMaxMs: round(Math.max(...idleLat), 1),
        duplicates: all.reduce((n, x) => n + x.duplicates, 0),
        allDelivered: all.every((x) => x.delivered === x.expected && x.incompleteTasks === 0 && x.failedSends === 0 && x.badAuthorization === 0),
        allSigned: signed ? all.every((x) => x.signaturesValid === x.signaturesChecked) : null,
        rounds: rs,
      };
    }
    return out;
  } finally {
    await hook.close();
  }
}
