/**
 * A task's events as an async iterator of StreamResponse that survives cut connections: when a stream
 * ends before the task settles (terminal, INPUT_REQUIRED or AUTH_REQUIRED), it resubscribes with
 * `Last-Event-ID` after a backoff, skips anything it has already seen, and gives up after a number of
 * fruitless attempts with an `A2AStreamError`. It also keeps the task as the events build it, with the
 * same reducer the server uses.
 */
import type { Message, StreamResponse, Task } from "../protocol/objects";
import { isSettled, type TaskState } from "../protocol/states";
import { applyEvent } from "../task/reducer";
import { A2AClientError, A2AHttpError, A2AStreamError } from "./errors";
import type { StreamItem } from "./transport";

export interface ResumeOptions {
  /** Attempts in a row that bring no new event before giving up (default 5). */
  maxRetries?: number;
  /** First wait before resubscribing, doubled per failed attempt (default 250 ms). */
  initialDelayMs?: number;
  /** Longest wait (default 5 s). */
  maxDelayMs?: number;
}

export interface PollOptions {
  /** First wait between GetTask calls (default 300 ms), growing by `factor` (default 1.5). */
  initialDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
}

/** Where a TaskStream gets its events. */
export interface StreamSource {
  /** The first stream: SendStreamingMessage or SubscribeToTask (or their polling stand-ins). */
  open(): Promise<AsyncIterable<StreamItem>>;
  /** After a cut: SubscribeToTask, resuming after `lastEventId` when there is one. */
  resume(taskId: string, lastEventId: string | undefined): Promise<AsyncIterable<StreamItem>>;
  /** When resubscribing is refused because the task ended meanwhile. */
  getTask(taskId: string): Promise<Task>;
}

const RESUME_DEFAULTS: Required<ResumeOptions> = { maxRetries: 5, initialDelayMs: 250, maxDelayMs: 5_000 };

export class TaskStream implements AsyncIterable<StreamResponse> {
  /** The task so far, built from the events (a snapshot replaces it, updates apply to it). */
  task: Task | undefined;
  /** The agent's answer when it replied with a bare Message and no task. */
  message: Message | undefined;
  /** The SSE id of the last event seen: where a resubscription resumes. */
  lastEventId: string | undefined;
  /** How many times the stream was resumed. */
  reconnects = 0;

  readonly #source: StreamSource;
  readonly #resume: Required<ResumeOptions> | false;
  readonly #signal: AbortSignal | undefined;
  #lastSeq: number | undefined;
  #started = false;
  /** A message to an existing task: its first snapshot shows the previous turn's state, which proves nothing. */
  #stale: boolean;

  constructor(source: StreamSource, options: { resume?: ResumeOptions | false; signal?: AbortSignal; continuation?: boolean } = {}) {
    this.#source = source;
    this.#resume = options.resume === false ? false : { ...RESUME_DEFAULTS, ...options.resume };
    this.#signal = options.signal;
    this.#stale = options.continuation === true;
  }

  get taskId(): string | undefined {
    return this.task?.id;
  }

  get state(): TaskState | undefined {
    return this.task?.status.state;
  }

