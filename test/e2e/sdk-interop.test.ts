/**
 * Interoperability with the official A2A JS SDK (@a2a-js/sdk 1.x client): the real local server
 * (wrangler dev + workerd) driven over JSON-RPC and over HTTP+JSON, chosen from the Agent Card.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ListTasksRequest,
  SendMessageRequest,
  TaskState,
  type Part,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { startServer, type RunningServer } from "./server";
import { recordingFetch, type SeenRequest } from "./recording-fetch";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ config: "examples/conformance/wrangler.toml" });
});

afterAll(async () => {
  await server?.stop();
});

// ---------------------------------------------------------------------------------------------
// helpers

const uid = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

function sendRequest(messageId: string, extra: { contextId?: string; taskId?: string; returnImmediately?: boolean } = {}) {
  return SendMessageRequest.fromJSON({
    message: {
      messageId,
      role: "ROLE_USER",
      parts: [{ text: "hello from the e2e test" }],
      ...(extra.contextId ? { contextId: extra.contextId } : {}),
      ...(extra.taskId ? { taskId: extra.taskId } : {}),
    },
    ...(extra.returnImmediately ? { configuration: { returnImmediately: true } } : {}),
  });
}

const textOf = (parts: Part[] | undefined) =>
  (parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");

function asTask(result: unknown): Task {
  expect(result, "expected a Task, got a Message").toHaveProperty("status");
  return result as Task;
}

const TERMINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

async function collect(stream: AsyncIterable<StreamResponse>, timeoutMs = 20_000): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`stream did not end within ${timeoutMs} ms; got ${JSON.stringify(events.map(describeEvent))}`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([
      (async () => {
        for await (const event of stream) events.push(event);
      })(),
      timeout,
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  return events;
}

/** A short, comparable description of a stream event. */
function describeEvent(event: StreamResponse): string {
  const payload = event.payload;
  switch (payload?.$case) {
    case "task":
      return "task";
    case "message":
      return `message:${textOf(payload.value.parts)}`;
    case "statusUpdate":
      return `status:${TaskState[payload.value.status?.state ?? 0]}`;
    case "artifactUpdate":
      return `artifact:${textOf(payload.value.artifact?.parts)}`;
    default:
      return "empty";
  }
}

async function pollUntil(client: Client, id: string, state: TaskState, timeoutMs = 15_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  let task: Task;
  do {
    task = await client.getTask({ tenant: "", id });
    if (task.status?.state === state) return task;
    if (TERMINAL.has(task.status?.state as TaskState)) break;
    await new Promise((r) => setTimeout(r, 200));
  } while (Date.now() < deadline);
  throw new Error(`task ${id} is ${TaskState[task.status?.state ?? 0]}, expected ${TaskState[state]}`);
}

/** Awaits a rejection and checks it is the SDK's semantic A2A error (name, reason, wire code). */
async function expectA2AError(
  promise: Promise<unknown>,
  binding: string,
  expected: { name: string; reason: string; jsonRpcCode: number },
): Promise<void> {
  let error: unknown;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  expect(error, `expected ${expected.name}, but the call succeeded`).toBeInstanceOf(Error);
  const e = error as Error & { reason?: string; envelopeCode?: number; transport?: string };
  expect({ name: e.name, reason: e.reason, message: e.message }).toMatchObject({ name: expected.name, reason: expected.reason });
  if (binding === "JSONRPC") {
    expect(e.transport).toBe("jsonrpc");
    expect(e.envelopeCode).toBe(expected.jsonRpcCode);
  } else {
    expect(e.transport).toBe("rest");
  }
}

// ---------------------------------------------------------------------------------------------

