/** Builds the AgentContext an executor sees: it turns the author's calls into wire events for the task object. */
import { nowTimestamp, type Artifact, type Message, type Part, type StreamResponse, type Task, type TaskArtifactUpdateEvent, type TaskState } from "../protocol/index";
import type { A2AEnv } from "../env";
import type { AgentContext, ArtifactInput, Content, Principal } from "./types";

/** What the task object offers one run of the executor. */
export interface RunHost {
  /** The task as stored, once it exists. */
  readonly task: Task | undefined;
  /** False once the run ended (finished, canceled or past its deadline): later calls are ignored. */
  readonly live: boolean;
  emit(event: StreamResponse): void;
  /** A bare Message instead of a task. */
  reply(message: Message): void;
}

export interface RunFacts {
  message: Message;
  taskId: string;
  contextId: string;
  tenant: string;
  caller: Principal;
  acceptedOutputModes: readonly string[] | undefined;
  signal: AbortSignal;
  extensions: readonly string[];
  env: A2AEnv;
}

export function toParts(content: Content): Part[] {
  return typeof content === "string" ? [{ text: content }] : content;
}

export function createAgentContext(host: RunHost, facts: RunFacts): AgentContext {
  const { taskId, contextId } = facts;

  const agentMessage = (content: Content): Message => ({
    messageId: crypto.randomUUID(),
    role: "ROLE_AGENT",
    parts: toParts(content),
    contextId,
    taskId,
  });

  const status = (state: TaskState, content?: Content): void => {
    if (!host.live) return;
    const statusValue: Task["status"] = { state, timestamp: nowTimestamp() };
    if (content !== undefined) statusValue.message = agentMessage(content);
    host.emit({ statusUpdate: { taskId, contextId, status: statusValue } });
  };

  return {
    message: facts.message,
    get task() {
      return host.task;
    },
    taskId,
    contextId,
    tenant: facts.tenant,
    caller: facts.caller,
    acceptedOutputModes: facts.acceptedOutputModes,
    signal: facts.signal,
    extensions: facts.extensions,
    env: facts.env,
    agentMessage,
    status,
    reply(content) {
      if (!host.live) return;
      if (host.task) return status("TASK_STATE_COMPLETED", content);
      host.reply({ messageId: crypto.randomUUID(), role: "ROLE_AGENT", parts: toParts(content), contextId });
    },
    working: (content) => status("TASK_STATE_WORKING", content),
    complete: (content) => status("TASK_STATE_COMPLETED", content),
    askForInput: (content) => status("TASK_STATE_INPUT_REQUIRED", content),
    requireAuth: (content) => status("TASK_STATE_AUTH_REQUIRED", content),
    fail: (content) => status("TASK_STATE_FAILED", content),
    reject: (content) => status("TASK_STATE_REJECTED", content),
    artifact(input: ArtifactInput): string {
      const artifactId = input.artifactId ?? crypto.randomUUID();
      if (!host.live) return artifactId;
      const artifact: Artifact = { artifactId, parts: toParts(input.content) };
      if (input.name !== undefined) artifact.name = input.name;
      if (input.description !== undefined) artifact.description = input.description;
      if (input.metadata !== undefined) artifact.metadata = input.metadata;
      const update: TaskArtifactUpdateEvent = { taskId, contextId, artifact };
      if (input.append) update.append = true;
      if (input.lastChunk) update.lastChunk = true;
      host.emit({ artifactUpdate: update });
      return artifactId;
    },
  };
}
