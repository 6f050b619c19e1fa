/**
 * Starts the real local server (`wrangler dev`, which runs workerd) as a child process for end-to-end
 * tests, and stops it again, children included.
 *
 *   const server = await startServer({ config: "examples/conformance/wrangler.toml" });
 *   ... fetch(server.url + "/.well-known/agent-card.json") ...
 *   await server.stop();
 *
 * wrangler spawns workerd processes of its own, so the server runs in its own process group
 * (`detached: true`) and stop() signals the whole group, then waits until the port is closed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The project root: test/e2e/ is two levels below it. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface StartServerOptions {
  /** wrangler config, relative to the project root or absolute. */
  config: string;
  /** Directory for local persistence (Durable Object storage). A fresh temp dir when omitted. */
  persistTo?: string;
  /** Milliseconds to wait for readiness. */
  readyTimeoutMs?: number;
  /** Variables and secrets for the Worker, written to a temporary env file (values may hold any characters). */
  vars?: Record<string, string>;
}

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  persistTo: string;
  pid: number;
  /** Everything the server printed so far (bounded to the last lines). */
  log(): string;
  /** How often wrangler reloaded because a source file changed while the server ran. */
  reloads(): number;
  /** Stops the whole process tree and waits until the port is closed. Idempotent. */
  stop(): Promise<void>;
}

const LOG_LIMIT = 400; // lines kept
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const live = new Set<ChildProcess>();

// If the test process goes away without afterAll (crash, Ctrl-C), do not leave workerd behind.
process.once("exit", () => {
  for (const child of live) killGroup(child, "SIGKILL");
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Creates a fresh temp directory for `--persist-to`. The caller removes it (see removeDir). */
export function makeTempDir(prefix = "a2a-edge-e2e-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A port that was free a moment ago (the OS picks it). */
async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      server.close(() => resolvePort(address.port));
    });
  });
}

async function freePortOtherThan(taken: number): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port !== taken) return port;
  }
}

/** True while something accepts TCP connections on 127.0.0.1:port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (open: boolean) => {
      socket.destroy();
      resolveOpen(open);
    };
    socket.setTimeout(1000, () => done(true)); // a hanging connect means something still listens
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `wrangler dev`. Ports are picked free just before wrangler binds them, so another process can
 * take one in between: that rare case ("Address already in use") is retried with fresh ports.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes("Address already in use")) throw error;
    }
  }
}

async function startServerOnce(options: StartServerOptions): Promise<RunningServer> {
  const config = resolve(PROJECT_ROOT, options.config);
  if (!existsSync(config)) throw new Error(`startServer: no wrangler config at ${config}`);
  const ownsPersistDir = options.persistTo === undefined;
  const persistTo = options.persistTo ?? makeTempDir();
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  const lines: string[] = [];
  let partial = "";
  let reloads = 0;
  const record = (chunk: Buffer) => {
    const text = partial + chunk.toString("utf8").replace(ANSI, "");
    const parts = text.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      if (line.includes("Reloading local server")) reloads++;
      lines.push(line);
    }
    if (lines.length > LOG_LIMIT) lines.splice(0, lines.length - LOG_LIMIT);
  };
  const log = () => [...lines, partial].join("\n");
  const tail = (n = 60) => [...lines.slice(-n), partial].join("\n");

  const bin = join(PROJECT_ROOT, "node_modules", ".bin");
  const args = [
    "dev",
    "--config", config,
    "--port", String(port),
    "--ip", "127.0.0.1",
    "--persist-to", persistTo,
    // A free port of its own, so parallel servers never collide on the default 9229. (Port 0 would do
    // that too, but then wrangler loses the Worker's console output, which the audit tests read.)
    "--inspector-port", String(await freePortOtherThan(port)),
    "--show-interactive-dev-session=false",
    "--log-level", "log", // "info" would hide the Worker's console.log lines (the audit log)
  ];
  if (options.vars) {
    const envFile = join(persistTo, "a2a-edge-test.env");
    // Single-quoted dotenv values are taken literally (a JWK's quotes and colons included).
    writeFileSync(envFile, Object.entries(options.vars).map(([key, value]) => `${key}='${value}'`).join("\n") + "\n");
    args.push("--env-file", envFile);
  }
  const child = spawn(join(bin, "wrangler"), args, {
    cwd: PROJECT_ROOT,
    detached: true, // own process group: stop() kills wrangler and its workerd children together
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ""}`, // node_modules/.bin/node is Node 22
      WRANGLER_SEND_METRICS: "false",
      NO_COLOR: "1",
      FORCE_COLOR: "0",
      CI: "1",
    },
  });
  if (child.pid === undefined) throw new Error("startServer: wrangler did not start (no pid)");
  live.add(child);
  child.stdout!.on("data", record);
  child.stderr!.on("data", record);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolveExit) => {
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      live.delete(child);
      resolveExit();
    });
  });

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      if (!exited) {
        killGroup(child, "SIGTERM");
        const graceful = await Promise.race([exitPromise.then(() => true), sleep(8_000).then(() => false)]);
        if (!graceful) killGroup(child, "SIGKILL");
        await Promise.race([exitPromise, sleep(5_000)]);
      }
      // wrangler may exit before its workerd children do: make sure the whole group is gone.
      killGroup(child, "SIGKILL");
      const deadline = Date.now() + 15_000;
      while (await portOpen(port)) {
        if (Date.now() > deadline) throw new Error(`stop(): port ${port} still open 15 s after killing the server\n${tail()}`);
        await sleep(100);
      }
      if (ownsPersistDir) removeDir(persistTo);
    })();
    return stopped;
  };

  // Readiness: the Agent Card answers, and it is ours (it names our port).
  const deadline = Date.now() + readyTimeoutMs;
  let lastProblem = "no answer yet";
  for (;;) {
    if (exited) {
      await stop().catch(() => {});
      throw new Error(
        `startServer: wrangler exited before it was ready (code ${exited.code}, signal ${exited.signal})\n--- server log tail ---\n${tail()}`,
      );
    }
    if (Date.now() > deadline) {
      await stop().catch(() => {});
      throw new Error(
        `startServer: not ready within ${readyTimeoutMs} ms on ${url} (last: ${lastProblem})\n--- server log tail ---\n${tail()}`,
      );
    }
    try {
      const response = await fetch(`${url}/.well-known/agent-card.json`, {
        headers: { "A2A-Version": "1.0" },
        signal: AbortSignal.timeout(2_000),
      });
      const text = await response.text();
      if (response.ok && text.includes(`:${port}`)) break;
      lastProblem = `HTTP ${response.status}: ${text.slice(0, 200)}`;
    } catch (error) {
      lastProblem = String((error as Error)?.cause ?? error);
    }
    await sleep(200);
  }

  return { url, port, persistTo, pid: child.pid, log, reloads: () => reloads, stop };
}
