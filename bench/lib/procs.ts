/**
 * Child processes the harness starts: each in its own process group (`detached`), stopped by signalling
 * the group (TERM, then KILL), and all of them stopped on exit, SIGINT, SIGTERM or a crash.
 * Also: free loopback ports, waiting for a port, and the peak RSS of a process.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";

export interface Proc {
  name: string;
  pid: number;
  child: ChildProcess;
  /** The last lines it printed (stdout and stderr). */
  log(): string;
  stop(): Promise<void>;
}

const live = new Set<Proc>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

let handlersInstalled = false;
function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once("exit", () => {
    for (const p of live) killGroup(p.pid, "SIGKILL");
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping everything the bench started`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

/** Stops every process started here, except those in `keep`. */
export async function stopAll(keep: Proc[] = []): Promise<void> {
  await Promise.all([...live].filter((p) => !keep.includes(p)).map((p) => p.stop()));
}

export function start(name: string, command: string, args: string[], options: SpawnOptions = {}): Proc {
  installHandlers();
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const pid = child.pid;
  let stopping: Promise<void> | undefined;
  const proc: Proc = {
    name,
    pid,
    child,
    log: () => lines.join("\n"),
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          killGroup(pid, "SIGTERM");
          const timer = setTimeout(() => killGroup(pid, "SIGKILL"), 3000);
          await exited;
          clearTimeout(timer);
        }
        killGroup(pid, "SIGKILL"); // anything the process itself left in its group
        live.delete(proc);
      })();
      return stopping;
    },
  };
  live.add(proc);
  return proc;
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitForPort(port: number, proc: Proc, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited early:\n${proc.log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => { socket.destroy(); resolve(true); });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${proc.name} did not open port ${port} within ${timeoutMs} ms:\n${proc.log()}`);
}

function statusField(pid: number, field: string): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Peak RSS of one process while `body` runs: the kernel's high-water mark (VmHWM, reset first through
 * /proc/<pid>/clear_refs where allowed) and a 20 ms sample of VmRSS as a fallback. Bytes; undefined
 * where /proc is not available.
 */
export async function peakRss<T>(pid: number, body: () => Promise<T>): Promise<{ result: T; peakBytes: number | undefined }> {
  let reset = false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    reset = true;
  } catch {
    // Not allowed here: sampling only.
  }
  let sampled = statusField(pid, "VmRSS");
  const timer = setInterval(() => {
    const now = statusField(pid, "VmRSS");
    if (now !== undefined && (sampled === undefined || now > sampled)) sampled = now;
  }, 20);
  try {
    const result = await body();
    const hwm = reset ? statusField(pid, "VmHWM") : undefined;
    const peak = Math.max(hwm ?? 0, sampled ?? 0);
    return { result, peakBytes: peak > 0 ? peak : undefined };
  } finally {
    clearInterval(timer);
  }
}
