/**
 * Test doubles around the real fetch: a recorder, a card rewriter (to serve a modified Agent Card), a
 * stream cutter (a proxy that drops SSE connections after N events), and a runner for the built CLI.
 */
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import type { Fetch } from "../../src/client/index";
import { PROJECT_ROOT } from "../e2e/server";

export const uid = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
  /** The JSON-RPC method, when the body is a JSON-RPC request. */
  rpc: string | undefined;
}

const urlOf = (input: Request | string | URL) => new URL(input instanceof Request ? input.url : String(input));

/** Records every request, then passes it on. */
export function recording(seen: SeenRequest[], inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const body = typeof init?.body === "string" ? init.body : undefined;
    let rpc: string | undefined;
    try {
      rpc = body ? (JSON.parse(body) as { method?: string }).method : undefined;
    } catch {
      rpc = undefined;
    }
    seen.push({ method: init?.method ?? "GET", url: urlOf(input), headers: new Headers(init?.headers), body, rpc });
    return inner(input, init);
  };
}

/** Serves the agent's real card after `edit` has changed it. */
export function rewriteCard(edit: (card: Record<string, any>) => void, inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!urlOf(input).pathname.endsWith("/agent-card.json") || !response.ok) return response;
    const card = (await response.json()) as Record<string, any>;
    edit(card);
    return new Response(JSON.stringify(card), { status: 200, headers: { "content-type": "application/json" } });
  };
}

export interface CutOptions {
  /** Complete SSE events let through on each stream before the cut. */
  afterEvents: number;
  /** `error`: the connection fails (like a reset); `close`: it ends cleanly (like an idle proxy's FIN). */
  mode: "error" | "close";
  /** Also let through the first bytes of a further event, which the client must drop. */
  partial?: boolean;
  /** Cut at most this many streams (default: all). */
  maxCuts?: number;
}

const encoder = new TextEncoder();

/** A proxy that drops every event stream after N events. `cuts` counts the streams it cut. */
export function cutStreams(options: CutOptions, inner: Fetch = fetch): Fetch & { cuts: number } {
  const cutter = (async (input: Request | string | URL, init?: RequestInit) => {
    const response = await inner(input, init);
    const type = response.headers.get("content-type") ?? "";
    if (!type.startsWith("text/event-stream") || !response.body || cutter.cuts >= (options.maxCuts ?? Infinity)) return response;
    const reader = response.body.getReader();
    let events = 0;
    let lastWasNewline = false;
    let done = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (done) return;
        const { done: ended, value } = await reader.read();
        if (ended) return controller.close();
        let cutAt = -1;
        for (let i = 0; i < value.length; i++) {
          const newline = value[i] === 10;
          if (newline && lastWasNewline && ++events === options.afterEvents) {
            cutAt = i + 1;
            break;
          }
          lastWasNewline = newline;
        }
        if (cutAt < 0) return controller.enqueue(value);
        done = true;
        cutter.cuts++;
        controller.enqueue(value.subarray(0, cutAt));
        if (options.partial) controller.enqueue(encoder.encode('id: 999999\ndata: {"statusUpdate":{"taskId":"x","contextId":"x","status":{"state":"TASK_STAT'));
        await reader.cancel().catch(() => {});
        if (options.mode === "error") controller.error(new TypeError("terminated"));
        else controller.close();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }) as Fetch & { cuts: number };
  cutter.cuts = 0;
  return cutter;
}

// ---- the CLI ------------------------------------------------------------------------------------

export const CLI = join(PROJECT_ROOT, "dist", "a2a.mjs");

/** Builds the CLI exactly as `npm run build` (and `prepare`) do. */
export function buildCli(): void {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: PROJECT_ROOT, stdio: "pipe" });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `a2a ARGS` with Node; `input` is written to stdin, which is then closed. */
export function runCli(args: string[], options: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", CI: "1", ...options.env };
    delete env.A2A_TOKEN;
    delete env.A2A_API_KEY;
    Object.assign(env, options.env);
    const child = spawn(process.execPath, [CLI, ...args], { cwd: PROJECT_ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`a2a ${args.join(" ")} did not finish within ${options.timeoutMs ?? 30_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}
