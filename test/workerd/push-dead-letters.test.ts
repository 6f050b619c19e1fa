/** The queue handler: messages that reach the dead-letter queue are recorded with their task as given up. */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { A2AEnv } from "../../src/env";
import worker from "../fixtures/test-agent";
import { ok, uid, userMessage } from "./helpers";

describe("dead letters", () => {
  it("records a dead-lettered notification as dead in the task's delivery log", async () => {
    const { task } = await ok("rest", "SendMessage", { message: userMessage(uid("tck-complete-task")), configuration: { taskPushNotificationConfig: { id: "hook", url: "https://hooks.example.com/a2a" } } });
    const batch = createMessageBatch("a2a-push-dlq", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { tenant: "", taskId: task.id, configId: "hook", seq: 2 } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch as MessageBatch<any>, env as unknown as A2AEnv);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m1"]);
    const log = await ok("rest", "GetTask", { id: task.id }).then(() => ok<any>("jsonrpc", "ListTaskPushDeliveries", { taskId: task.id }));
    expect(log.deliveries).toMatchObject([{ configId: "hook", seq: 2, state: "dead", outcome: "gave up: the queue's retries ran out" }]);
  });
});
