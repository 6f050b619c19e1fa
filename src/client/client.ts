/**
 * The A2A client: discovery, one interface chosen from the card, and typed methods for the eleven
 * operations over JSON-RPC or HTTP+JSON with identical results.
 *
 *   const client = await A2AClient.connect("https://agent.example", { credentials: bearer(token) });
 *   for await (const event of client.sendStreamingMessage({ message: userMessage("hi") })) { … }
 */
import type { AgentCard, AgentInterface } from "../protocol/card";
import type { Message, StreamResponse, Task, TaskPushNotificationConfig } from "../protocol/objects";
import type {
  CancelTaskRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse,
} from "../protocol/requests";
import type { CredentialProvider } from "./auth";
import type { JSONWebKeySet, JWTVerifyGetKey } from "jose";
import { fetchAgentCard, interfaceVersion, selectInterface, V03, type Binding } from "./card";
import { V03_DIALECT } from "./v03-dialect";
import { Conversation } from "./conversation";
import { A2AClientError, invalidResponse } from "./errors";
import { HttpSession, type Fetch, type RetryAfterOptions } from "./http";
import { JsonRpcTransport } from "./jsonrpc";
import { RestTransport } from "./rest";
import { pollTask, TaskStream, type PollOptions, type ResumeOptions } from "./stream";
import type { CallOptions, StreamItem, Transport, UnaryOperation } from "./transport";

export interface ClientOptions {
  /** The fetch to use (a Service Binding's `fetch`, a test double…); default: the global fetch. */
  fetch?: Fetch;
  /** Credential providers: `bearer(...)`, `apiKey(...)`, `headers(...)`. */
  credentials?: CredentialProvider | CredentialProvider[];
  /** Bindings in the order you prefer; default: the card's order. */
  bindings?: Binding[];
  /** Overrides the chosen interface's tenant (the interface's own tenant is used otherwise). */
  tenant?: string;
  /** Extra headers on every request, e.g. `{ "A2A-Extensions": "https://…" }`. */
  headers?: Record<string, string>;
  /** A rate-limited request (`Retry-After`) is retried after the wait (default: twice, waits up to 30 s); `false` turns it off. */
  retryAfter?: RetryAfterOptions | false;
  /** Resubscription after a cut stream; `false` turns it off. */
  resume?: ResumeOptions | false;
  /** GetTask polling when the card says the agent does not stream. */
  polling?: PollOptions;
  /** When the card offers an extended card, fetch it (with the credentials) and use it instead; kept public if refused. */
  preferExtendedCard?: boolean;
  /**
   * Verify the card's signature (and the extended card's) against these keys (a JWKS, or a key
   * resolver such as jose's createRemoteJWKSet); an unsigned or badly signed card throws CardSignatureError.
   */
  verifyCard?: JSONWebKeySet | JWTVerifyGetKey;
  signal?: AbortSignal;
}

/** Loaded only when asked for, so clients that do not verify cards do not carry jose and the canonicalizer. */
async function verifySignature(card: AgentCard, keys: JSONWebKeySet | JWTVerifyGetKey): Promise<void> {
  const { verifyAgentCard } = await import("../signing/card");
  await verifyAgentCard(card, keys);
}

export interface StreamOptions extends CallOptions {
  resume?: ResumeOptions | false;
}

/** SendMessage's parameters; `tenant` comes from the interface. */
export type SendParams = Omit<SendMessageRequest, "tenant">;

function checkTask(value: unknown, operation: string): Task {
  const task = value as Task | null;
  if (!task || typeof task !== "object" || typeof task.id !== "string" || !task.status || typeof task.status.state !== "string") {
    throw invalidResponse(`${operation} did not return a Task`, 200);
  }
  return task;
}

function checkSendResponse(value: unknown): SendMessageResponse {
  const record = value as Record<string, unknown> | null;
  if (record && typeof record === "object") {
    if (record.task !== undefined && record.message === undefined) return { task: checkTask(record.task, "SendMessage") };
    if (record.message !== undefined && record.task === undefined && typeof record.message === "object") return { message: record.message as Message };
  }
  throw invalidResponse("SendMessage returned neither a task nor a message", 200);
}

export class A2AClient {
  /** The card in use (the extended card when it was fetched). */
  card: AgentCard;
  /** The interface requests go to. */
  readonly interface: AgentInterface & { protocolBinding: Binding };
  readonly tenant: string | undefined;
  readonly #session: HttpSession;
  readonly #transport: Transport;
  readonly #options: ClientOptions;

