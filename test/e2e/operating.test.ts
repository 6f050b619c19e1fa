/**
 * What an on-call engineer relies on, against the real local server: the audit log, rate limits per
 * caller, the health endpoint, tasks left waiting canceled, finished tasks purged after retention.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AClient, apiKey } from "../../src/client/index";
import { startServer, type RunningServer } from "./server";

let server: RunningServer;
const ALICE = { "x-api-key": "key-alice" };
const BOB = { "x-api-key": "key-bob" };

beforeAll(async () => {
  server = await startServer({ config: "test/wrangler.ops.toml" });
});
afterAll(async () => {
  await server?.stop();
});

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { "a2a-version": "1.0", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const message = (prefix: string, text = "hello") => ({ messageId: `${prefix}-${crypto.randomUUID()}`, role: "ROLE_USER", parts: [{ text }] });

function auditLines(): Record<string, any>[] {
  return server.log().split("\n").flatMap((line) => {
    const start = line.indexOf('{"time"');
    if (start < 0) return [];
    try {
      const entry = JSON.parse(line.slice(start));
      return entry.audit ? [entry] : [];
    } catch {
      return [];
    }
  });
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("operating", () => {
  it("logs one structured line per request, task, state change and artifact — never contents or credentials", async () => {
    const secret = `secret-message-text-${crypto.randomUUID()}`;
    const stream = await call("POST", "/message:stream", ALICE, { message: message("tck-stream-001", secret) });
    const text = await stream.text();
    const taskId = /"id":"([0-9a-f-]{36})"/.exec(text)![1]!;
    await call("GET", `/tasks/${taskId}`, { "x-api-key": "key-wrong" });

    const lines = await eventually(async () => {
      const found = auditLines().filter((l) => l.taskId === taskId);
      return found.length >= 4 ? found : undefined;
    });
    expect(lines.map((l) => (l.event === "task.state" ? `state:${l.state}` : l.event)))
      .toEqual(["task.received", "state:TASK_STATE_WORKING", "task.artifact", "state:TASK_STATE_COMPLETED"]);
    for (const line of lines) {
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
      expect(line).toMatchObject({ tenant: "", caller: "alice", contextId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    }
    expect(lines[2]).toMatchObject({ artifactId: expect.any(String), parts: 1, append: false, lastChunk: false });

    // Log lines reach us through wrangler's output, in their own time.
    const requests = await eventually(async () => {
      const found = auditLines().filter((l) => l.event === "request");
      return found.some((l) => l.operation === "SendStreamingMessage") && found.some((l) => l.outcome === "UNAUTHENTICATED") ? found : undefined;
    });
    const streamLine = requests.find((l) => l.operation === "SendStreamingMessage" && l.caller === "alice")!;
    expect(streamLine).toMatchObject({ binding: "rest", outcome: "ok", status: 200 });
    expect(typeof streamLine.latencyMs).toBe("number");
    expect(requests.find((l) => l.outcome === "UNAUTHENTICATED")).toMatchObject({ status: 401, caller: "anonymous", operation: "authenticate" });

    const everything = JSON.stringify(auditLines());
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain("Stream hello from TCK");
    expect(everything).not.toContain("key-alice");
    expect(everything).not.toContain("key-wrong");
  });

  it("rate-limits a burst from one caller with 429 and Retry-After, and leaves other callers alone", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    // More than two windows' worth (5 per 10 s): a burst that straddles a window boundary still hits the limit.
    for (let i = 0; i < 12; i++) {
      const response = await call("POST", "/message:send", ALICE, { message: message("tck-complete-task") });
      statuses.push(response.status);
      if (response.status === 429) {
        retryAfter = response.headers.get("retry-after");
        expect(((await response.json()) as any).error.details[0].reason).toBe("RATE_LIMIT_EXCEEDED");
      } else await response.body?.cancel();
    }
    expect(statuses).toContain(429);
    expect(retryAfter).toBe("10");
    const viaRpc = await fetch(`${server.url}/`, { method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0", ...ALICE }, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "SendMessage", params: { message: message("tck-complete-task") } }) });
    expect(viaRpc.headers.get("retry-after")).toBe("10");
    expect(((await viaRpc.json()) as any).error.data[0].reason).toBe("RATE_LIMIT_EXCEEDED");
    const bob = await call("POST", "/message:send", BOB, { message: message("tck-complete-task") });
    expect(bob.status).toBe(200);
    // Reads have their own limit.
    expect((await call("GET", "/tasks", ALICE)).status).toBe(200);
  });

  it("the client waits out a rate limit (Retry-After) and retries, so a burst still succeeds", async () => {
    const client = await A2AClient.connect(server.url, { credentials: apiKey("key-carol"), retryAfter: { maxWaitSeconds: 15 } });
    const started = Date.now();
    const states: string[] = [];
    // More than two windows' worth, so the limit is surely hit and waited out.
    for (let i = 0; i < 12; i++) {
      const result = await client.sendMessage({ message: message("tck-complete-task") as never });
      states.push("task" in result ? result.task.status.state : "message");
    }
    expect(states).toEqual(Array(12).fill("TASK_STATE_COMPLETED"));
    expect(Date.now() - started).toBeGreaterThan(5000); // it had to wait for the window to pass
    const impatient = await A2AClient.connect(server.url, { credentials: apiKey("key-carol"), retryAfter: false });
    const refused = await (async () => { for (let i = 0; i < 12; i++) await impatient.sendMessage({ message: message("tck-complete-task") as never }); })().catch((e: unknown) => e);
    expect(refused).toMatchObject({ reason: "RATE_LIMIT_EXCEEDED" });
  }, 60_000);

  it("answers /healthz without credentials, in milliseconds", async () => {
    const started = Date.now();
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body).toMatchObject({ status: "ok", checks: { durableObjects: "ok", push: "off", rateLimits: ["RATE_LIMIT_SEND", "RATE_LIMIT_READ", "RATE_LIMIT_STREAM"] } });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("cancels a task left waiting for input, and purges finished tasks from GetTask and ListTasks together", async () => {
    const waiting = ((await (await call("POST", "/message:send", BOB, { message: message("tck-input-required") })).json()) as any).task;
    expect(waiting.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    const canceled = await eventually(async () => {
      const task = (await (await call("GET", `/tasks/${waiting.id}`, BOB)).json()) as any;
      return task.status?.state === "TASK_STATE_CANCELED" ? task : undefined;
    });
    expect(canceled.status.message.parts[0].text).toMatch(/Canceled automatically: nobody answered within 2 s/);

    // Retention: 3 s after it ended, the task is gone from both GetTask and ListTasks.
    const gone = await eventually(async () => {
      const get = await call("GET", `/tasks/${waiting.id}`, BOB);
      return get.status === 404 ? get : (await get.body?.cancel(), undefined);
    });
    expect(((await gone.json()) as any).error.details[0].reason).toBe("TASK_NOT_FOUND");
    const listed = (await (await call("GET", `/tasks?pageSize=100`, BOB)).json()) as any;
    expect(listed.tasks.map((t: any) => t.id)).not.toContain(waiting.id);
  });
});
