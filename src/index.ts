/**
 * a2a-edge: run an A2A v1.0 agent on Cloudflare Workers.
 *
 * ```ts
 * const agent = defineAgent({ card: {...}, execute: async (ctx) => ctx.complete("hi") });
 * export default { fetch: agent.fetch, queue: agent.queue };
 * export const { TaskObject, TaskIndex } = agent;
 * ```
 */
import type { AgentDefinition } from "./agent/types";
import type { A2AEnv } from "./env";
import type { PushPointer } from "./task/push-outbox";
import { validateCard } from "./server/card";
import { consumePushBatch } from "./push/consumer";
import { createWorker } from "./server/worker";
import { TaskIndexObject } from "./task/index-object";
import { taskObjectClass } from "./task/task-object";

export interface DefinedAgent {
  /** The Worker's fetch handler. */
  fetch(request: Request, env: A2AEnv, ctx?: ExecutionContext): Promise<Response>;
  /** The Worker's queue handler: delivers push notifications (and records dead letters). */
  queue(batch: MessageBatch<PushPointer>, env: A2AEnv): Promise<void>;
  /** The per-task Durable Object class; export it as `TaskObject` (binding TASKS). */
  TaskObject: ReturnType<typeof taskObjectClass>;
  /** The per-caller task index class; export it as `TaskIndex` (binding TASK_INDEX). */
  TaskIndex: typeof TaskIndexObject;
}

/** Turns an Agent Card and an executor into a Worker and its two Durable Object classes. */
export function defineAgent(definition: AgentDefinition): DefinedAgent {
  validateCard(definition);
  const worker = createWorker(definition);
  return {
    fetch: worker.fetch,
    queue: (batch, env) => consumePushBatch(batch, env, definition),
    TaskObject: taskObjectClass(definition),
    TaskIndex: TaskIndexObject,
  };
}

export type * from "./agent/types";
export { ANONYMOUS } from "./agent/types";
export type { A2AEnv } from "./env";
export type { PushPointer } from "./task/push-outbox";
export type { Delivery, DeliveryState } from "./task/push-store";
export * from "./protocol/index";
export { applyEvent, withHistoryLength } from "./task/reducer";
export { TaskIndexObject } from "./task/index-object";
export { TaskObjectBase } from "./task/task-object";
