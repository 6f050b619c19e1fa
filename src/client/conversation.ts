/**
 * A multi-turn conversation with an agent. Each message carries the conversation's `contextId`; while
 * the current task is INPUT_REQUIRED or AUTH_REQUIRED the next message continues that task (same
 * `taskId`); after a terminal state the next message starts a new task in the same context.
 *
 *   const chat = client.conversation();
 *   let turn = await chat.send("book a table");
 *   while (turn.needsInput) turn = await chat.send(await ask(turn.text));
 *   if (turn.needsAuth) console.log("the agent needs authorization:", turn.text);
 */
import type { Message, Part, Task } from "../protocol/objects";
import type { SendMessageConfiguration } from "../protocol/requests";
import { isInterrupted, isTerminal, type TaskState } from "../protocol/states";
import type { A2AClient, StreamOptions } from "./client";
import { userMessage } from "./message";
import type { TaskStream } from "./stream";

/** What one turn ended with. */
export interface Turn {
  /** The task after this turn, when the agent works in a task. */
  task?: Task;
  /** The agent's bare Message, when it answered without a task. */
  message?: Message;
  state?: TaskState;
  /** The agent's words: its reply, or the text of the task's status message (the question, the reason). */
  text: string;
  /** INPUT_REQUIRED: answer with `send()`. */
  needsInput: boolean;
  /** AUTH_REQUIRED: the agent needs authorization; `text` says what. */
  needsAuth: boolean;
  /** A bare Message or a terminal task: the next message starts a new task in the same context. */
  done: boolean;
}

export interface TurnOptions extends StreamOptions {
  configuration?: SendMessageConfiguration;
  metadata?: Record<string, unknown>;
  /** The message's id (default: a fresh UUID); reuse one to retry a send the agent may have seen. */
  messageId?: string;
}

/** The text parts of a message, joined. */
export function textOf(message: Message | undefined): string {
  return (message?.parts ?? []).map((p) => p.text ?? "").filter(Boolean).join("\n");
}

/** What a task or message amounts to for the caller. */
export function turnOf(result: { task?: Task | undefined; message?: Message | undefined }): Turn {
  if (result.message && !result.task) return { message: result.message, text: textOf(result.message), needsInput: false, needsAuth: false, done: true };
  const task = result.task;
  if (!task) return { text: "", needsInput: false, needsAuth: false, done: false };
  const state = task.status.state;
  return {
    task,
    state,
    text: textOf(task.status.message),
    needsInput: state === "TASK_STATE_INPUT_REQUIRED",
    needsAuth: state === "TASK_STATE_AUTH_REQUIRED",
    done: isTerminal(state),
  };
}

export class Conversation {
  readonly #client: A2AClient;
  #contextId: string | undefined;
  #startTaskId: string | undefined;
  #last: { task?: Task | undefined; message?: Message | undefined } | TaskStream | undefined;

  constructor(client: A2AClient, start: { contextId?: string; taskId?: string }) {
    this.#client = client;
    this.#contextId = start.contextId;
    this.#startTaskId = start.taskId;
  }

  /** The latest task of the conversation (while a stream runs, as far as it got). */
  get task(): Task | undefined {
    return this.#last?.task;
  }

  get contextId(): string | undefined {
    return this.#last?.task?.contextId ?? this.#last?.message?.contextId ?? this.#contextId;
  }

  /** The task the next message continues: the current one while it waits for input or authorization. */
  get taskId(): string | undefined {
    const task = this.task;
    if (task) return isInterrupted(task.status.state) ? task.id : undefined;
    return this.#startTaskId;
  }

  /** The next user message, with the conversation's ids. */
  message(content: string | Part[], metadata?: Record<string, unknown>, messageId?: string): Message {
    const ids: Parameters<typeof userMessage>[1] = {};
    const taskId = this.taskId;
    const contextId = this.contextId;
    if (taskId) ids.taskId = taskId;
    if (contextId) ids.contextId = contextId;
    if (metadata) ids.metadata = metadata;
    const message = userMessage(content, ids);
    if (messageId) message.messageId = messageId;
    return message;
  }

  /** Sends the next message and waits until the turn settles (SendMessage, blocking). */
  async send(content: string | Part[], options: TurnOptions = {}): Promise<Turn> {
    const { configuration, metadata, messageId, ...call } = options;
    const params: Parameters<A2AClient["sendMessage"]>[0] = { message: this.message(content, undefined, messageId) };
    if (configuration) params.configuration = configuration;
    if (metadata) params.metadata = metadata;
    const response = await this.#client.sendMessage(params, call);
    this.#last = "task" in response ? { task: response.task } : { message: response.message };
    this.#startTaskId = undefined;
    return turnOf(this.#last);
  }

  /** Sends the next message as a stream; the conversation follows the stream's task. */
  stream(content: string | Part[], options: TurnOptions = {}): TaskStream {
    const { configuration, metadata, messageId, ...call } = options;
    const params: Parameters<A2AClient["sendStreamingMessage"]>[0] = { message: this.message(content, undefined, messageId) };
    if (configuration) params.configuration = configuration;
    if (metadata) params.metadata = metadata;
    const stream = this.#client.sendStreamingMessage(params, call);
    this.#last = stream;
    this.#startTaskId = undefined;
    return stream;
  }

  /** The turn as it stands now (after a stream has ended, its outcome). */
  get turn(): Turn {
    return turnOf(this.#last ?? {});
  }
}
