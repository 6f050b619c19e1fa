/**
 * a2a-edge on raw workerd (reference/workers-platform.md §9): the echo agent is bundled with
 * `wrangler deploy --dry-run --outdir`, and workerd serves the bundle from a capnp config with
 * SQLite-backed Durable Objects on local disk. The ceiling Worker runs on the same binary.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { start, waitForPort, type Proc } from "./procs.ts";

const require = createRequire(import.meta.url);
export const BENCH_DIR = join(dirname(new URL(import.meta.url).pathname), "..");
export const ROOT = join(BENCH_DIR, "..");
const COMPAT_DATE = "2026-11-01";

/** wrangler's own workerd (the one `wrangler dev` would run), unless BENCH_WORKERD names another. */
export function workerdBinary(): string {
  if (process.env.BENCH_WORKERD) return process.env.BENCH_WORKERD;
  const fromWrangler = createRequire(require.resolve("wrangler/package.json"));
  return join(dirname(fromWrangler.resolve("workerd/package.json")), "bin", "workerd");
}

export function workerdVersion(): string {
  return execFileSync(workerdBinary(), ["--version"], { encoding: "utf8" }).trim();
}

/** Bundles bench/echo-agent.ts into `outDir` the way `wrangler deploy` would; returns the module's path. */
export async function buildBundle(outDir: string, minify = true): Promise<string> {
  const wrangler = join(dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");
  const args = [wrangler, "deploy", "--dry-run", "--outdir", outDir, "--config", join(BENCH_DIR, "wrangler.toml")];
  if (!minify) args.push("--minify=false");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`wrangler build failed:\n${out}`))));
  });
  const js = readdirSync(outDir).find((f) => f.endsWith(".js"));
  if (!js) throw new Error(`no bundle in ${outDir}`);
  return join(outDir, js);
}

const q = (s: string) => JSON.stringify(s);

function writeConfig(dir: string, port: number, worker: string, doDir = join(dir, "do")): string {
  mkdirSync(doDir, { recursive: true });
  const file = join(dir, "config.capnp");
  writeFileSync(file, `using Workerd = import "/workerd/workerd.capnp";
${worker}
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w), (name = "do-disk", disk = (path = ${q(doDir)}, writable = true)) ],
  sockets = [ (name = "http", address = ${q(`127.0.0.1:${port}`)}, http = (), service = "main") ] );
`);
  return file;
}

async function serve(name: string, dir: string, config: string, port: number): Promise<Proc> {
  const proc = start(name, workerdBinary(), ["serve", config, "--experimental"], { cwd: dir });
  await waitForPort(port, proc);
  return proc;
}

/**
 * a2a-edge's echo agent on raw workerd; its Durable Objects' SQLite files go to `doDir` (a tmpfs
 * directory by default, see run.ts) and the process is named `name`.
 */
export async function startOurs(dir: string, bundle: string, port: number, doDir: string, name = "ours (workerd)"): Promise<Proc> {
  mkdirSync(dir, { recursive: true });
  copyFileSync(bundle, join(dir, "agent.js"));
  const config = writeConfig(dir, port, `const w :Workerd.Worker = (
  modules = [ (name = "agent.js", esModule = embed "agent.js") ],
  compatibilityDate = ${q(COMPAT_DATE)},
  compatibilityFlags = ["global_fetch_strictly_public"],
  durableObjectNamespaces = [
    (className = "TaskObject", uniqueKey = "a2a-edge-bench-TaskObject", enableSql = true),
    (className = "TaskIndex", uniqueKey = "a2a-edge-bench-TaskIndex", enableSql = true) ],
  durableObjectStorage = (localDisk = "do-disk"),
  bindings = [ (name = "TASKS", durableObjectNamespace = "TaskObject"), (name = "TASK_INDEX", durableObjectNamespace = "TaskIndex") ] );`, doDir);
  return serve(name, dir, config, port);
}

/** The bare constant-JSON Worker (bench/ceiling.js) on the same binary. */
export async function startCeiling(dir: string, port: number): Promise<Proc> {
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(BENCH_DIR, "ceiling.js"), join(dir, "ceiling.js"));
  const config = writeConfig(dir, port, `const w :Workerd.Worker = (
  modules = [ (name = "ceiling.js", esModule = embed "ceiling.js") ],
  compatibilityDate = ${q(COMPAT_DATE)} );`);
  return serve("ceiling (workerd)", dir, config, port);
}

/** The official SDK's Express server (bench/peer.ts) on this Node; `args` e.g. ["--push"] (S6). */
export async function startPeer(port: number, args: string[] = []): Promise<Proc> {
  const proc = start("peer (node)", process.execPath, [join(BENCH_DIR, "peer.ts"), "--port", String(port), ...args], { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" } });
  await waitForPort(port, proc);
  return proc;
}
