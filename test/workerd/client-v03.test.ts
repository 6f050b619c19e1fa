/** The client speaks A2A 0.3 to an agent whose card offers only 0.3 (here: our own 0.3 layer). */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { A2AClient, A2AClientError } from "../../src/client/index";
import type { Message } from "../../src/protocol/objects";

/** A user message whose messageId prefix tells the conformance behaviours what to do. */
const userMessage = (text: string, { messageId }: { messageId: string }): Message => ({ messageId, role: "ROLE_USER", parts: [{ text }] });

const worker = (exports as unknown as { default: Fetcher }).default;
const seen: { method?: string; version: string | null }[] = [];

/** The test agent, seen through a 0.3 card: the same card without supportedInterfaces, as 0.3 agents serve. */
async function viaV03Card(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  if (new URL(request.url).pathname === "/.well-known/agent-card.json") {
    const card = (await (await worker.fetch(request)).json()) as Record<string, unknown>;
    const { supportedInterfaces: _drop, ...rest } = card;
    return Response.json({ ...rest, protocolVersion: "0.3.0", url: "http://agent.test/", preferredTransport: "JSONRPC" });
  }
  const body = request.method === "POST" ? ((await request.clone().json()) as { method?: string }) : {};
  seen.push({ method: body.method, version: request.headers.get("a2a-version") });
  return worker.fetch(request);
}

describe("the client and a 0.3 agent", () => {
  it("picks 0.3 JSON-RPC from a 0.3 card and gives v1.0 results for send, stream, get, cancel and push", async () => {
    const client = await A2AClient.connect("http://agent.test", { fetch: viaV03Card });
    expect(client.protocolVersion).toBe("0.3");

    const sent = await client.sendMessage({ message: userMessage("hi", { messageId: `tck-artifact-text-${crypto.randomUUID()}` }) });
    const task = "task" in sent ? sent.task : undefined;
    expect(task?.status.state).toBe("TASK_STATE_COMPLETED");
    expect(task?.artifacts?.[0]?.parts).toEqual([{ text: "Generated text content" }]);

    const stream = client.sendStreamingMessage({ message: userMessage("hi", { messageId: `tck-stream-001-${crypto.randomUUID()}` }) });
    const kinds: string[] = [];
    for await (const event of stream) kinds.push(Object.keys(event)[0]!);
    expect(kinds).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect(stream.task?.status.state).toBe("TASK_STATE_COMPLETED");

    const reply = await client.sendMessage({ message: userMessage("hi", { messageId: `tck-message-response-${crypto.randomUUID()}` }) });
    expect("message" in reply && reply.message.parts[0]?.text).toBe("Direct message response");

    const waiting = await client.sendMessage({ message: userMessage("hi", { messageId: `tck-input-required-${crypto.randomUUID()}` }) });
    const waitingTask = "task" in waiting ? waiting.task : undefined;
    expect((await client.getTask({ id: waitingTask!.id, historyLength: 1 })).history).toHaveLength(1);
    const config = await client.createTaskPushNotificationConfig({ taskId: waitingTask!.id, id: "hook", url: "https://hooks.example.com/x", authentication: { scheme: "Bearer", credentials: "t" } });
    expect(config).toMatchObject({ taskId: waitingTask!.id, id: "hook", url: "https://hooks.example.com/x", authentication: { scheme: "Bearer", credentials: "t" } });
    expect((await client.listTaskPushNotificationConfigs({ taskId: waitingTask!.id })).configs.map((c) => c.id)).toEqual(["hook"]);
    expect((await client.cancelTask({ id: waitingTask!.id })).status.state).toBe("TASK_STATE_CANCELED");

    const missing = await client.getTask({ id: crypto.randomUUID() }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(A2AClientError);
    expect(missing).toMatchObject({ code: -32001 });
    await expect(client.listTasks({})).rejects.toMatchObject({ reason: "UNSUPPORTED_OPERATION" });

    expect(seen.every((s) => s.version === "0.3")).toBe(true);
    expect(new Set(seen.map((s) => s.method))).toEqual(new Set(["message/send", "message/stream", "tasks/get", "tasks/pushNotificationConfig/set", "tasks/pushNotificationConfig/list", "tasks/cancel"]));
  });
});