  /** True once the agent answered with a Message or the task reached a terminal or interrupted state. */
  get settled(): boolean {
    return this.message !== undefined || (this.task !== undefined && !this.#stale && isSettled(this.task.status.state));
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamResponse> {
    if (this.#started) throw new Error("A TaskStream can be iterated only once");
    this.#started = true;
    return this.#run();
  }

  /** Reads the stream to its end; the agent's Message, or the task as it ended. */
  async result(): Promise<Task | Message> {
    for await (const _ of this) {
      // the events build this.task
    }
    const result = this.message ?? this.task;
    if (!result) throw new A2AStreamError("The stream ended without any event", undefined, undefined);
    return result;
  }

  async *#run(): AsyncGenerator<StreamResponse> {
    let source: AsyncIterable<StreamItem> = await this.#source.open();
    let failures = 0;
    for (;;) {
      let cut: unknown;
      let fresh = 0;
      const openedAt = Date.now();
      try {
        for await (const item of source) {
          if (!this.#isNew(item)) continue;
          this.#apply(item.response);
          fresh++;
          yield item.response;
        }
      } catch (error) {
        if (!this.#resumable(error)) throw error;
        cut = error;
      }
      if (this.settled) return;
      const taskId = this.task?.id;
      if (this.#resume === false || taskId === undefined) {
        if (cut !== undefined) throw cut;
        if (taskId === undefined) throw new A2AStreamError("The stream ended before the agent sent a task or a message", undefined, undefined);
        return;
      }
      if (fresh > 0 || Date.now() - openedAt > this.#resume.maxDelayMs) failures = 0;
      // Resubscribe until a stream opens, within the retry limit.
      for (;;) {
        if (failures >= this.#resume.maxRetries) {
          throw new A2AStreamError(
            `The stream of task ${taskId} ended in ${this.state} and could not be resumed after ${failures} attempts`,
            taskId, this.lastEventId, cut,
          );
        }
        await sleep(Math.min(this.#resume.maxDelayMs, this.#resume.initialDelayMs * 2 ** failures), this.#signal);
        failures++;
        this.reconnects++;
        try {
          source = await this.#source.resume(taskId, this.lastEventId);
          break;
        } catch (error) {
          if (error instanceof A2AClientError && error.type === "UnsupportedOperation") {
            // The task ended while we were away and this server does not replay it: take its final state.
            const task = await this.#source.getTask(taskId);
            this.#apply({ task });
            yield { task };
            return;
          }
          if (!this.#resumable(error)) throw error;
          cut = error;
        }
      }
    }
  }

  /** Events with a numeric id at or below the last one seen are replays; an unchanged snapshot is one too. */
  #isNew(item: StreamItem): boolean {
    if (item.id !== undefined) {
      const seq = Number(item.id);
      if (Number.isSafeInteger(seq)) {
        if (this.#lastSeq !== undefined && seq <= this.#lastSeq) return false;
        this.#lastSeq = seq;
      }
      this.lastEventId = item.id;
      return true;
    }
    const response = item.response;
    return !("task" in response && this.task !== undefined && JSON.stringify(response.task) === JSON.stringify(this.task));
  }

  #apply(response: StreamResponse): void {
    if ("message" in response && this.task === undefined) {
      this.message = response.message;
      return;
    }
    if (!("task" in response)) this.#stale = false;
    if ("task" in response) {
      const snapshot = structuredClone(response.task);
      if (this.task === undefined) this.task = snapshot;
      else applyEvent(this.task, { task: snapshot });
      return;
    }
    if (this.task === undefined) {
      // A server that starts without the Task snapshot: begin from the event's ids.
      const event = "statusUpdate" in response ? response.statusUpdate : "artifactUpdate" in response ? response.artifactUpdate : undefined;
      if (!event) return;
      this.task = { id: event.taskId, contextId: event.contextId, status: { state: "TASK_STATE_SUBMITTED" } };
    }
    applyEvent(this.task, response);
  }

  /** A cut connection can be resumed; the agent's refusals, bad answers and our own abort cannot. */
  #resumable(error: unknown): boolean {
    if (this.#signal?.aborted) return false;
    if (error instanceof A2AClientError) return error.httpStatus >= 500 && error.type !== "InvalidAgentResponse";
    if (error instanceof A2AHttpError) return error.status >= 500 || error.status === 408 || error.status === 429;
    if (error instanceof A2AStreamError) return false;
    return true;
  }
}

/** Polls GetTask with backoff, yielding the task whenever it changed, until it settles. */
export async function* pollTask(
  getTask: () => Promise<Task>,
  options: PollOptions & { signal?: AbortSignal; first?: Task },
): AsyncGenerator<StreamItem> {
  const factor = options.factor ?? 1.5;
  const maxDelay = options.maxDelayMs ?? 3_000;
  let delay = options.initialDelayMs ?? 300;
  let last = options.first;
  if (last === undefined) {
    last = await getTask();
    yield { response: { task: last } };
  }
  let seen = JSON.stringify(last);
  while (!isSettled(last.status.state)) {
    await sleep(delay, options.signal);
    delay = Math.min(maxDelay, delay * factor);
    const task = await getTask();
    const json = JSON.stringify(task);
    if (json !== seen) {
      seen = json;
      yield { response: { task } };
    }
    last = task;
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
