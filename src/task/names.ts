/** How tasks and indexes map to Durable Object names: the tenant is part of the name, so tenants never share an object. */
import type { A2AEnv } from "../env";

export function taskStub(env: A2AEnv, tenant: string, taskId: string) {
  return env.TASKS.getByName(JSON.stringify([tenant, taskId]));
}

/** One index per tenant and caller: listing is caller-scoped, so this shards it for free. */
export function indexStub(env: A2AEnv, tenant: string, owner: string) {
  return env.TASK_INDEX.getByName(JSON.stringify([tenant, owner]));
}
