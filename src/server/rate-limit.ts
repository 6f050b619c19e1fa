/**
 * Rate limits per caller and per tenant, on the Workers Rate Limiting binding. Each operation class
 * (send, read, stream) has its own binding, so each has its own limit; RATE_LIMIT_TENANT, when bound,
 * caps a whole tenant. A missing binding means no limit for that class.
 */
import type { A2AEnv } from "../env";
import { A2AError } from "../protocol/index";

export type OperationClass = "send" | "read" | "stream";

/** The operation class of each A2A method (JSON-RPC names; REST routes map to the same). */
export const OPERATION_CLASS: Record<string, OperationClass> = {
  SendMessage: "send",
  CancelTask: "send",
  CreateTaskPushNotificationConfig: "send",
  DeleteTaskPushNotificationConfig: "send",
  SendStreamingMessage: "stream",
  SubscribeToTask: "stream",
  GetTask: "read",
  ListTasks: "read",
  GetTaskPushNotificationConfig: "read",
  ListTaskPushNotificationConfigs: "read",
  ListTaskPushDeliveries: "read",
  GetExtendedAgentCard: "read",
};

const BINDING: Record<OperationClass, keyof A2AEnv> = { send: "RATE_LIMIT_SEND", read: "RATE_LIMIT_READ", stream: "RATE_LIMIT_STREAM" };

/** Throws RateLimited (429, with the seconds to wait) when the caller or its tenant is over its limit. */
export async function checkRateLimit(env: A2AEnv, operation: string, tenant: string, caller: string): Promise<void> {
  const kind = OPERATION_CLASS[operation];
  if (!kind) return;
  const perCaller = env[BINDING[kind]] as RateLimit | undefined;
  const perTenant = env.RATE_LIMIT_TENANT;
  const [callerOk, tenantOk] = await Promise.all([
    perCaller ? perCaller.limit({ key: `${kind}|${tenant}|${caller}` }).then((r) => r.success) : true,
    perTenant ? perTenant.limit({ key: `tenant|${tenant}` }).then((r) => r.success) : true,
  ]);
  if (callerOk && tenantOk) return;
  const retryAfter = Number(env.RATE_LIMIT_PERIOD_SECONDS ?? 60) || 60;
  throw new A2AError("RateLimited", `Too many ${kind} requests${tenantOk ? "" : " for this tenant"}; retry after ${retryAfter} s`, {
    retryAfterSeconds: String(retryAfter), scope: tenantOk ? "caller" : "tenant", operationClass: kind,
  });
}
