/**
 * The orchestrator example over two real local agents: the demo agent as the delegate, and the
 * orchestrator pointing at it. Artifacts, questions (INPUT_REQUIRED) and cancellation are relayed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AClient, userMessage } from "../../src/client/index";
import { startServer, type RunningServer } from "./server";

let delegate: RunningServer;
let orchestrator: RunningServer;
let client: A2AClient;
let delegateClient: A2AClient;

beforeAll(async () => {
  delegate = await startServer({ config: "wrangler.toml" });
  orchestrator = await startServer({ config: "examples/orchestrator/wrangler.toml", vars: { DELEGATE_URL: delegate.url } });
  client = await A2AClient.connect(orchestrator.url);
  delegateClient = await A2AClient.connect(delegate.url);
});

afterAll(async () => {
  await orchestrator?.stop();
  await delegate?.stop();
});

const textOf = (parts: { text?: string }[] | undefined) => (parts ?? []).map((p) => p.text ?? "").join("");

describe("the orchestrator", () => {
  it("relays the delegate's streamed artifact and its answer", async () => {
    const stream = client.sendStreamingMessage({ message: userMessage("relay these words please") });
    const seen: string[] = [];
    for await (const event of stream) seen.push(Object.keys(event)[0]!);
    const task = stream.task!;
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(textOf(task.status.message?.parts)).toBe("Done echoing.");
    expect(textOf(task.artifacts?.[0]?.parts)).toBe("relay these words please");
    expect(seen.filter((k) => k === "artifactUpdate").length).toBeGreaterThan(1); // chunks arrive as they are made
  });

  it("relays a question: its own task waits for input, and the answer goes back to the same remote task", async () => {
    const first = await client.sendMessage({ message: userMessage("greet") });
    const waiting = "task" in first ? first.task : undefined;
    expect(waiting?.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(textOf(waiting?.status.message?.parts)).toBe("What is your name?");
    const remoteId = (waiting?.status.message?.parts[0]?.metadata?.["a2a-edge/delegate-task"] as { taskId: string }).taskId;
    expect((await delegateClient.getTask({ id: remoteId })).status.state).toBe("TASK_STATE_INPUT_REQUIRED");

    const answer = await client.sendMessage({ message: userMessage("Ada", { taskId: waiting!.id, contextId: waiting!.contextId! }) });
    const done = "task" in answer ? answer.task : undefined;
    expect(done?.id).toBe(waiting?.id);
    expect(done?.status.state).toBe("TASK_STATE_COMPLETED");
    expect(textOf(done?.status.message?.parts)).toBe("Nice to meet you, Ada!");
    const remote = await delegateClient.getTask({ id: remoteId });
    expect(remote.status.state).toBe("TASK_STATE_COMPLETED");
    expect(remote.history?.filter((m) => m.role === "ROLE_USER").map((m) => textOf(m.parts))).toEqual(["greet", "Ada"]);
  });

  it("cancels the delegate's task when its own is canceled", async () => {
    const sent = await client.sendMessage({ message: userMessage("long 30"), configuration: { returnImmediately: true } });
    const task = "task" in sent ? sent.task : undefined;
    // Wait until the delegate has reported progress, so the remote task exists.
    for (let i = 0; i < 50; i++) {
      const now = await client.getTask({ id: task!.id });
      if (/Step \d+ of 30/.test(textOf(now.status.message?.parts))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { tasks: before } = await delegateClient.listTasks({ status: "TASK_STATE_WORKING" });
    expect(before.length).toBeGreaterThan(0);
    const canceled = await client.cancelTask({ id: task!.id });
    expect(canceled.status.state).toBe("TASK_STATE_CANCELED");
    for (const remote of before) {
      const after = await delegateClient.getTask({ id: remote.id });
      expect(after.status.state).toBe("TASK_STATE_CANCELED");
    }
  });
});
