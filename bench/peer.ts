/**
 * The speed peer: the official @a2a-js/sdk server (v1.0 JSON-RPC and HTTP+JSON handlers on Express, the
 * SDK's in-memory task store) serving the same echo agent as bench/echo-agent.ts, event for event.
 *
 *   node bench/peer.ts --port 8790        (Node >= 22.18: type stripping)
 *   node bench/peer.ts --port 8790 --push (S6: the card says pushNotifications, so the SDK keeps push configs
 *                                          and its DefaultPushNotificationSender POSTs every event to them)
 *
 * It prints `listening <port>` once it accepts connections.
 */
import express from "express";
import { Role, TaskState, type AgentCard, type Message, type Part, type Task } from "@a2a-js/sdk";
import {
  AgentEvent, DefaultRequestHandler, InMemoryTaskStore,
  type AgentExecutor, type ExecutionEventBus, type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";

const portArg = process.argv.indexOf("--port");
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 8790;
const base = `http://127.0.0.1:${port}`;
/** Off by default: with push on, the SDK clones the task and looks up push configs on every event. */
const push = process.argv.includes("--push");

const textPart = (value: string): Part => ({ content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "" }) as Part;

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return {
    messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)],
    metadata: undefined, extensions: [], referenceTaskIds: [],
  };
}

function status(bus: ExecutionEventBus, taskId: string, contextId: string, state: TaskState, text?: string): void {
  bus.publish(AgentEvent.statusUpdate({
    taskId, contextId, metadata: undefined,
    status: { state, timestamp: new Date().toISOString(), message: text === undefined ? undefined : agentMessage(taskId, contextId, text) },
  }));
}

function chunk(bus: ExecutionEventBus, taskId: string, contextId: string, artifactId: string, name: string, i: number, last: boolean, metadata?: Record<string, unknown>): void {
  bus.publish(AgentEvent.artifactUpdate({
    taskId, contextId, append: i > 1, lastChunk: last, metadata: undefined,
    artifact: { artifactId, name, description: "", parts: [textPart(String(i))], metadata, extensions: [] },
  }));
}

/** Same behaviours as echo-agent.ts. The SDK wants a Task event first on every turn; that event counts. */
const executor: AgentExecutor = {
  async execute(ctx: RequestContext, bus: ExecutionEventBus) {
    const { taskId, contextId } = ctx;
    const first = ctx.userMessage.parts[0]?.content;
    const text = first?.$case === "text" ? first.value : "";
    const [verb, count] = text.split(" ");
    const n = Number(count);
    const task: Task = ctx.task ?? {
      id: taskId, contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined,
      status: { state: verb === "push" ? TaskState.TASK_STATE_WORKING : TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined },
    };
    bus.publish(AgentEvent.task(task));
    if (verb === "push" && n >= 2) {
      // N pushed events, like echo-agent.ts: the Task (WORKING) is the first, as the SDK pushes every event.
      const artifactId = crypto.randomUUID();
      for (let i = 1; i <= n - 2; i++) chunk(bus, taskId, contextId, artifactId, "push", i, i === n - 2, { emittedAt: Date.now() });
      status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, "done");
    } else if (verb === "stream" && n >= 2) {
      const artifactId = crypto.randomUUID();
      for (let i = 1; i <= n - 2; i++) chunk(bus, taskId, contextId, artifactId, "stream", i, i === n - 2);
      status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, "done");
    } else if (verb === "hold") {
      status(bus, taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, "send burst N");
    } else if (verb === "burst" && n >= 2 && ctx.task) {
      // The Task event above is event 1 of N here.
      const artifactId = crypto.randomUUID();
      for (let i = 1; i <= n - 2; i++) chunk(bus, taskId, contextId, artifactId, "burst", i, i === n - 2);
      status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, "done");
    } else {
      status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, text);
    }
    bus.finished();
  },
  async cancelTask(taskId: string, bus: ExecutionEventBus) {
    status(bus, taskId, "", TaskState.TASK_STATE_CANCELED);
    bus.finished();
  },
};

const card = {
  name: "a2a-js bench echo",
  description: "Echoes text back; streams, holds and bursts on request.",
  version: "1.0.0",
  supportedInterfaces: [
    { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
    { url: base, protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "" },
  ],
  provider: undefined,
  capabilities: { streaming: true, pushNotifications: push, extensions: [], extendedAgentCard: false },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "Echo", description: "Echoes text back.", tags: ["bench"], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
  signatures: [],
} as unknown as AgentCard;

const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
const app = express();
app.disable("x-powered-by");
app.get("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: requestHandler }));
app.post("/", jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
app.use(restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));

const server = app.listen(port, "127.0.0.1", () => console.log(`listening ${port}`));
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
