/** The bindings and variables a2a-edge reads; wrangler.toml declares them. */
import type { TaskIndexObject } from "./task/index-object";
import type { TaskObjectBase } from "./task/task-object";

export interface A2AEnv {
  TASKS: DurableObjectNamespace<TaskObjectBase>;
  TASK_INDEX: DurableObjectNamespace<TaskIndexObject>;
  PUBLIC_BASE_URL?: string;
  MAX_BODY_BYTES?: string;
  EXECUTOR_TIMEOUT_MS?: string;
}

/** A positive integer from an env var, else the fallback. */
export function envNumber(value: string | undefined, fallback: number): number {
  const n = value === undefined ? NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
