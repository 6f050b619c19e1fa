/** How long tasks live: waiting for their client, and kept after they end (0 = for ever). */
import type { AgentOptions } from "../agent/types";
import type { A2AEnv } from "../env";

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
