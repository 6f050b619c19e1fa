/**
 * The audit log: one JSON line per event, for Workers Logs (observability). Lines carry who, what, on
 * which task, the outcome and how long it took — never message contents, tokens or keys.
 */
import type { StreamResponse } from "./protocol/objects";

export type AuditEvent =
  /** One A2A request: its operation, outcome (ok or the error reason) and latency. Auth failures included. */
  | { event: "request"; operation: string; binding: "jsonrpc" | "rest" | "http"; outcome: string; status: number; latencyMs: number; taskId?: string }
  /** A new task was received. */
  | { event: "task.received"; taskId: string; contextId: string }
  /** A task changed state. */
  | { event: "task.state"; taskId: string; contextId: string; state: string; seq: number }
  /** An artifact (or chunk) was delivered to the task's subscribers. */
  | { event: "task.artifact"; taskId: string; contextId: string; artifactId: string; parts: number; append: boolean; lastChunk: boolean; seq: number }
  /** One webhook delivery attempt. */
  | { event: "push.attempt"; taskId: string; configId: string; seq: number; outcome: string; attempt: number; latencyMs: number }
  /** A task was removed after its retention period. */
  | { event: "task.purged"; taskId: string };

export interface AuditContext {
  tenant: string;
  caller: string;
}

/** Writes one audit line, unless AUDIT_LOG is "off". */
export function audit(env: { AUDIT_LOG?: string }, context: AuditContext, entry: AuditEvent): void {
  if (env.AUDIT_LOG === "off") return;
  console.log(JSON.stringify({ time: new Date().toISOString(), audit: true, tenant: context.tenant, caller: context.caller, ...entry }));
}

/** The audit line of a stored task event: its kind and ids, never its content. */
export function auditEvent(
  env: { AUDIT_LOG?: string },
  stored: { tenant: string; owner: string; task: { id: string; contextId?: string } },
  event: StreamResponse,
  seq: number,
): void {
  const who = { tenant: stored.tenant, caller: stored.owner };
  const ids = { taskId: stored.task.id, contextId: stored.task.contextId ?? "" };
  if ("statusUpdate" in event) audit(env, who, { event: "task.state", ...ids, state: event.statusUpdate.status.state, seq });
  else if ("artifactUpdate" in event) {
    const update = event.artifactUpdate;
    audit(env, who, { event: "task.artifact", ...ids, artifactId: update.artifact.artifactId, parts: update.artifact.parts.length, append: update.append === true, lastChunk: update.lastChunk === true, seq });
  }
}
