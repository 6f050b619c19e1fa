/**
 * The agent registry Worker: its HTTP API under /agents, its own A2A agent (card, JSON-RPC, HTTP+JSON)
 * everywhere else, and the health sweep on the cron trigger.
 *
 * ```ts
 * // examples/registry/worker.ts
 * import { createRegistry } from "../../src/registry/index";
 * const registry = createRegistry();
 * export default { fetch: registry.fetch, scheduled: registry.scheduled };
 * export const { RegistryObject, TaskObject, TaskIndex } = registry;
 * ```
 */
import { defineAgent } from "../index";
import type { A2AEnv } from "../env";
import { handleRegistryApi, isRegistryPath } from "./api";
import type { RegistryEnv } from "./env";
import { RegistryObject } from "./object";
import { registryAgentDefinition } from "./agent";
import { sweep } from "./sweep";

export function createRegistry() {
  const agent = defineAgent(registryAgentDefinition);
  return {
    fetch(request: Request, env: RegistryEnv, ctx?: ExecutionContext): Promise<Response> {
      if (isRegistryPath(new URL(request.url).pathname)) return handleRegistryApi(request, env);
      return agent.fetch(request, env as A2AEnv, ctx);
    },
    /** The cron trigger: one health sweep, awaited so the invocation lasts as long as the sweep. */
    async scheduled(_controller: ScheduledController, env: RegistryEnv): Promise<void> {
      await sweep(env);
    },
    RegistryObject,
    TaskObject: agent.TaskObject,
    TaskIndex: agent.TaskIndex,
  };
}

export { RegistryObject } from "./object";
export { sweep, type SweepReport } from "./sweep";
export type { RegistryEnv } from "./env";
export type * from "./types";
