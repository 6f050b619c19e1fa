/**
 * `npm run bench`: a2a-edge against the official SDK's server (the peer) and against the runtime's
 * ceiling, side by side, on loopback. See README.md § Performance and `npm run bench -- --help`.
 *
 * 1. bundles bench/echo-agent.ts with `wrangler deploy --dry-run` and serves it on raw workerd
 *    (SQLite Durable Objects on local disk, in a scratch directory);
 * 2. starts bench/peer.ts (@a2a-js/sdk on Express, in-memory store) on this Node;
 * 3. starts bench/ceiling.js (a bare constant-JSON Worker) on the same workerd binary;
 * 4. runs the scenarios — warm-up, then alternating rounds, medians — and prints the table; S6 (push)
 *    serves the same bundle under `wrangler dev` instead, for its local queue, and the peer with push on;
 * 5. writes bench/results/latest.json (and latest.md), stops everything it started. With --only, the
 *    scenarios not run are kept from the file's previous contents (each marked with the date it was measured).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { readConfig } from "./lib/config.ts";
import { s1, s2, s3Specs, s7Setup, throughput } from "./lib/http-scenarios.ts";
import { freePort, stopAll } from "./lib/procs.ts";
import { s6 } from "./lib/push-scenario.ts";
import { checkTargets, fanoutEntry, listEntry, pushEntry, streamEntry, table, throughputEntry, type Results } from "./lib/report.ts";
import { s4, s5 } from "./lib/stream-scenarios.ts";
import { sendEcho, type Target } from "./lib/targets.ts";
import { startOursDev } from "./lib/wrangler-dev.ts";
import { BENCH_DIR, buildBundle, ROOT, startCeiling, startOurs, startPeer, workerdVersion } from "./lib/workerd.ts";

const cfg = readConfig(process.argv.slice(2));
const wants = (id: string) => !cfg.only || cfg.only.has(id);
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT ?? 900);

const version = (pkg: string) => {
  try {
    return (JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
};

function machine(): Record<string, unknown> {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model ?? "unknown",
    cores: cpu.length,
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    os: `${process.platform} ${release()}`,
    node: process.version,
    workerd: workerdVersion(),
    wrangler: version("wrangler"),
    "@a2a-js/sdk": version("@a2a-js/sdk"),
    express: version("express"),
    autocannon: version("autocannon"),
    date: new Date().toISOString(),
  };
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error(`bench: over the ${TIME_LIMIT_S} s limit (BENCH_TIME_LIMIT); stopping`);
    void stopAll().finally(() => process.exit(1));
  }, TIME_LIMIT_S * 1000);
  watchdog.unref();
  const scratch = mkdtempSync(join(tmpdir(), "a2a-edge-bench-"));
  // Durable Object storage on tmpfs by default (see BenchConfig.storage); falls back to disk without /dev/shm.
  if (cfg.storage === "tmpfs" && !existsSync("/dev/shm")) cfg.storage = "disk";
  const tmpfs = cfg.storage === "tmpfs" ? mkdtempSync("/dev/shm/a2a-edge-bench-") : undefined;
  const started = Date.now();
  const removeScratch = () => {
    for (const dir of [scratch, tmpfs]) if (dir) try { rmSync(dir, { recursive: true, force: true }); } catch { /* best effort */ }
  };
  // Ctrl-C and the watchdog end the process without reaching `finally`: the scratch directories go then too.
  if (!cfg.keep) process.once("exit", removeScratch);
  try {
    console.error(`bench: building the echo agent (wrangler deploy --dry-run) in ${scratch}`);
    const bundle = await buildBundle(join(scratch, "dist"));
    const ceilingPort = await freePort();
    const ceiling = await startCeiling(join(scratch, "ceiling"), ceilingPort);
    const ceilingTarget: Target = { name: "ceiling", base: `http://127.0.0.1:${ceilingPort}`, proc: ceiling };
    let generation = 0;
    /**
     * Every scenario gets a fresh a2a-edge (new process, empty storage) and a fresh peer (empty store), so
     * no scenario pays for the previous one's leftovers (Durable Objects still being evicted, a task
     * store grown to 30,000 tasks). `disk` adds a2a-edge with its storage on disk (S1).
     */
    const freshTargets = async (disk = false): Promise<Target[]> => {
      await stopAll([ceiling]);
      const n = ++generation;
      const [ourPort, peerPort] = [await freePort(), await freePort()];
      const doDir = cfg.storage === "tmpfs" ? join(tmpfs!, `ours-${n}`) : join(scratch, `ours-${n}`, "do");
      const [ours, peer] = await Promise.all([startOurs(join(scratch, `ours-${n}`), bundle, ourPort, doDir), startPeer(peerPort)]);
      const targets: Target[] = [
        { name: "ours", base: `http://127.0.0.1:${ourPort}`, proc: ours },
        { name: "peer", base: `http://127.0.0.1:${peerPort}`, proc: peer },
        ceilingTarget,
      ];
      if (disk) {
        const port = await freePort();
        const proc = await startOurs(join(scratch, `ours-disk-${n}`), bundle, port, join(scratch, `ours-disk-${n}`, "do"), "ours on disk (workerd)");
        targets.splice(1, 0, { name: "oursDisk", base: `http://127.0.0.1:${port}`, proc });
      }
      for (const t of targets) if (t.name !== "ceiling") await sendEcho(t.base); // all answer correctly before anything is timed
      return targets;
    };
    const results: Results = {
      machine: machine(),
      config: { ...cfg, only: cfg.only ? [...cfg.only] : undefined, out: undefined, keep: undefined },
      scenarios: {},
      targets: [],
    };
    const diskRow = cfg.diskRow && cfg.storage === "tmpfs";
    console.error(`bench: a2a-edge's Durable Objects on ${cfg.storage === "tmpfs" ? `tmpfs (${tmpfs})` : "disk"}${diskRow && wants("S1") ? "; S1 also on disk" : ""}; fresh servers for every scenario; ceiling pid ${ceiling.pid}`);
    console.error(`bench: ${cfg.connections} connections, ${cfg.warmupSeconds} s warm-up, ${cfg.rounds} rounds × ${cfg.seconds} s per target`);
    const sc = results.scenarios;
    if (wants("S1")) sc.S1 = throughputEntry("SendMessage, JSON-RPC, new task each", await throughput(await freshTargets(diskRow), s1, cfg, { label: "S1", trackRss: true }));
    if (wants("S2")) sc.S2 = throughputEntry("SendMessage, HTTP+JSON, new task each", await throughput(await freshTargets(), s2, cfg, { label: "S2" }));
    if (wants("S3")) {
      const targets = await freshTargets();
      sc.S3 = throughputEntry("GetTask of an existing task, JSON-RPC", await throughput(targets, await s3Specs(targets), cfg, { label: "S3" }));
    }
    if (wants("S4")) sc.S4 = streamEntry(`SendStreamingMessage, ${cfg.streamEvents} events, ${cfg.streamConcurrency} in flight`, await s4(await freshTargets(), cfg));
    if (wants("S5")) sc.S5 = fanoutEntry(`fan-out: one task, ${cfg.subscribers} SSE subscribers, ${cfg.fanoutEvents} events`, await s5(await freshTargets(), cfg));
    if (wants("S6")) {
      // Queues exist only in Miniflare: a2a-edge runs under `wrangler dev` here (see lib/wrangler-dev.ts).
      await stopAll([ceiling]);
      const n = ++generation;
      const [ourPort, peerPort] = [await freePort(), await freePort()];
      const state = cfg.storage === "tmpfs" ? join(tmpfs!, `ours-dev-${n}`) : join(scratch, `ours-dev-${n}`, "state");
      console.error("  S6: starting a2a-edge under wrangler dev (local queue) and the peer with push on");
      const [ours, peer] = await Promise.all([startOursDev(join(scratch, `ours-dev-${n}`), bundle, ourPort, state), startPeer(peerPort, ["--push"])]);
      const targets: Target[] = [
        { name: "ours", base: `http://127.0.0.1:${ourPort}`, proc: ours },
        { name: "peer", base: `http://127.0.0.1:${peerPort}`, proc: peer },
      ];
      for (const t of targets) await sendEcho(t.base);
      const rounds = cfg.quick ? 1 : Math.min(cfg.rounds, 3);
      sc.S6 = pushEntry(`push: ${cfg.pushNotifications} notifications to a local webhook, with signing`, await s6(targets, cfg, scratch, rounds));
      await stopAll([ceiling]);
    }
    if (wants("S7")) {
      const targets = await freshTargets();
      console.error(`  S7: seeding ${cfg.listTasks} tasks for one caller on ours and peer`);
      const setup = await s7Setup(targets, cfg);
      const first = await throughput(targets, setup.first, cfg, { label: "S7 page 1" });
      const middle = await throughput(targets, setup.middle, cfg, { label: `S7 page ${setup.middlePage}` });
      sc.S7 = listEntry(`ListTasks, ${cfg.listTasks} tasks of one caller`, first, middle, setup.seed, setup.middlePage, Math.ceil(cfg.listTasks / cfg.pageSize));
    }
    const out = cfg.out ?? join(BENCH_DIR, "results", cfg.quick ? "quick.json" : "latest.json");
    const kept = cfg.only ? keepPrevious(out, results) : [];
    sc.S6 ??= { title: "push: 1,000 notifications to a local webhook, with signing", status: "not measured", ratio: null };
    results.scenarios = Object.fromEntries(Object.entries(sc).sort(([a], [b]) => a.localeCompare(b)));
    results.targets = checkTargets(results.scenarios);
    (results.config as Record<string, unknown>).wallSeconds = Math.round((Date.now() - started) / 1000);
    let md = table(results);
    if (kept.length) {
      const byDate = new Map<string, string[]>();
      for (const [id, date] of kept) byDate.set(date, [...(byDate.get(date) ?? []), id]);
      const earlier = [...byDate].map(([date, ids]) => `${ids.join(", ")} from the run of ${date}`).join("; ");
      md += `\n\nRun with --only ${[...cfg.only!].join(",")} on ${String(results.machine.date)}; ${earlier}.`;
    }
    console.log(`\n${md}\n`);
    console.log(`machine: ${Object.entries(results.machine).map(([k, v]) => `${k} ${v}`).join(", ")}`);
    mkdirSync(join(out, ".."), { recursive: true });
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(out.replace(/\.json$/, ".md"), `${md}\n`);
    console.log(`wrote ${out} (${results.config.wallSeconds} s in all)`);
  } finally {
    await stopAll();
    if (cfg.keep) console.error(`bench: kept ${scratch}${tmpfs ? ` and ${tmpfs}` : ""}`);
    else removeScratch();
  }
}

/**
 * With --only: the scenarios this run did not measure are taken from the previous results in `out`, each
 * with the date it was measured (`measuredAt`), so a partial run updates its rows without dropping the rest.
 */
function keepPrevious(out: string, results: Results): [string, string][] {
  if (!existsSync(out)) return [];
  let previous: Results;
  try {
    previous = JSON.parse(readFileSync(out, "utf8")) as Results;
  } catch {
    return [];
  }
  const kept: [string, string][] = [];
  for (const [id, entry] of Object.entries(previous.scenarios ?? {})) {
    if (results.scenarios[id] || (cfg.only?.has(id) ?? false)) continue;
    if (entry.status !== undefined && entry.ours === undefined) continue; // a placeholder
    const measuredAt = String(entry.measuredAt ?? previous.machine?.date ?? "unknown");
    results.scenarios[id] = { ...entry, measuredAt };
    kept.push([id, measuredAt]);
  }
  if (kept.length) (results.config as Record<string, unknown>).keptFromPreviousRun = Object.fromEntries(kept);
  return kept;
}

main().catch(async (error: unknown) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