  /** Fetches the card (from the well-known path, or the card URL given) and picks the interface. */
  static async connect(url: string | URL, options: ClientOptions = {}): Promise<A2AClient> {
    const session = sessionFor(options);
    const card = await fetchAgentCard(session, url, options.signal);
    if (options.verifyCard) await verifySignature(card, options.verifyCard);
    const client = new A2AClient(card, options, session);
    if (options.preferExtendedCard && card.capabilities.extendedAgentCard) {
      let extended: AgentCard | undefined;
      try {
        extended = await client.getExtendedAgentCard(options.signal ? { signal: options.signal } : {});
      } catch (error) {
        // The public card still works; an agent that will not show its extended card keeps it.
        if (!(error instanceof A2AClientError)) throw error;
      }
      if (extended) {
        if (options.verifyCard) await verifySignature(extended, options.verifyCard);
        client.card = extended;
        session.card = extended;
      }
    }
    return client;
  }

  /** A client for a card you already have. */
  static fromCard(card: AgentCard, options: ClientOptions = {}): A2AClient {
    return new A2AClient(card, options, sessionFor(options));
  }

  private constructor(card: AgentCard, options: ClientOptions, session: HttpSession) {
    this.card = card;
    this.#options = options;
    this.#session = session;
    session.card = card;
    this.interface = selectInterface(card, options.bindings);
    this.tenant = options.tenant ?? this.interface.tenant;
    this.#transport = this.interface.protocolBinding === "HTTP+JSON"
      ? new RestTransport(session, this.interface.url, this.tenant)
      : new JsonRpcTransport(session, this.interface.url, this.tenant, interfaceVersion(this.interface) === V03 ? V03_DIALECT : undefined);
  }

  /** The protocol version spoken with this agent: "1.0", or "0.3" for an agent that offers only 0.3. */
  get protocolVersion(): string {
    return interfaceVersion(this.interface);
  }

  get binding(): Binding {
    return this.#transport.binding;
  }

  /** Whether the card says the agent streams; when not, streams are served by polling GetTask. */
  get streaming(): boolean {
    return this.card.capabilities.streaming === true;
  }

  // ---- the eleven operations ------------------------------------------------------------------

