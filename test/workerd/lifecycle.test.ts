/** No task stays WORKING forever: executor errors, deadlines and restarts all end in FAILED with a reason. */
import { abortAllDurableObjects, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { A2AEnv } from "../../src/env";
import { ok, openStream, readEvents, shapeOf, uid, userMessage, waitForTask } from "./helpers";

const stubOf = (taskId: string) => (env as unknown as A2AEnv).TASKS.getByName(JSON.stringify(["", taskId]));

describe("task lifecycle", () => {
  it("an executor that throws fails the task with a message that leaks nothing", async () => {
    const { task } = await ok("jsonrpc", "SendMessage", { message: userMessage(uid("test-throw")) });
    expect(task.status.state).toBe("TASK_STATE_FAILED");
    const text = task.status.message.parts[0].text;
    expect(text).toBe("The agent failed while working on this task.");
    expect(JSON.stringify(task)).not.toContain("secret");
    expect(JSON.stringify(task)).not.toContain("agent.ts");
  });

  it("an executor that returns without a final state completes the task", async () => {
    const events = await readEvents(await openStream("rest", "SendStreamingMessage", { message: userMessage(uid("test-return-early")) }));
    expect(shapeOf(events)).toEqual(["task:SUBMITTED", "status:WORKING", "status:COMPLETED"]);
  });

  it("an executor past its deadline is aborted by the alarm and the task fails", async () => {
    const { task } = await ok("rest", "SendMessage", { message: userMessage(uid("test-hang")), configuration: { returnImmediately: true } });
    expect(task.status.state).toBe("TASK_STATE_SUBMITTED");
    // The deadline (EXECUTOR_TIMEOUT_MS=3000 in the test config) is armed as the object's alarm, which fires by itself.
    const alarm = await runInDurableObject(stubOf(task.id), (_i, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now());
    const failed = await waitForTask("rest", task.id, (t) => t.status.state !== "TASK_STATE_SUBMITTED", 6000);
    expect(failed.status.state).toBe("TASK_STATE_FAILED");
    expect(failed.status.message.parts[0].text).toBe("The agent did not finish within 3 s.");
  });

  it("a blocking send whose executor never answers gets the FAILED task at the deadline", async () => {
    const { task } = await ok("jsonrpc", "SendMessage", { message: userMessage(uid("test-hang")) });
    expect(task.status.state).toBe("TASK_STATE_FAILED");
  });

  it("an early alarm re-arms for the deadline and leaves the task running", async () => {
    const { task } = await ok("rest", "SendMessage", { message: userMessage(uid("test-slow"), "1500"), configuration: { returnImmediately: true } });
    expect(await runDurableObjectAlarm(stubOf(task.id))).toBe(true);
    expect((await ok("rest", "GetTask", { id: task.id })).status.state).toBe("TASK_STATE_WORKING");
    expect((await waitForTask("rest", task.id, (t) => t.status.state !== "TASK_STATE_WORKING")).status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("a task whose object restarted mid-run is FAILED on next access, with its history and events kept", async () => {
    const { task } = await ok("rest", "SendMessage", { message: userMessage(uid("test-slow"), "10000"), configuration: { returnImmediately: true } });
    expect((await ok("rest", "GetTask", { id: task.id })).status.state).toBe("TASK_STATE_WORKING");
    // A restart: every object instance is torn down at once, running executors with them.
    await abortAllDurableObjects();
    const after = await ok("rest", "GetTask", { id: task.id });
    expect(after.status.state).toBe("TASK_STATE_FAILED");
    expect(after.status.message.parts[0].text).toMatch(/stopped unexpectedly/);
    expect(after.history[0].messageId).toBe(task.history[0].messageId);
    const log = await readEvents(await openStream("rest", "SubscribeToTask", { id: task.id }, "0"));
    expect(shapeOf(log)).toEqual(["task:SUBMITTED", "status:WORKING", "status:FAILED"]);
    const listed = await ok("rest", "ListTasks", { contextId: task.contextId });
    expect(listed.tasks[0].status.state).toBe("TASK_STATE_FAILED");
  });

  it("a terminal task never changes again", async () => {
    const { task } = await ok("rest", "SendMessage", { message: userMessage(uid("tck-complete-task")) });
    await evictDurableObject(stubOf(task.id));
    expect(await ok("rest", "GetTask", { id: task.id })).toEqual(task);
  });
});
