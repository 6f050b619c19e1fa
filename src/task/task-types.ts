/** The shapes the task object works with: what crosses RPC, and its own run and draft state. */
import type { AgentContext, Principal } from "../agent/types";
import { A2AError, type A2AErrorData, type Message, type SendMessageRequest, type TaskPushNotificationConfig } from "../protocol/index";
import type { PushVersion } from "./push-store";
import type { TaskOwner } from "./store";

/** Results cross RPC as plain data: errors as A2AErrorData, never thrown. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: A2AErrorData };

export interface Access {
  taskId: string;
  tenant: string;
  caller: Principal;
}

export interface SendInput extends Access {
  /** An inline push config (configuration.taskPushNotificationConfig), already checked, with its id. */
  pushConfig?: TaskPushNotificationConfig;
  /** The agent's public URL, the issuer of its push notifications. */
  agentUrl: string;
  /** The protocol version an inline push config is registered in (its payload format). */
  pushVersion: PushVersion;
  /** Extensions the client activated. */
  extensions: string[];
  /** True when the worker minted taskId for a new task. */
  isNew: boolean;
  request: SendMessageRequest;
}

export interface Run {
  controller: AbortController;
  context: AgentContext;
  deadline: number;
  live: boolean;
  /** Set once cancel or the deadline took over: the executor's emissions and its return are ignored. */
  stopping: boolean;
  /** The last seq before this run: a blocking send waits for a settled state reached after it. */
  startSeq: number;
  /** Set when the executor answered with a bare Message: no task exists. */
  reply?: Message;
  release: () => void;
}

/** A new task before its first event: nothing is stored until the executor emits. */
export interface Draft extends TaskOwner {
  id: string;
  contextId: string;
  message: Message;
  metadata?: Record<string, unknown>;
  pushConfig?: TaskPushNotificationConfig;
  agentUrl: string;
  pushVersion: PushVersion;
}

/** What the push consumer needs to deliver one notification. */
export interface PushPayload {
  config: TaskPushNotificationConfig;
  /** The task's caller, for the audit log. */
  owner: string;
  agentUrl: string;
  eventJson: string;
  attempts: number;
  /** The config's protocol version; a 0.3 config is sent the task itself (`taskJson`), not the event. */
  version: PushVersion;
  taskJson?: string;
}


/** Runs an operation and turns what it throws into an Outcome (A2A errors as data, anything else Internal). */
export async function guard<T>(body: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await body() };
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}

export function guardSync<T>(body: () => T): Outcome<T> {
  try {
    return { ok: true, value: body() };
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}

function toErrorData(error: unknown): A2AErrorData {
  if (error instanceof A2AError) return error.toData();
  console.error("task object error:", error);
  return { type: "Internal" };
}
