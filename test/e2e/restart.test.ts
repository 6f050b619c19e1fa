/**
 * Durability across a process restart: tasks are created on one `wrangler dev` process, the process
 * tree is stopped, and a NEW process on the same --persist-to directory must report identical tasks,
 * history, artifacts and event logs. A task that was still running when the process stopped must come
 * back as TASK_STATE_FAILED with a status message, never stuck in WORKING.
 *
 * Plain fetch over HTTP+JSON only, so what is checked is exactly what is on the wire.
 */
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeDir, startServer, type RunningServer } from "./server";

const CONFIG = "examples/conformance/wrangler.toml";
const persistTo = makeTempDir("a2a-edge-e2e-restart-");
const started: RunningServer[] = [];

afterAll(async () => {
  for (const server of started) await server.stop().catch(() => {});
  removeDir(persistTo);
});

// ---------------------------------------------------------------------------------------------
// wire helpers

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const HEADERS = { "A2A-Version": "1.0", "Content-Type": "application/json" };
const uid = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

function userMessage(messageId: string, extra: Record<string, string> = {}) {
  return { messageId, role: "ROLE_USER", parts: [{ text: "hello from the restart test" }], ...extra };
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...HEADERS, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} -> HTTP ${response.status}: ${text}`);
  return JSON.parse(text);
}

async function send(base: string, messageId: string, options: { returnImmediately?: boolean; taskId?: string; contextId?: string } = {}): Promise<Json> {
  const extra: Record<string, string> = {};
  if (options.taskId) extra.taskId = options.taskId;
  if (options.contextId) extra.contextId = options.contextId;
  const body = await call(base, "POST", "/message:send", {
    message: userMessage(messageId, extra),
    ...(options.returnImmediately ? { configuration: { returnImmediately: true } } : {}),
  });
  expect(body, `SendMessage ${messageId} answered ${JSON.stringify(body)}`).toHaveProperty("task");
  return body.task;
}

const getTask = (base: string, id: string): Promise<Json> => call(base, "GET", `/tasks/${encodeURIComponent(id)}`);

interface SseEvent {
  id: string | undefined;
  data: Json;
}

/** POSTs and reads a whole SSE response (it must end by itself), keeping each event's `id:`. */
async function readSse(base: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<SseEvent[]> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { ...HEADERS, Accept: "text/event-stream", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} -> HTTP ${response.status}: ${text}`);
  expect(response.headers.get("content-type") ?? "").toMatch(/^text\/event-stream/);
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("id:")) id = line.slice(3).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length > 0) events.push({ id, data: JSON.parse(data.join("\n")) });
  }
  return events;
}

/** SubscribeToTask from the start of the event log: `Last-Event-ID: 0` replays every stored event. */
const replay = (base: string, id: string) => readSse(base, `/tasks/${encodeURIComponent(id)}:subscribe`, undefined, { "Last-Event-ID": "0" });

const kind = (event: SseEvent): string => {
  const d = event.data;
  if (d.task) return `task:${d.task.status?.state}`;
  if (d.statusUpdate) return `status:${d.statusUpdate.status?.state}`;
  if (d.artifactUpdate) return `artifact:${d.artifactUpdate.artifact?.parts?.map((p: Json) => p.text).join("")}`;
  if (d.message) return "message";
  return "unknown";
};

const textOf = (message: Json): string => (message?.parts ?? []).map((p: Json) => p.text ?? "").join("");

// ---------------------------------------------------------------------------------------------

