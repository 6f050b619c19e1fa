/** Exit codes scripts can rely on, and the one place errors become messages and codes. */
import { CommanderError } from "commander";
import pc from "picocolors";
import { A2AClientError, A2AHttpError, A2AStreamError, type TaskState } from "../client/index";

export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  FAILED: 3,
  REJECTED: 4,
  CANCELED: 5,
  INPUT_REQUIRED: 6,
  AUTH_REQUIRED: 7,
  PROTOCOL_ERROR: 8,
  CONNECTION_ERROR: 9,
} as const;

export const EXIT_HELP = `
Exit codes:
  0  completed (or the agent answered with a message)
  1  unexpected error
  2  usage error
  3  the task failed            4  the task was rejected       5  the task was canceled
  6  the task needs input       7  the task needs authorization
  8  the agent answered with an A2A error (TaskNotFound, TaskNotCancelable, ...)
  9  the agent could not be reached, or its answer was not A2A (HTTP error, cut stream)`;

/** A mistake in how the command was called. */
export class UsageError extends Error {}

/** The exit code for where a task ended; undefined state (a bare Message) is success. */
export function exitForState(state: TaskState | undefined): number {
  switch (state) {
    case "TASK_STATE_FAILED": return EXIT.FAILED;
    case "TASK_STATE_REJECTED": return EXIT.REJECTED;
    case "TASK_STATE_CANCELED": return EXIT.CANCELED;
    case "TASK_STATE_INPUT_REQUIRED": return EXIT.INPUT_REQUIRED;
    case "TASK_STATE_AUTH_REQUIRED": return EXIT.AUTH_REQUIRED;
    default: return EXIT.OK;
  }
}

/** Prints the error and returns its exit code. */
export function reportError(error: unknown): number {
  const say = (text: string) => process.stderr.write(`${pc.red("error:")} ${text}\n`);
  if (error instanceof CommanderError) {
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return EXIT.OK;
    return EXIT.USAGE; // commander has printed the message
  }
  if (error instanceof UsageError) {
    say(error.message);
    return EXIT.USAGE;
  }
  if (error instanceof A2AClientError) {
    say(`${error.message} ${pc.dim(`[${error.reason}, code ${error.code}${error.httpStatus ? `, HTTP ${error.httpStatus}` : ""}]`)}`);
    for (const v of error.violations ?? []) process.stderr.write(`  ${v.field}: ${v.description}\n`);
    return error.type === "InvalidAgentResponse" ? EXIT.CONNECTION_ERROR : EXIT.PROTOCOL_ERROR;
  }
  if (error instanceof A2AHttpError || error instanceof A2AStreamError) {
    say(error.message);
    return EXIT.CONNECTION_ERROR;
  }
  if (error instanceof TypeError && /fetch failed|terminated|network/i.test(error.message)) {
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    say(`could not reach the agent: ${cause?.code ?? cause?.message ?? error.message}`);
    return EXIT.CONNECTION_ERROR;
  }
  say(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return EXIT.ERROR;
}
