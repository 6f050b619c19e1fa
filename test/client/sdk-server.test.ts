/**
 * The client against a server we did not write: the official @a2a-js/sdk server (its v1.0 JSON-RPC and
 * HTTP+JSON Express handlers, in-memory task store), started in this process on a loopback port.
 * Send, stream, get, list, cancel and resubscribe over both bindings, and a cut stream resumed.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { Role, TaskState, type AgentCard, type Message as SdkMessage, type Part as SdkPart, type Task as SdkTask } from "@a2a-js/sdk";
import {
  AgentEvent, DefaultRequestHandler, InMemoryTaskStore,
  type AgentExecutor, type ExecutionEventBus, type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AClient, userMessage, type Binding, type Task } from "../../src/client/index";
import { cutStreams } from "./helpers";

const textPart = (value: string) => ({ content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "" }) as SdkPart;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const canceled = new Set<string>();

function agentMessage(taskId: string, contextId: string, text: string): SdkMessage {
  return { messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function status(bus: ExecutionEventBus, taskId: string, contextId: string, state: TaskState, text?: string): void {
  bus.publish(AgentEvent.statusUpdate({
    taskId, contextId, metadata: undefined,
    status: { state, timestamp: new Date().toISOString(), message: text === undefined ? undefined : agentMessage(taskId, contextId, text) },
  }));
}

/** "chunks N": N artifact chunks 60 ms apart; "ask": INPUT_REQUIRED, then completes on the answer; else echo. */
const executor: AgentExecutor = {
  async execute(ctx: RequestContext, bus: ExecutionEventBus) {
    const { taskId, contextId } = ctx;
    const first = ctx.userMessage.parts[0]?.content;
    const text = first?.$case === "text" ? first.value : "";
    const task: SdkTask = ctx.task ?? {
      id: taskId, contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined,
      status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined },
    };
    bus.publish(AgentEvent.task(task));
    const [verb, count] = text.split(" ");
    if (ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, `thanks for ${text}`);
    } else if (verb === "ask") {
      status(bus, taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, "what else?");
    } else if (verb === "chunks") {
      status(bus, taskId, contextId, TaskState.TASK_STATE_WORKING, "chunking");
      const artifactId = crypto.randomUUID();
      const n = Number(count);
      for (let i = 0; i < n && !canceled.has(taskId); i++) {
        bus.publish(AgentEvent.artifactUpdate({
          taskId, contextId, append: i > 0, lastChunk: i === n - 1, metadata: undefined,
          artifact: { artifactId, name: "chunks", description: "", parts: [textPart(`c${i};`)], metadata: undefined, extensions: [] },
        }));
        await sleep(60);
      }
      if (!canceled.has(taskId)) status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, "chunked");
    } else {
      status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, `echo: ${text}`);
    }
    bus.finished();
  },
  async cancelTask(taskId: string, bus: ExecutionEventBus) {
    canceled.add(taskId);
    status(bus, taskId, "", TaskState.TASK_STATE_CANCELED);
    bus.finished();
  },
};

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  // The card names the port, known only once listening: build the handler then.
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = {
    name: "a2a-js sdk peer", description: "The official SDK's server.", version: "1.0.0",
    supportedInterfaces: [
      { url: `${base}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
      { url: base, protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "" },
    ],
    provider: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {}, securityRequirements: [], defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Echoes.", tags: ["test"], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  } as unknown as AgentCard;
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: requestHandler }));
  app.use("/rpc", jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use(restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const text = (task: Task | undefined) => (task?.artifacts ?? []).flatMap((a) => a.parts).map((p) => p.text ?? "").join("");

for (const binding of ["JSONRPC", "HTTP+JSON"] as Binding[]) {
  describe(`@a2a-js/sdk server over ${binding}`, () => {
    it("send, get, list", async () => {
      const client = await A2AClient.connect(base, { bindings: [binding] });
      expect(client.interface.protocolBinding).toBe(binding);
      const response = await client.sendMessage({ message: userMessage("hi there") });
      expect(response).toHaveProperty("task");
      const task = (response as { task: Task }).task;
      expect(task.status.state).toBe("TASK_STATE_COMPLETED");
      expect(task.status.message?.parts[0]?.text).toBe("echo: hi there");
      expect((await client.getTask({ id: task.id })).status.state).toBe("TASK_STATE_COMPLETED");
      const page = await client.listTasks({ contextId: task.contextId! });
      expect(page.tasks.map((t) => t.id)).toEqual([task.id]);
      const missing = await client.getTask({ id: "nope" }).catch((e: unknown) => e);
      expect(missing).toMatchObject({ type: "TaskNotFound", code: -32001 });
    });

    it("stream, conversation, cancel, resubscribe", async () => {
      const client = await A2AClient.connect(base, { bindings: [binding], resume: { initialDelayMs: 10 } });
      const stream = client.sendStreamingMessage({ message: userMessage("chunks 4") });
      const kinds: string[] = [];
      for await (const event of stream) kinds.push(Object.keys(event)[0]!);
      expect(kinds[0]).toBe("task");
      expect(kinds.filter((k) => k === "artifactUpdate")).toHaveLength(4);
      expect(stream.state).toBe("TASK_STATE_COMPLETED");
      expect(text(stream.task)).toBe("c0;c1;c2;c3;");

      const chat = client.conversation();
      const first = await chat.send("ask");
      expect(first).toMatchObject({ needsInput: true, text: "what else?" });
      const second = await chat.send("cake");
      expect(second).toMatchObject({ done: true, text: "thanks for cake" });
      expect(second.task!.id).toBe(first.task!.id);

      const long = client.sendStreamingMessage({ message: userMessage("chunks 50") });
      const iterator = long[Symbol.asyncIterator]();
      await iterator.next();
      const watched = client.subscribeToTask({ id: long.taskId! });
      const watchedFirst = await watched[Symbol.asyncIterator]().next();
      expect(watchedFirst.value).toHaveProperty("task");
      const canceledTask = await client.cancelTask({ id: long.taskId! });
      expect(canceledTask.status.state).toBe("TASK_STATE_CANCELED");
      await iterator.return?.();
    });

    it("a cut stream is resumed by resubscribing (this server sends no event ids: a snapshot, then live events)", async () => {
      const cutter = cutStreams({ afterEvents: 4, mode: "error", maxCuts: 1 });
      const client = await A2AClient.connect(base, { bindings: [binding], fetch: cutter, resume: { initialDelayMs: 10 } });
      const stream = client.sendStreamingMessage({ message: userMessage("chunks 12") });
      await stream.result();
      expect(cutter.cuts).toBe(1);
      expect(stream.reconnects).toBe(1);
      expect(stream.state).toBe("TASK_STATE_COMPLETED");
      expect(text(stream.task)).toBe(Array.from({ length: 12 }, (_, i) => `c${i};`).join(""));
      expect(stream.task!.artifacts).toEqual((await client.getTask({ id: stream.taskId! })).artifacts);
    });
  });
}