describe.each(["JSONRPC", "HTTP+JSON"] as const)("official @a2a-js/sdk client over %s", (binding) => {
  const seen: SeenRequest[] = [];
  let client: Client;

  beforeAll(async () => {
    const fetchImpl = recordingFetch(seen);
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    });
    client = await factory.createFromUrl(server.url);
  });

  it("selects the binding from the Agent Card", () => {
    expect(client.transport.protocolName).toBe(binding);
    expect(client.protocolVersion).toBe("1.0");
    expect(seen[0]?.url).toBe(`${server.url}/.well-known/agent-card.json`);
  });

  it("SendMessage (blocking) completes with the agent's message", async () => {
    const messageId = uid("tck-complete-task");
    const task = asTask(await client.sendMessage(sendRequest(messageId)));
    expect(task.id).not.toBe("");
    expect(task.contextId).not.toBe("");
    expect(TaskState[task.status!.state]).toBe("TASK_STATE_COMPLETED");
    expect(textOf(task.status!.message?.parts)).toBe("Hello from TCK");
    expect(task.history.map((m) => m.messageId)).toContain(messageId);
  });

  it("SendMessage with returnImmediately answers in progress, GetTask polling then sees COMPLETED", async () => {
    const task = asTask(await client.sendMessage(sendRequest(uid("tck-delayed-complete"), { returnImmediately: true })));
    expect(["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"]).toContain(TaskState[task.status!.state]);
    const done = await pollUntil(client, task.id, TaskState.TASK_STATE_COMPLETED);
    expect(done.id).toBe(task.id);
    expect(textOf(done.status?.message?.parts)).toBe("Delayed completion from TCK");
  });

  it("SendStreamingMessage yields Task, WORKING, the artifact, COMPLETED in order", async () => {
    const events = await collect(client.sendMessageStream(sendRequest(uid("tck-stream-001"))));
    expect(events.map(describeEvent)).toEqual([
      "task",
      "status:TASK_STATE_WORKING",
      "artifact:Stream hello from TCK",
      "status:TASK_STATE_COMPLETED",
    ]);
    const first = events[0]!.payload as { $case: "task"; value: Task };
    const taskIds = events.map((e) => {
      const p = e.payload!;
      return p.$case === "task" ? p.value.id : p.$case === "message" ? p.value.taskId : p.value.taskId;
    });
    expect(new Set(taskIds)).toEqual(new Set([first.value.id]));
    // The streamed result is also what GetTask reports afterwards.
    const task = await client.getTask({ tenant: "", id: first.value.id });
    expect(TaskState[task.status!.state]).toBe("TASK_STATE_COMPLETED");
    expect(task.artifacts.map((a) => textOf(a.parts))).toEqual(["Stream hello from TCK"]);
  });

  it("GetTask honours historyLength", async () => {
    // Two turns on one task: INPUT_REQUIRED, then a follow-up that completes it.
    const first = uid("tck-input-required");
    const asked = asTask(await client.sendMessage(sendRequest(first)));
    expect(TaskState[asked.status!.state]).toBe("TASK_STATE_INPUT_REQUIRED");
    const second = uid("tck-complete-task");
    const done = asTask(await client.sendMessage(sendRequest(second, { taskId: asked.id, contextId: asked.contextId })));
    expect(done.id).toBe(asked.id);
    expect(TaskState[done.status!.state]).toBe("TASK_STATE_COMPLETED");

    const full = await client.getTask({ tenant: "", id: asked.id });
    const ids = full.history.map((m) => m.messageId);
    expect(ids).toContain(first);
    expect(ids).toContain(second);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));

    const none = await client.getTask({ tenant: "", id: asked.id, historyLength: 0 });
    expect(none.history).toEqual([]);
    expect(none.id).toBe(asked.id);

    const last = await client.getTask({ tenant: "", id: asked.id, historyLength: 1 });
    expect(last.history.map((m) => m.messageId)).toEqual([ids[ids.length - 1]]);
  });

  it("ListTasks finds the created tasks and filters by contextId", async () => {
    const contextId = crypto.randomUUID();
    const a = asTask(await client.sendMessage(sendRequest(uid("tck-complete-task"), { contextId })));
    const b = asTask(await client.sendMessage(sendRequest(uid("tck-artifact-text"), { contextId })));
    const other = asTask(await client.sendMessage(sendRequest(uid("tck-complete-task"))));
    expect(a.contextId).toBe(contextId);
    expect(b.contextId).toBe(contextId);
    expect(other.contextId).not.toBe(contextId);

    const inContext = await client.listTasks(ListTasksRequest.fromJSON({ contextId }));
    expect(inContext.tasks.map((t) => t.id).sort()).toEqual([a.id, b.id].sort());
    expect(inContext.totalSize).toBe(2);
    expect(inContext.nextPageToken).toBe("");
    for (const t of inContext.tasks) expect(t.contextId).toBe(contextId);

    const all = await client.listTasks(ListTasksRequest.fromJSON({ pageSize: 100 }));
    expect(all.tasks.map((t) => t.id)).toEqual(expect.arrayContaining([a.id, b.id, other.id]));
  });

  it("CancelTask cancels a running task", async () => {
    const task = asTask(await client.sendMessage(sendRequest(uid("test-resubscribe-message-id"), { returnImmediately: true })));
    expect(TERMINAL.has(task.status!.state)).toBe(false);
    const canceled = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(canceled.id).toBe(task.id);
    expect(TaskState[canceled.status!.state]).toBe("TASK_STATE_CANCELED");
    const after = await client.getTask({ tenant: "", id: task.id });
    expect(TaskState[after.status!.state]).toBe("TASK_STATE_CANCELED");
  });

  it("CancelTask on a completed task surfaces TaskNotCancelableError (-32002)", async () => {
    const task = asTask(await client.sendMessage(sendRequest(uid("tck-complete-task"))));
    expect(TaskState[task.status!.state]).toBe("TASK_STATE_COMPLETED");
    await expectA2AError(client.cancelTask({ tenant: "", id: task.id, metadata: undefined }), binding, {
      name: "TaskNotCancelableError",
      reason: "TASK_NOT_CANCELABLE",
      jsonRpcCode: -32002,
    });
    const after = await client.getTask({ tenant: "", id: task.id });
    expect(TaskState[after.status!.state]).toBe("TASK_STATE_COMPLETED");
  });

  it("SubscribeToTask (resubscribe) starts with the Task snapshot and ends at COMPLETED", async () => {
    const task = asTask(await client.sendMessage(sendRequest(uid("test-resubscribe-message-id"), { returnImmediately: true })));
    const events = await collect(client.resubscribeTask({ tenant: "", id: task.id }));
    expect(events.length).toBeGreaterThanOrEqual(2);
    const first = events[0]!.payload;
    expect(first?.$case).toBe("task");
    if (first?.$case !== "task") return;
    expect(first.value.id).toBe(task.id);
    expect(TERMINAL.has(first.value.status!.state)).toBe(false);
    expect(describeEvent(events[events.length - 1]!)).toBe("status:TASK_STATE_COMPLETED");
    const lastPayload = events[events.length - 1]!.payload;
    expect(lastPayload?.$case === "statusUpdate" && lastPayload.value.taskId).toBe(task.id);
    expect(textOf(lastPayload?.$case === "statusUpdate" ? lastPayload.value.status?.message?.parts : [])).toBe(
      "Resubscribe test complete",
    );
  });

  it("an unknown task id surfaces TaskNotFoundError (-32001) on GetTask, CancelTask and SubscribeToTask", async () => {
    const id = crypto.randomUUID();
    const notFound = { name: "TaskNotFoundError", reason: "TASK_NOT_FOUND", jsonRpcCode: -32001 };
    await expectA2AError(client.getTask({ tenant: "", id }), binding, notFound);
    await expectA2AError(client.cancelTask({ tenant: "", id, metadata: undefined }), binding, notFound);
    await expectA2AError(collect(client.resubscribeTask({ tenant: "", id })), binding, notFound);
  });

  it("every request the SDK made carried A2A-Version: 1.0 and used the chosen binding", () => {
    const calls = seen.slice(1); // [0] is the Agent Card
    expect(calls.length).toBeGreaterThan(20);
    for (const call of seen) expect(call.version, `${call.method} ${call.url}`).toBe("1.0");
    if (binding === "JSONRPC") {
      for (const call of calls) {
        expect(call.method).toBe("POST");
        expect(call.url).toBe(`${server.url}/`);
        expect(JSON.parse(call.body ?? "{}")).toMatchObject({ jsonrpc: "2.0" });
      }
    } else {
      for (const call of calls) expect(call.url).toMatch(new RegExp(`^${server.url}/(message:(send|stream)|tasks)`));
      expect(calls.some((c) => c.url.endsWith("/message:send"))).toBe(true);
      expect(calls.some((c) => c.url.endsWith("/message:stream"))).toBe(true);
      expect(calls.some((c) => c.url.endsWith(":subscribe"))).toBe(true);
    }
  });
});
