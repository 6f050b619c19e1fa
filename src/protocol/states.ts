/** Task states and roles (reference §2.4), and the classes the operations branch on. */

export const TASK_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const ROLES = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] as const;
export type Role = (typeof ROLES)[number];

const TERMINAL: ReadonlySet<TaskState> = new Set([
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
]);
const INTERRUPTED: ReadonlySet<TaskState> = new Set(["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"]);

/** A terminal task never changes again. */
export function isTerminal(state: TaskState): boolean {
  return TERMINAL.has(state);
}

/** The agent waits for the client (input or authorization). */
export function isInterrupted(state: TaskState): boolean {
  return INTERRUPTED.has(state);
}

/** Where a blocking SendMessage returns: terminal or interrupted. */
export function isSettled(state: TaskState): boolean {
  return TERMINAL.has(state) || INTERRUPTED.has(state);
}

/** Where a stream closes: terminal states and INPUT_REQUIRED; AUTH_REQUIRED keeps it open (reference §4.4). */
export function closesStream(state: TaskState): boolean {
  return TERMINAL.has(state) || state === "TASK_STATE_INPUT_REQUIRED";
}
