/** Every operation over both bindings, with identical results (reference §1, §4). */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { A2AEnv } from "../../src/env";
import worker from "../fixtures/test-agent";
import { BASE, BINDINGS, call, ok, openStream, readEvents, shapeOf, uid, userMessage, waitForTask } from "./helpers";

describe.each(BINDINGS)("operations over %s", (binding) => {
  describe("SendMessage", () => {
    it("creates a task with server-minted ids and blocks until it completes", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task")) });
      expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(task.contextId).toMatch(/^[0-9a-f-]{36}$/);
      expect(task.status.state).toBe("TASK_STATE_COMPLETED");
      expect(task.status.message.parts[0].text).toBe("Hello from TCK");
      expect(task.status.message.role).toBe("ROLE_AGENT");
      expect(task.status.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(task.history[0].role).toBe("ROLE_USER");
      expect(task.history[0].taskId).toBe(task.id);
    });

    it("keeps a client-given contextId", async () => {
      const contextId = uid("ctx");
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task"), "x", { contextId }) });
      expect(task.contextId).toBe(contextId);
    });

    it("returns at once with returnImmediately, and the task finishes on its own", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-delayed-complete")), configuration: { returnImmediately: true } });
      expect(["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"]).toContain(task.status.state);
      const done = await waitForTask(binding, task.id, (t) => t.status.state === "TASK_STATE_COMPLETED");
      expect(done.status.message.parts[0].text).toBe("Delayed completion from TCK");
    });

    it("treats the legacy blocking:false as returnImmediately", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-delayed-complete")), configuration: { blocking: false } });
      expect(task.status.state).not.toBe("TASK_STATE_COMPLETED");
    });

    it("answers with a bare Message when the agent does, and stores no task", async () => {
      const result = await ok(binding, "SendMessage", { message: userMessage(uid("tck-message-response")) });
      expect(result.task).toBeUndefined();
      expect(result.message.parts[0].text).toBe("Direct message response");
      expect(result.message.role).toBe("ROLE_AGENT");
    });

    it("answers with a bare Message sent after an await", async () => {
      const result = await ok(binding, "SendMessage", { message: userMessage(uid("test-late-reply")) });
      expect(result.message.parts[0].text).toBe("replied after a pause");
      const streamed = await readEvents(await openStream(binding, "SendStreamingMessage", { message: userMessage(uid("test-late-reply")) }));
      expect(shapeOf(streamed)).toEqual(["message"]);
    });

    it("returns artifacts of every part kind", async () => {
      const text = (await ok(binding, "SendMessage", { message: userMessage(uid("tck-artifact-text")) })).task;
      expect(text.artifacts[0].parts).toEqual([{ text: "Generated text content" }]);
      const file = (await ok(binding, "SendMessage", { message: userMessage(uid("tck-artifact-file")) })).task;
      expect(file.artifacts[0].parts[0]).toEqual({ raw: btoa("tck"), filename: "output.txt", mediaType: "text/plain" });
      const url = (await ok(binding, "SendMessage", { message: userMessage(uid("tck-artifact-file-url")) })).task;
      expect(url.artifacts[0].parts[0].url).toBe("https://example.com/output.txt");
      const data = (await ok(binding, "SendMessage", { message: userMessage(uid("tck-artifact-data")) })).task;
      expect(data.artifacts[0].parts[0].data).toEqual({ key: "value", count: 42 });
    });

    it("continues an INPUT_REQUIRED task with the same taskId and contextId", async () => {
      const first = (await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "one") })).task;
      expect(first.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
      const second = (await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "two", { taskId: first.id }) })).task;
      expect(second.id).toBe(first.id);
      expect(second.contextId).toBe(first.contextId);
      expect(second.status.message.parts[0].text).toBe("turn 2: two");
      const last = (await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "done", { taskId: first.id, contextId: first.contextId }) })).task;
      expect(last.status.state).toBe("TASK_STATE_COMPLETED");
      expect(last.history.filter((m: any) => m.role === "ROLE_USER").map((m: any) => m.parts[0].text)).toEqual(["one", "two", "done"]);
    });

    it("refuses a taskId that does not exist, a mismatched contextId and a terminal task", async () => {
      const missing = await call(binding, "SendMessage", { message: userMessage(uid("m"), "x", { taskId: crypto.randomUUID() }) });
      expect(missing.error).toMatchObject({ code: binding === "rest" ? 404 : -32001, reason: "TASK_NOT_FOUND" });

      const open = (await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "one") })).task;
      const mismatch = await call(binding, "SendMessage", { message: userMessage(uid("m"), "x", { taskId: open.id, contextId: "other" }) });
      expect(mismatch.error).toMatchObject({ reason: "INVALID_PARAMS", httpStatus: binding === "rest" ? 400 : 200 });

      const done = (await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task")) })).task;
      const terminal = await call(binding, "SendMessage", { message: userMessage(uid("m"), "x", { taskId: done.id }) });
      expect(terminal.error).toMatchObject({ code: binding === "rest" ? 400 : -32004, reason: "UNSUPPORTED_OPERATION" });
      // Nothing about the finished task changed.
      expect(await ok(binding, "GetTask", { id: done.id })).toEqual(done);
    });

    it("ends REJECTED when the agent rejects", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-reject-task")) });
      expect(task.status.state).toBe("TASK_STATE_REJECTED");
    });

    it("honours historyLength on the result", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task")), configuration: { historyLength: 0 } });
      expect(task.history).toBeUndefined();
    });
  });

  describe("GetTask", () => {
    it("returns the task, with historyLength unset = all, 0 = none, N = last N", async () => {
      const first = (await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "a") })).task;
      await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "b", { taskId: first.id }) });
      const all = await ok(binding, "GetTask", { id: first.id });
      expect(all.history.length).toBe(3); // a, the agent's question (moved to history), b
      expect((await ok(binding, "GetTask", { id: first.id, historyLength: 0 })).history).toBeUndefined();
      const lastOne = await ok(binding, "GetTask", { id: first.id, historyLength: 1 });
      expect(lastOne.history).toEqual([all.history[2]]);
    });

    it("refuses a negative historyLength and an unknown id", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task")) });
      expect((await call(binding, "GetTask", { id: task.id, historyLength: -1 })).error).toMatchObject({ reason: "INVALID_PARAMS" });
      expect((await call(binding, "GetTask", { id: crypto.randomUUID() })).error).toMatchObject({ reason: "TASK_NOT_FOUND", httpStatus: binding === "rest" ? 404 : 200 });
    });
  });

  describe("CancelTask", () => {
    it("cancels a running task, runs the agent's cancel, and is idempotent once CANCELED", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("test-slow"), "5000"), configuration: { returnImmediately: true } });
      const canceled = await ok(binding, "CancelTask", { id: task.id });
      expect(canceled.status.state).toBe("TASK_STATE_CANCELED");
      const again = await ok(binding, "CancelTask", { id: task.id });
      expect(again.status).toEqual(canceled.status);
      // The executor stopped: nothing changes after cancel.
      await new Promise((r) => setTimeout(r, 100));
      expect((await ok(binding, "GetTask", { id: task.id })).status).toEqual(canceled.status);
    });

    it("cancels an INPUT_REQUIRED task", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-input-required")) });
      expect((await ok(binding, "CancelTask", { id: task.id })).status.state).toBe("TASK_STATE_CANCELED");
    });

    it("refuses a completed task with TaskNotCancelable and an unknown one with TaskNotFound", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task")) });
      expect((await call(binding, "CancelTask", { id: task.id })).error).toMatchObject({ code: binding === "rest" ? 400 : -32002, reason: "TASK_NOT_CANCELABLE" });
      expect((await call(binding, "CancelTask", { id: crypto.randomUUID() })).error).toMatchObject({ reason: "TASK_NOT_FOUND" });
    });
  });

  describe("ListTasks", () => {
    it("lists newest first, filters by context and state, pages with an opaque token", async () => {
      const contextId = uid("list-ctx");
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { task } = await ok(binding, "SendMessage", { message: userMessage(uid(i === 4 ? "tck-input-required" : "tck-artifact-text"), "x", { contextId }) });
        ids.push(task.id);
      }
      const page1 = await ok(binding, "ListTasks", { contextId, pageSize: 2 });
      expect(page1.totalSize).toBe(5);
      expect(page1.pageSize).toBe(2);
      expect(page1.tasks.map((t: any) => t.id)).toEqual([ids[4], ids[3]]);
      expect(page1.nextPageToken).not.toBe("");
      expect(page1.tasks[0].artifacts).toBeUndefined();
      const page2 = await ok(binding, "ListTasks", { contextId, pageSize: 2, pageToken: page1.nextPageToken });
      const page3 = await ok(binding, "ListTasks", { contextId, pageSize: 2, pageToken: page2.nextPageToken });
      expect([...page2.tasks, ...page3.tasks].map((t: any) => t.id)).toEqual([ids[2], ids[1], ids[0]]);
      expect(page3.nextPageToken).toBe("");

      const waiting = await ok(binding, "ListTasks", { contextId, status: "TASK_STATE_INPUT_REQUIRED" });
      expect(waiting.tasks.map((t: any) => t.id)).toEqual([ids[4]]);
      expect(waiting.totalSize).toBe(1);

      const withArtifacts = await ok(binding, "ListTasks", { contextId, includeArtifacts: true, pageSize: 5 });
      expect(withArtifacts.tasks[1].artifacts[0].parts[0].text).toBe("Generated text content");
      expect(withArtifacts.tasks[0].artifacts).toEqual([]);
    });

    it("filters by statusTimestampAfter (inclusive) and defaults to 50 per page", async () => {
      const contextId = uid("list-time");
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task"), "x", { contextId }) });
      const at = task.status.timestamp;
      const same = await ok(binding, "ListTasks", { contextId, statusTimestampAfter: at });
      expect(same.tasks.map((t: any) => t.id)).toEqual([task.id]);
      expect(same.pageSize).toBe(50);
      const later = await ok(binding, "ListTasks", { contextId, statusTimestampAfter: new Date(Date.parse(at) + 1).toISOString() });
      expect(later.tasks).toEqual([]);
      expect(later.nextPageToken).toBe("");
      expect(later.totalSize).toBe(0);
    });

    it("refuses pageSize out of range and a forged pageToken", async () => {
      for (const pageSize of [0, 101]) {
        expect((await call(binding, "ListTasks", { pageSize })).error).toMatchObject({ reason: "INVALID_PARAMS" });
      }
      expect((await call(binding, "ListTasks", { pageToken: "not-a-token" })).error).toMatchObject({ reason: "INVALID_PARAMS" });
    });
  });

  describe("tenants", () => {
    it("keeps tenants apart: another tenant's task is TaskNotFound and never listed", async () => {
      const tenant = uid("tenant");
      const { task } = await ok(binding, "SendMessage", { tenant, message: userMessage(uid("test-whoami")) });
      expect(task.status.message.parts[0].text).toBe(`caller=anonymous tenant=${tenant}`);
      expect((await ok(binding, "GetTask", { tenant, id: task.id })).id).toBe(task.id);
      expect((await call(binding, "GetTask", { id: task.id })).error).toMatchObject({ reason: "TASK_NOT_FOUND" });
      expect((await call(binding, "GetTask", { tenant: uid("other"), id: task.id })).error).toMatchObject({ reason: "TASK_NOT_FOUND" });
      const listed = await ok(binding, "ListTasks", { tenant });
      expect(listed.tasks.map((t: any) => t.id)).toEqual([task.id]);
    });
  });

  describe("capabilities the agent does not have", () => {
    it("without a push queue: the card says so and the push methods answer PushNotificationNotSupported", async () => {
      // The same Worker, given an environment without the queue binding.
      const noPush = { ...(env as object), PUSH_QUEUE: undefined } as unknown as A2AEnv;
      const send = (method: string, params: Record<string, unknown>) => worker.fetch(new Request(`${BASE}/`, {
        method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }), noPush).then((r) => r.json() as Promise<any>);
      const card = (await (await worker.fetch(new Request(`${BASE}/.well-known/agent-card.json`), noPush)).json()) as any;
      expect(card.capabilities.pushNotifications).toBe(false);
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task")) });
      for (const [method, params] of [
        ["CreateTaskPushNotificationConfig", { taskId: task.id, url: "https://example.com/hook" }],
        ["GetTaskPushNotificationConfig", { taskId: task.id, id: "c1" }],
        ["ListTaskPushNotificationConfigs", { taskId: task.id }],
        ["DeleteTaskPushNotificationConfig", { taskId: task.id, id: "c1" }],
        ["SendMessage", { message: userMessage(uid("tck-complete-task")), configuration: { taskPushNotificationConfig: { url: "https://example.com/hook" } } }],
      ] as const) {
        expect((await send(method, params)).error, method).toMatchObject({ code: -32003, data: [{ reason: "PUSH_NOTIFICATION_NOT_SUPPORTED" }] });
      }
    });

    it("answers UnsupportedOperation for GetExtendedAgentCard", async () => {
      expect((await call(binding, "GetExtendedAgentCard", {})).error).toMatchObject({ code: binding === "rest" ? 400 : -32004, reason: "UNSUPPORTED_OPERATION" });
    });
  });

  describe("SendStreamingMessage and SubscribeToTask", () => {
    it("streams the Task first, then updates in order, and closes at COMPLETED", async () => {
      const events = await readEvents(await openStream(binding, "SendStreamingMessage", { message: userMessage(uid("tck-stream-001")) }));
      expect(shapeOf(events)).toEqual(["task:SUBMITTED", "status:WORKING", "artifact", "status:COMPLETED"]);
      expect(events[2].data.artifactUpdate.artifact.parts[0].text).toBe("Stream hello from TCK");
      expect(events.map((e) => Number(e.id))).toEqual([1, 2, 3, 4]);
      const taskId = events[0].data.task.id;
      for (const e of events.slice(1)) expect(Object.values(e.data as object)[0].taskId).toBe(taskId);
    });

    it("streams exactly one Message for a message reply", async () => {
      const events = await readEvents(await openStream(binding, "SendStreamingMessage", { message: userMessage(uid("tck-message-response")) }));
      expect(shapeOf(events)).toEqual(["message"]);
    });

    it("closes the stream at INPUT_REQUIRED, and streams the continuation from a Task snapshot", async () => {
      const first = await readEvents(await openStream(binding, "SendStreamingMessage", { message: userMessage(uid("test-converse"), "one") }));
      expect(shapeOf(first)).toEqual(["task:SUBMITTED", "status:INPUT_REQUIRED"]);
      const taskId = first[0].data.task.id;
      const second = await readEvents(await openStream(binding, "SendStreamingMessage", { message: userMessage(uid("test-converse"), "done", { taskId }) }));
      expect(shapeOf(second)).toEqual(["task:INPUT_REQUIRED", "status:COMPLETED"]);
      expect(second[0].data.task.history.at(-1).parts[0].text).toBe("done");
      expect(second[0].id).toBe("2");
      expect(second[1].id).toBe("3");
    });

    it.each(["GET", "POST"] as const)("SubscribeToTask (REST %s) starts with the current Task and follows to the end", async (verb) => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("test-chunks"), "5"), configuration: { returnImmediately: true } });
      const events = await readEvents(await openStream(binding, "SubscribeToTask", { id: task.id }, undefined, verb));
      expect(events[0].data.task.id).toBe(task.id);
      expect(shapeOf(events).at(-1)).toBe("status:COMPLETED");
      const ids = events.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      // Snapshot + live events = the whole task: the chunks seen plus those in the snapshot make 5.
      const final = await ok(binding, "GetTask", { id: task.id });
      expect(final.artifacts[0].parts.map((p: any) => p.text).join("")).toBe("c0;c1;c2;c3;c4;");
    });

    it("a subscription stays open through INPUT_REQUIRED and follows the task to its end", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "one") });
      const stream = openStream(binding, "SubscribeToTask", { id: task.id }).then((r) => readEvents(r));
      await new Promise((r) => setTimeout(r, 50));
      await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "two", { taskId: task.id }) });
      await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "done", { taskId: task.id }) });
      expect(shapeOf(await stream)).toEqual(["task:INPUT_REQUIRED", "status:INPUT_REQUIRED", "status:COMPLETED"]);
    });

    it("refuses to subscribe to a terminal task, or to an unknown one", async () => {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-complete-task")) });
      const terminal = await openStream(binding, "SubscribeToTask", { id: task.id });
      expect(terminal.headers.get("content-type")).toContain("json");
      const body = (await terminal.json()) as any;
      expect(binding === "rest" ? body.error.details[0].reason : body.error.data[0].reason).toBe("UNSUPPORTED_OPERATION");
      const unknown = await openStream(binding, "SubscribeToTask", { id: crypto.randomUUID() });
      expect(unknown.status).toBe(binding === "rest" ? 404 : 200);
    });
  });
});
