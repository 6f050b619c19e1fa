/**
 * Settings, from flags (`npm run bench -- --rounds 5`) or the environment (BENCH_ROUNDS=5). `--quick`
 * (BENCH_QUICK=1) shrinks every duration for a smoke run and writes bench/results/quick.json instead.
 */
export interface BenchConfig {
  quick: boolean;
  /** Concurrent connections of the load generator (S1, S2, S3, S7). */
  connections: number;
  /** Seconds per measured round, per target. */
  seconds: number;
  /** Seconds of discarded warm-up per target before the first round. */
  warmupSeconds: number;
  /** Measured rounds per target; targets alternate A B C A B C ... */
  rounds: number;
  /** S4: streams kept in flight at once (1 = unloaded latency). */
  streamConcurrency: number;
  /** S4: events per stream. */
  streamEvents: number;
  /** S5: subscribers and events. */
  subscribers: number;
  fanoutEvents: number;
  /** S7: tasks seeded for one caller, and the page size. */
  listTasks: number;
  pageSize: number;
  /** S6: push notifications in all, notifications per task, SendMessage calls in flight. */
  pushNotifications: number;
  pushPerTask: number;
  pushConcurrency: number;
  /** Scenarios to run (S1..S7); all by default. */
  only: Set<string> | undefined;
  out: string | undefined;
  /**
   * Where a2a-edge's Durable Objects keep their SQLite files: "tmpfs" (/dev/shm, the default) or "disk"
   * (the scratch directory). On a VM disk every commit's fsync blocks workerd's one thread for
   * milliseconds, which production Durable Object storage does not do; see README § Performance.
   */
  storage: "tmpfs" | "disk";
  /** Also measure S1 with a second a2a-edge whose storage is on disk (default: on, off in --quick). */
  diskRow: boolean;
  /** Keep the scratch directory (bundle, capnp configs, Durable Object files) for inspection. */
  keep: boolean;
}

const HELP = `npm run bench -- [options]      (each also as an env var, e.g. BENCH_ROUNDS=5)
  --quick                   short smoke run (writes bench/results/quick.json)
  --connections N           load-generator connections (default 32)
  --duration S              seconds per measured round per target (default 5)
  --warmup S                warm-up seconds per target (default 2)
  --rounds N                alternating rounds (default 3)
  --stream-concurrency N    S4 streams in flight (default 1)
  --subscribers N           S5 subscribers (default 500)
  --fanout-events N         S5 events (default 100)
  --list-tasks N            S7 tasks seeded (default 10000)
  --push-notifications N    S6 webhook notifications per round (default 1000)
  --push-per-task N         S6 notifications per task: WORKING, N-2 artifacts, COMPLETED (default 4)
  --push-concurrency N      S6 SendMessage calls in flight (default 16)
  --only S1,S5              run only these scenarios
  --out FILE                where to write the JSON (default bench/results/latest.json)
  --storage tmpfs|disk      where a2a-edge's Durable Object SQLite files live (default tmpfs)
  --disk-row 0|1            also run S1 against a2a-edge with storage on disk (default 1; 0 in --quick)
  --keep                    keep the scratch directory`;

export function readConfig(argv: string[]): BenchConfig {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      console.log(HELP);
      process.exit(0);
    }
    if (!arg.startsWith("--")) throw new Error(`unexpected argument ${arg}\n${HELP}`);
    const [key, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    const next = argv[i + 1];
    if (inline !== undefined) flags.set(key, inline);
    else if (next !== undefined && !next.startsWith("--")) flags.set(key, (i++, next));
    else flags.set(key, "1");
  }
  const get = (key: string): string | undefined => flags.get(key) ?? process.env[`BENCH_${key.toUpperCase().replace(/-/g, "_")}`];
  const quick = ["1", "true"].includes(get("quick") ?? "");
  const num = (key: string, full: number, fast: number): number => {
    const raw = get(key);
    const value = raw === undefined ? (quick ? fast : full) : Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${key} must be a positive number`);
    return value;
  };
  const only = get("only");
  return {
    quick,
    connections: num("connections", 32, 32),
    seconds: num("duration", 5, 1.5),
    warmupSeconds: num("warmup", 2, 0.5),
    rounds: num("rounds", 3, 2),
    streamConcurrency: num("stream-concurrency", 1, 1),
    streamEvents: num("stream-events", 20, 20),
    subscribers: num("subscribers", 500, 500),
    fanoutEvents: num("fanout-events", 100, 100),
    listTasks: num("list-tasks", 10_000, 2_000),
    pageSize: num("page-size", 50, 50),
    pushNotifications: num("push-notifications", 1000, 1000),
    pushPerTask: Math.max(3, num("push-per-task", 4, 4)),
    pushConcurrency: num("push-concurrency", 16, 16),
    only: only ? new Set(only.split(",").map((s) => s.trim().toUpperCase())) : undefined,
    out: get("out"),
    keep: ["1", "true"].includes(get("keep") ?? ""),
    storage: get("storage") === "disk" ? "disk" : "tmpfs",
    diskRow: ["1", "true"].includes(get("disk-row") ?? (quick ? "0" : "1")),
  };
}
