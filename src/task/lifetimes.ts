/** How long tasks live: waiting for their client, and kept after they end (0 = for ever). */
import type { AgentOptions } from "../agent/types";
import type { A2AEnv } from "../env";
import { isInterrupted, isTerminal } from "../protocol/index";
import type { StoredTask } from "./store";

export interface Lifetimes {
  interruptedMs: number;
  retentionMs: number;
}

export function lifetimes(env: A2AEnv, options: AgentOptions | undefined): Lifetimes {
  const seconds = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Math.max(0, Number(value) || 0));
  return {
    interruptedMs: seconds(env.INTERRUPTED_TIMEOUT_SECONDS, options?.interruptedTimeoutSeconds ?? 7 * 86400) * 1000,
    retentionMs: seconds(env.TASK_RETENTION_SECONDS, options?.retentionSeconds ?? 30 * 86400) * 1000,
  };
}

export interface LifecycleStep {
  at: number;
  action: "cancel" | "purge";
}

/**
 * The next step in a task's life: cancel it when it has waited too long for its client, or purge it once
 * it ended long enough ago — but not while a run is going, nor while notifications are still pending.
 */
export function nextLifecycleStep(stored: StoredTask, times: Lifetimes, running: boolean, pushPending: boolean): LifecycleStep | undefined {
  const since = Date.parse(stored.task.status.timestamp ?? "") || stored.createdAt;
  const state = stored.task.status.state;
  if (isInterrupted(state) && times.interruptedMs > 0 && !running) return { at: since + times.interruptedMs, action: "cancel" };
  if (isTerminal(state) && times.retentionMs > 0 && !pushPending) return { at: since + times.retentionMs, action: "purge" };
  return undefined;
}