  /** Blocks until the task is terminal or interrupted, unless `configuration.returnImmediately`. */
  async sendMessage(params: SendParams, options?: CallOptions): Promise<SendMessageResponse> {
    return checkSendResponse(await this.#call("SendMessage", params, options));
  }

  /**
   * The task's events as they happen, resumed after cuts. When the card says the agent does not stream,
   * the same iterator is fed by SendMessage (returnImmediately) and GetTask polling.
   */
  sendStreamingMessage(params: SendParams, options: StreamOptions = {}): TaskStream {
    const continuation = Boolean(params.message.taskId);
    if (!this.streaming) {
      return this.#taskStream({
        open: async () => this.#pollSend(params, options),
        resume: async (taskId) => this.#poll(taskId, options),
        getTask: (taskId) => this.getTask({ id: taskId }, options),
      }, options, false);
    }
    return this.#taskStream({
      open: () => this.#transport.stream("SendStreamingMessage", params as Record<string, unknown>, options),
      resume: (taskId, lastEventId) => this.#subscribe(taskId, lastEventId, options),
      getTask: (taskId) => this.getTask({ id: taskId }, options),
    }, options, continuation);
  }

  async getTask(params: Omit<GetTaskRequest, "tenant">, options?: CallOptions): Promise<Task> {
    return checkTask(await this.#call("GetTask", params, options), "GetTask");
  }

  async listTasks(params: Omit<ListTasksRequest, "tenant"> = {}, options?: CallOptions): Promise<ListTasksResponse> {
    const result = (await this.#call("ListTasks", params, options)) as ListTasksResponse | null;
    if (!result || !Array.isArray(result.tasks)) throw invalidResponse("ListTasks did not return tasks", 200);
    return { ...result, nextPageToken: result.nextPageToken ?? "" };
  }

  async cancelTask(params: Omit<CancelTaskRequest, "tenant">, options?: CallOptions): Promise<Task> {
    return checkTask(await this.#call("CancelTask", params, options), "CancelTask");
  }

  /**
   * Follows a task: without `lastEventId` the first event is the current Task; with it, the events after
   * that one. Resumed after cuts like sendStreamingMessage; polled when the agent does not stream.
   */
  subscribeToTask(params: { id: string }, options: StreamOptions & { lastEventId?: string } = {}): TaskStream {
    if (!this.streaming) {
      return this.#taskStream({
        open: async () => this.#poll(params.id, options),
        resume: async (taskId) => this.#poll(taskId, options),
        getTask: (taskId) => this.getTask({ id: taskId }, options),
      }, options, false);
    }
    return this.#taskStream({
      open: () => this.#subscribe(params.id, options.lastEventId, options),
      resume: (taskId, lastEventId) => this.#subscribe(taskId, lastEventId, options),
      getTask: (taskId) => this.getTask({ id: taskId }, options),
    }, options, false);
  }

  async createTaskPushNotificationConfig(config: Omit<TaskPushNotificationConfig, "tenant"> & { taskId: string }, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    return (await this.#call("CreateTaskPushNotificationConfig", config, options)) as TaskPushNotificationConfig;
  }

  async getTaskPushNotificationConfig(params: Omit<GetTaskPushNotificationConfigRequest, "tenant">, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    return (await this.#call("GetTaskPushNotificationConfig", params, options)) as TaskPushNotificationConfig;
  }

  async listTaskPushNotificationConfigs(params: Omit<ListTaskPushNotificationConfigsRequest, "tenant">, options?: CallOptions): Promise<ListTaskPushNotificationConfigsResponse> {
    const result = (await this.#call("ListTaskPushNotificationConfigs", params, options)) as Partial<ListTaskPushNotificationConfigsResponse> | null;
    return { configs: result?.configs ?? [], nextPageToken: result?.nextPageToken ?? "" };
  }

  /** Resolves once deleted (JSON-RPC `null` and HTTP+JSON `{}` alike). */
  async deleteTaskPushNotificationConfig(params: Omit<GetTaskPushNotificationConfigRequest, "tenant">, options?: CallOptions): Promise<void> {
    await this.#call("DeleteTaskPushNotificationConfig", params, options);
  }

  async getExtendedAgentCard(options?: CallOptions): Promise<AgentCard> {
    return (await this.#call("GetExtendedAgentCard", {}, options)) as AgentCard;
  }

  /** A multi-turn conversation: answers to INPUT_REQUIRED continue the same task and context. */
  conversation(start: { contextId?: string; taskId?: string } = {}): Conversation {
    return new Conversation(this, start);
  }

  // ---- plumbing -------------------------------------------------------------------------------

  #call(operation: UnaryOperation, params: object, options: CallOptions = {}): Promise<unknown> {
    return this.#transport.call(operation, params as Record<string, unknown>, this.#withSignal(options));
  }

  #subscribe(taskId: string, lastEventId: string | undefined, options: CallOptions): Promise<AsyncIterable<StreamItem>> {
    const call = this.#withSignal(options);
    return this.#transport.stream("SubscribeToTask", { id: taskId }, lastEventId === undefined ? call : { ...call, lastEventId });
  }

  #taskStream(source: ConstructorParameters<typeof TaskStream>[0], options: StreamOptions, continuation: boolean): TaskStream {
    const resume = options.resume ?? this.#options.resume;
    const signal = options.signal ?? this.#options.signal;
    const init: ConstructorParameters<typeof TaskStream>[1] = { continuation };
    if (resume !== undefined) init.resume = resume;
    if (signal) init.signal = signal;
    return new TaskStream(source, init);
  }

  async *#pollSend(params: SendParams, options: CallOptions): AsyncGenerator<StreamItem> {
    // A follow-up blocks until its own turn settles; a new task returns at once and is polled.
    const continuation = Boolean(params.message.taskId);
    const configuration = { ...params.configuration, returnImmediately: !continuation };
    const response = await this.sendMessage({ ...params, configuration }, options);
    if ("message" in response) {
      yield { response };
      return;
    }
    yield { response };
    yield* this.#poll(response.task.id, options, response.task);
  }

  #poll(taskId: string, options: CallOptions, first?: Task): AsyncGenerator<StreamItem> {
    const signal = options.signal ?? this.#options.signal;
    const poll: Parameters<typeof pollTask>[1] = { ...this.#options.polling };
    if (signal) poll.signal = signal;
    if (first) poll.first = first;
    return pollTask(() => this.getTask({ id: taskId }, options), poll);
  }

  #withSignal(options: CallOptions): CallOptions {
    const signal = options.signal ?? this.#options.signal;
    return signal ? { ...options, signal } : options;
  }
}

function sessionFor(options: ClientOptions): HttpSession {
  const credentials = options.credentials === undefined ? [] : Array.isArray(options.credentials) ? options.credentials : [options.credentials];
  const http: ConstructorParameters<typeof HttpSession>[0] = {
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    credentials,
  };
  if (options.headers) http.headers = options.headers;
  if (options.retryAfter !== undefined) http.retryAfter = options.retryAfter;
  return new HttpSession(http);
}

export type { StreamResponse };