describe("restart on the same --persist-to directory", () => {
  let first: RunningServer;
  let second: RunningServer;

  // What the first process reported.
  let artifactTask: Json; // tck-artifact-text, COMPLETED
  let inputTask: Json; // tck-input-required, INPUT_REQUIRED
  let streamedTaskId: string; // tck-stream-artifact-chunked
  let streamedEvents: SseEvent[]; // as the SendStreamingMessage stream delivered them
  let runningTask: Json; // test-resubscribe-message-id, in progress when the process stopped
  const before = new Map<string, { task: Json; replay?: SseEvent[] }>();

  it("first process: creates a completed task with an artifact, an INPUT_REQUIRED task and a streamed task", async () => {
    first = await startServer({ config: CONFIG, persistTo });
    started.push(first);
    expect(first.persistTo).toBe(persistTo);

    artifactTask = await send(first.url, uid("tck-artifact-text"));
    expect(artifactTask.status.state).toBe("TASK_STATE_COMPLETED");
    expect(artifactTask.artifacts?.map((a: Json) => textOf(a))).toEqual(["Generated text content"]);

    inputTask = await send(first.url, uid("tck-input-required"));
    expect(inputTask.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(textOf(inputTask.status.message)).toBe("Please provide more input");

    streamedEvents = await readSse(first.url, "/message:stream", { message: userMessage(uid("tck-stream-artifact-chunked")) });
    expect(streamedEvents.map(kind)).toEqual([
      "task:TASK_STATE_SUBMITTED",
      "status:TASK_STATE_WORKING",
      "artifact:chunk-1 ",
      "artifact:chunk-2",
      "status:TASK_STATE_COMPLETED",
    ]);
    // Every event has an id, and the ids increase.
    const ids = streamedEvents.map((e) => Number(e.id));
    for (const id of ids) expect(Number.isInteger(id)).toBe(true);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    streamedTaskId = streamedEvents[0]!.data.task.id;

    for (const id of [artifactTask.id, inputTask.id, streamedTaskId]) before.set(id, { task: await getTask(first.url, id) });
    for (const id of [artifactTask.id, streamedTaskId]) before.get(id)!.replay = await replay(first.url, id);

    // The replay of the streamed task is exactly what the live stream delivered (ids included).
    expect(before.get(streamedTaskId)!.replay).toEqual(streamedEvents);
    const chunked = before.get(streamedTaskId)!.task;
    expect(chunked.status.state).toBe("TASK_STATE_COMPLETED");
    expect(chunked.artifacts).toHaveLength(1);
    expect(chunked.artifacts[0].parts.map((p: Json) => p.text)).toEqual(["chunk-1 ", "chunk-2"]);
  });

  it("first process: a task still running when the process stops", async () => {
    runningTask = await send(first.url, uid("test-resubscribe-message-id"), { returnImmediately: true });
    expect(["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"]).toContain(runningTask.status.state);
    // Stop at once: the agent needs ~4 s to finish.
    await first.stop();
    // stop() only returns when the port is closed; the first process is gone.
    await expect(fetch(`${first.url}/.well-known/agent-card.json`, { headers: HEADERS })).rejects.toThrow();
  });

  it("second process on the same directory starts", async () => {
    second = await startServer({ config: CONFIG, persistTo });
    started.push(second);
    expect(second.pid).not.toBe(first.pid);
  });

  it("ListTasks reports the interrupted task as FAILED without anyone opening the task first", async () => {
    // Nothing has touched the task on the new process yet: what ListTasks says comes from the index.
    // A client that only lists must not see a dead run as WORKING (the design's "never stuck in
    // WORKING"); a watchdog gets a bounded moment to notice.
    const path = `/tasks?contextId=${encodeURIComponent(runningTask.contextId)}`;
    const deadline = Date.now() + 10_000;
    let listed = await call(second.url, "GET", path);
    while (listed.tasks?.[0]?.status?.state !== "TASK_STATE_FAILED" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      listed = await call(second.url, "GET", path);
    }
    expect(listed.tasks.map((t: Json) => [t.id, t.status.state]), `ListTasks ${path} 10 s after restart: ${JSON.stringify(listed)}`).toEqual([
      [runningTask.id, "TASK_STATE_FAILED"],
    ]);
  });

  it("tasks, history and artifacts are identical after the restart", async () => {
    expect(before.size).toBe(3);
    for (const [id, saved] of before) {
      const now = await getTask(second.url, id);
      expect(now, `GetTask ${id} after restart`).toEqual(saved.task);
    }
    const chunked = await getTask(second.url, streamedTaskId);
    expect(chunked.artifacts[0].parts.map((p: Json) => p.text)).toEqual(["chunk-1 ", "chunk-2"]);
    const artifact = await getTask(second.url, artifactTask.id);
    expect(artifact.artifacts.map((a: Json) => textOf(a))).toEqual(["Generated text content"]);
    expect(artifact.history.map((m: Json) => m.messageId)).toEqual(artifactTask.history.map((m: Json) => m.messageId));
    const input = await getTask(second.url, inputTask.id);
    expect(input.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(textOf(input.status.message)).toBe("Please provide more input");
  });

  it("event logs replay identically after the restart (Last-Event-ID: 0)", async () => {
    for (const id of [artifactTask.id, streamedTaskId]) {
      const saved = before.get(id)!.replay!;
      expect(saved.length).toBeGreaterThanOrEqual(3);
      const now = await replay(second.url, id);
      expect(now, `replay of ${id} after restart`).toEqual(saved);
    }
    expect(await replay(second.url, streamedTaskId)).toEqual(streamedEvents);
    const artifactKinds = before.get(artifactTask.id)!.replay!.map(kind);
    expect(artifactKinds[0]).toMatch(/^task:/);
    expect(artifactKinds).toContain("artifact:Generated text content");
    expect(artifactKinds[artifactKinds.length - 1]).toBe("status:TASK_STATE_COMPLETED");
  });

  it("a task that was running when the process stopped is FAILED with a status message, not stuck", async () => {
    // The very first read on the new process must already say FAILED (the start-up check runs before
    // the task object answers anything), never WORKING/SUBMITTED.
    const task = await getTask(second.url, runningTask.id);
    expect(task.status.state, `task after restart: ${JSON.stringify(task.status)}`).toBe("TASK_STATE_FAILED");
    expect(task.status.message?.role).toBe("ROLE_AGENT");
    expect(textOf(task.status.message).length).toBeGreaterThan(0);

    // The failure is an event in the log too, so subscribers learn it; it is the last one.
    const events = await replay(second.url, runningTask.id);
    expect(kind(events[events.length - 1]!)).toBe("status:TASK_STATE_FAILED");
    expect(events.map(kind)).not.toContain("status:TASK_STATE_COMPLETED");

    // ListTasks (the index) agrees with the task.
    const listed = await call(second.url, "GET", `/tasks?contextId=${encodeURIComponent(runningTask.contextId)}`);
    expect(listed.tasks.map((t: Json) => [t.id, t.status.state])).toEqual([[runningTask.id, "TASK_STATE_FAILED"]]);
  });

  it("ListTasks still lists the tasks created before the restart", async () => {
    const listed = await call(second.url, "GET", "/tasks?pageSize=100");
    const byId = new Map<string, Json>(listed.tasks.map((t: Json) => [t.id, t]));
    for (const [id, saved] of before) {
      expect(byId.has(id), `task ${id} listed after restart`).toBe(true);
      expect(byId.get(id).status).toEqual(saved.task.status);
    }
  });

  it("the INPUT_REQUIRED task can be continued on the new process", async () => {
    const followUp = uid("tck-complete-task");
    const task = await send(second.url, followUp, { taskId: inputTask.id, contextId: inputTask.contextId });
    expect(task.id).toBe(inputTask.id);
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(textOf(task.status.message)).toBe("Hello from TCK");
    const ids = task.history.map((m: Json) => m.messageId);
    const firstId = inputTask.history[0].messageId;
    expect(ids).toContain(firstId);
    expect(ids).toContain(followUp);
    expect(ids.indexOf(firstId)).toBeLessThan(ids.indexOf(followUp));
  });
});
