/**
 * TaskObject: one Durable Object per task, the only writer of that task. It runs the agent's executor,
 * stores every event before anyone sees it (append = insert + apply + broadcast in one synchronous block),
 * fans events out over SSE with `id: <seq>` and replays them after a cursor, and keeps the caller's
 * index current. An alarm and a start-up check make sure no task stays WORKING forever.
 */
import { DurableObject } from "cloudflare:workers";
import { audit, auditEvent } from "../audit";
import { createAgentContext } from "../agent/context";
import { DEFAULT_LIMITS, type AgentContext, type AgentDefinition } from "../agent/types";
import { envNumber, type A2AEnv } from "../env";
import {
  A2AError, closesStream, isSettled, isTerminal, nowTimestamp,
  type Framing, type Message, type SendMessageResponse,
  type StreamResponse, type Task, type TaskPushNotificationConfig, type TaskState,
} from "../protocol/index";
import { IndexSync, indexEntryOf } from "./index-sync";
import { lifetimes, nextLifecycleStep, type Lifetimes, type LifecycleStep } from "./lifetimes";
import { indexStub } from "./names";
import { PushOutbox, pushConfigOf, type PushEvents } from "./push-outbox";
import type { Delivery, DeliveryState, PushVersion } from "./push-store";
import { applyEvent, withHistoryLength } from "./reducer";
import { TaskStore, type StoredTask } from "./store";
import { Subscribers } from "./subscribers";
import { guard, guardSync, type Access, type Draft, type Outcome, type PushPayload, type Run, type SendInput } from "./task-types";
import { Waiters } from "./waiters";

export type { Access, Outcome, PushPayload, SendInput } from "./task-types";

const DEFAULT_DEADLINE_MS = 15 * 60_000;
/** While a run is active the alarm also ticks this often, so a run lost to a restart is failed soon even if nobody looks. */
const WATCHDOG_MS = 60_000;
const CANCEL_HANDLER_TIMEOUT_MS = 5_000;

export class TaskObjectBase extends DurableObject<A2AEnv> {
  readonly #definition: AgentDefinition;
  readonly #store: TaskStore;
  readonly #subs: Subscribers;
  #stored: StoredTask | null | undefined;
  #draft: Draft | undefined;
  #run: Run | undefined;
  readonly #wait = new Waiters();
  readonly #index: IndexSync;
  /** The alarm time last given to storage (undefined: none), so unchanged times are not written again. */
  #alarmAt: number | undefined;
  /** Artifact bytes so far (counted once from the stored task, then kept up to date). */
  #artifactBytes: number | undefined;
  readonly #push: PushOutbox;

  constructor(ctx: DurableObjectState, env: A2AEnv, definition: AgentDefinition) {
    super(ctx, env);
    this.#definition = definition;
    this.#store = new TaskStore(ctx.storage.sql);
    this.#subs = new Subscribers({ heartbeatMs: definition.options?.heartbeatMs ?? 15_000, maxPending: 1024 });
    this.#index = new IndexSync(() => indexEntryOf(this.#stored), (entry) => indexStub(this.env, entry.tenant, entry.owner).upsert(entry));
    const pushEvents: PushEvents = definition.options?.pushEvents ?? "all";
    const requeueAfterMs = env.PUSH_REQUEUE_AFTER_SECONDS ? envNumber(env.PUSH_REQUEUE_AFTER_SECONDS, 900) * 1000 : undefined;
    this.#push = new PushOutbox(ctx.storage.sql, env.PUSH_QUEUE, pushEvents, requeueAfterMs);
  }

  // ---- RPC: the operations -------------------------------------------------------------------

  async sendMessage(input: SendInput, wait: "blocking" | "immediate"): Promise<Outcome<SendMessageResponse>> {
    return guard(async () => {
      const historyLength = input.request.configuration?.historyLength;
      const { run } = await this.#begin(input, { createAtOnce: wait === "immediate" });
      // The answer is taken at the moment the wait ends, before any later run can change the task.
      const result = await this.#wait.until((): SendMessageResponse | undefined => {
        if (run.reply) return { message: run.reply };
        const stored = this.#stored;
        if (!stored) return undefined;
        const ready = wait === "immediate" || !run.live || (stored.lastSeq > run.startSeq && isSettled(stored.task.status.state));
        return ready ? { task: withHistoryLength(stored.task, historyLength) } : undefined;
      });
      await this.#index.synced();
      return result;
    });
  }

  async sendStreamingMessage(input: SendInput, framing: Framing): Promise<Outcome<ReadableStream<Uint8Array>>> {
    // With a framing, #begin always opens the stream.
    return guard(async () => (await this.#begin(input, { framing })).readable!);
  }

  getTask(access: Access, historyLength: number | undefined): Outcome<Task> {
    return guardSync(() => withHistoryLength(this.#access(access).task, historyLength));
  }

  async cancelTask(access: Access): Promise<Outcome<Task>> {
    return guard(async () => {
      const stored = this.#access(access);
      const state = stored.task.status.state;
      if (state === "TASK_STATE_CANCELED") return withHistoryLength(stored.task, undefined);
      if (isTerminal(state)) throw new A2AError("TaskNotCancelable", `Task is already ${state}`, { taskId: stored.task.id });
      const run = this.#run;
      if (run) {
        run.stopping = true;
        run.controller.abort(new Error("canceled by the client"));
        if (this.#definition.cancel) await this.#runCancelHandler(run.context);
      }
      if (!isTerminal(stored.task.status.state)) this.#emitStatus("TASK_STATE_CANCELED");
      if (run) this.#endRun(run);
      await this.#index.synced();
      return withHistoryLength(stored.task, undefined);
    });
  }

  /**
   * Without a cursor the first event is the current Task (id = the last seq it reflects); with a cursor
   * (Last-Event-ID) the stored events after it are replayed. Either way in one synchronous block, so
   * nothing is missed or sent twice.
   */
  subscribe(access: Access, afterSeq: number | undefined, framing: Framing): Outcome<ReadableStream<Uint8Array>> {
    return guardSync(() => {
      const stored = this.#access(access);
      const terminal = isTerminal(stored.task.status.state);
      if (afterSeq === undefined && terminal) {
        throw new A2AError("UnsupportedOperation", `Task is already ${stored.task.status.state}; nothing to subscribe to`, { taskId: stored.task.id });
      }
      this.#checkSubscriberRoom();
      const { id, readable } = this.#subs.open(framing);
      if (afterSeq === undefined) this.#subs.send(id, stored.lastSeq, JSON.stringify({ task: stored.task }));
      else for (const event of this.#store.eventsAfter(afterSeq)) this.#subs.send(id, event.seq, event.json);
      if (terminal) this.#subs.close(id);
      return readable;
    });
  }

  /**
   * The alarm: in a fresh instance (after a restart) #load fails a task whose run died; a run past its
   * deadline is aborted and the task fails; push rows not yet in the queue are sent again.
   */
  override async alarm(): Promise<void> {
    this.#alarmAt = undefined; // a fired alarm is gone
    const stored = this.#load();
    const due = this.#lifecycleDue();
    if (stored && due && Date.now() >= due.at) {
      if (due.action === "purge") return this.#purge(stored);
      this.#emitStatus("TASK_STATE_CANCELED", `Canceled automatically: nobody answered within ${Math.round(this.#lifetimes().interruptedMs / 1000)} s.`);
    }
    const run = this.#run;
    if (run && Date.now() >= run.deadline) {
      run.stopping = true;
      run.controller.abort(new Error("deadline exceeded"));
      const seconds = Math.round(this.#deadlineMs() / 1000);
      this.#emitStatus("TASK_STATE_FAILED", `The agent did not finish within ${seconds} s.`);
      this.#endRun(run);
    }
    if (stored) await this.#push.flush(stored.tenant, stored.task.id);
    await this.#armAlarm();
  }

  // ---- push configs (the four operations) and the consumer's view -----------------------------

  createPushConfig(access: Access, config: TaskPushNotificationConfig, agentUrl: string, maxConfigs: number, version: PushVersion): Outcome<TaskPushNotificationConfig> {
    return guardSync(() => this.#push.create(this.#access(access), config, agentUrl, maxConfigs, version));
  }

  getPushConfig(access: Access, id: string): Outcome<TaskPushNotificationConfig> {
    return guardSync(() => this.#push.get(this.#access(access), id));
  }

  listPushConfigs(access: Access, offset: number, limit: number): Outcome<{ configs: TaskPushNotificationConfig[]; more: boolean }> {
    return guardSync(() => {
      this.#access(access);
      return this.#push.store.list(offset, limit);
    });
  }

  /** Idempotent: deleting a config that is gone succeeds, as long as the task is there. */
  deletePushConfig(access: Access, id: string): Outcome<null> {
    return guardSync(() => {
      this.#access(access);
      this.#push.store.delete(id);
      return null;
    });
  }

  pushDeliveries(access: Access, configId?: string): Outcome<Delivery[]> {
    return guardSync(() => {
      this.#access(access);
      return this.#push.store.deliveries(configId);
    });
  }

  /** For the queue consumer: the config and stored event of one delivery, unless it is settled or its config is gone. */
  pushPayload(configId: string, seq: number): PushPayload | null {
    const stored = this.#load();
    return stored ? this.#push.payload(stored, configId, seq, (n) => this.#store.eventsAfter(n - 1)[0]) : null;
  }

  /** For the queue consumer: the outcome of one attempt. `queued` means it will be retried. */
  recordPushAttempt(configId: string, seq: number, state: DeliveryState, outcome: string): void {
    this.#push.store.record(configId, seq, state, outcome);
  }

  // ---- running the executor -------------------------------------------------------------------

  /** Validates the message against the task, takes this task's turn and starts the executor. */
  async #begin(input: SendInput, how: { framing?: Framing; createAtOnce?: boolean }): Promise<{ run: Run; readable?: ReadableStream<Uint8Array> }> {
    const message = input.request.message;
    if (!input.isNew) this.#checkContinuation(input);
    const release = await this.#wait.takeTurn();
    try {
      let contextId: string;
      if (input.isNew) {
        if (this.#load() || this.#draft) throw new A2AError("Internal", "task id collision");
        contextId = message.contextId || crypto.randomUUID();
        this.#draft = { id: input.taskId, contextId, message: { ...message, taskId: input.taskId, contextId }, tenant: input.tenant, owner: input.caller.id, agentUrl: input.agentUrl, pushVersion: input.pushVersion };
        if (input.request.metadata) this.#draft.metadata = input.request.metadata;
        if (input.pushConfig) this.#draft.pushConfig = input.pushConfig;
      } else {
        const stored = this.#checkContinuation(input); // again: the task may have ended while we waited
        const maxHistory = this.#limits().historyPerTask;
        if ((stored.task.history?.length ?? 0) >= maxHistory) {
          throw new A2AError("LimitExceeded", `This task's history holds ${maxHistory} messages, the most allowed; start a new task`, { taskId: stored.task.id, limit: String(maxHistory) });
        }
        contextId = stored.task.contextId ?? "";
        const userMessage = { ...message, taskId: stored.task.id, contextId };
        (stored.task.history ??= []).push(userMessage);
        this.#store.appendHistory(userMessage);
        if (input.pushConfig) this.#push.store.put(pushConfigOf(input.pushConfig, input.pushConfig.id!, stored.task.id, stored.tenant), input.agentUrl, input.pushVersion);
      }
      let readable: ReadableStream<Uint8Array> | undefined;
      if (how.framing) {
        this.#checkSubscriberRoom();
        // A send stream ends at INPUT_REQUIRED (the client answers with a new send); subscriptions follow to the end.
        const sub = this.#subs.open(how.framing, { endsAtInterrupt: true });
        readable = sub.readable;
        if (this.#stored) this.#subs.send(sub.id, this.#stored.lastSeq, JSON.stringify({ task: this.#stored.task }));
      }
      const run = this.#startRun(input, contextId, release, how.framing !== undefined);
      // returnImmediately needs a task now: the executor had its synchronous turn to reply with a Message.
      if (how.createAtOnce && !run.reply && run.live) this.#ensureCreated();
      // The run itself, not a copy: waiters read its live fields (reply, live) as the executor sets them.
      return readable ? { run, readable } : { run };
    } catch (error) {
      release();
      throw error;
    }
  }

  #checkContinuation(input: SendInput): StoredTask {
    const stored = this.#access(input);
    const given = input.request.message.contextId;
    if (given && stored.task.contextId && given !== stored.task.contextId) {
      throw new A2AError("InvalidParams", "message.contextId does not match the task's contextId", { taskId: stored.task.id });
    }
    if (isTerminal(stored.task.status.state)) {
      throw new A2AError("UnsupportedOperation", `Task is ${stored.task.status.state}; a terminal task accepts no more messages`, { taskId: stored.task.id });
    }
    return stored;
  }

  #startRun(input: SendInput, contextId: string, release: () => void, deferExecutor: boolean): Run {
    const controller = new AbortController();
    const self = this;
    const host = {
      get task(): Task | undefined { return self.#stored?.task; },
      get live(): boolean { return run.live && !run.stopping; },
      emit: (event: StreamResponse) => { this.#ensureCreated(); this.#append(event); },
      reply: (message: Message) => {
        run.reply = message;
        this.#draft = undefined;
        this.#subs.broadcast(undefined, JSON.stringify({ message }));
        this.#subs.closeAll();
        this.#wait.notify();
      },
    };
    const context = createAgentContext(host, {
      message: input.request.message,
      taskId: input.taskId,
      contextId,
      tenant: input.tenant,
      caller: input.caller,
      acceptedOutputModes: input.request.configuration?.acceptedOutputModes,
      signal: controller.signal,
      extensions: input.extensions,
      env: this.env,
    });
    const run: Run = { controller, context, deadline: Date.now() + this.#deadlineMs(), live: true, stopping: false, startSeq: this.#stored?.lastSeq ?? 0, release };
    this.#run = run;
    if (deferExecutor) {
      // A stream's response (its headers) goes out first; the executor starts on the next turn.
      setTimeout(() => void this.#execute(run), 0);
      void this.#armAlarm();
    } else {
      void this.#execute(run);
      // Most runs that finish at once never need the watchdog; one still going does.
      if (run.live) void this.#armAlarm();
    }
    return run;
  }

  async #execute(run: Run): Promise<void> {
    let failed = false;
    try {
      await this.#definition.execute(run.context);
    } catch (error) {
      failed = true;
      console.error(`executor failed for task ${run.context.taskId}:`, error);
    }
    if (!run.live || run.stopping || run.reply) return run.stopping ? undefined : this.#endRun(run);
    this.#ensureCreated();
    // Returning means done: an unsettled task completes, or fails if the executor threw.
    if (!isSettled(this.#stored!.task.status.state)) {
      if (failed) this.#emitStatus("TASK_STATE_FAILED", "The agent failed while working on this task.");
      else this.#emitStatus("TASK_STATE_COMPLETED");
    }
    this.#endRun(run);
  }

  #endRun(run: Run): void {
    if (!run.live) return;
    run.live = false;
    if (this.#run === run) {
      this.#run = undefined;
      void this.#armAlarm();
    }
    run.release();
    this.#wait.notify();
  }

  async #runCancelHandler(context: AgentContext): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | null = null;
    try {
      await Promise.race([
        Promise.resolve(this.#definition.cancel!(context)),
        new Promise((resolve) => (timer = setTimeout(resolve, CANCEL_HANDLER_TIMEOUT_MS))),
      ]);
    } catch (error) {
      console.error(`cancel handler failed for task ${context.taskId}:`, error);
    } finally {
      if (timer !== null) clearTimeout(timer);
    }
  }

  // ---- storing and broadcasting ----------------------------------------------------------------

  /** The first task event creates the task: its SUBMITTED snapshot is event 1. */
  #ensureCreated(): void {
    const draft = this.#draft;
    if (this.#stored || !draft) return;
    this.#draft = undefined;
    const task: Task = { id: draft.id, contextId: draft.contextId, status: { state: "TASK_STATE_SUBMITTED", timestamp: nowTimestamp() }, history: [draft.message] };
    if (draft.metadata) task.metadata = draft.metadata;
    this.#store.create(task, draft, Date.now());
    if (draft.pushConfig) this.#push.store.put(pushConfigOf(draft.pushConfig, draft.pushConfig.id!, task.id, draft.tenant), draft.agentUrl, draft.pushVersion);
    const json = JSON.stringify({ task });
    const seq = this.#store.appendEvent(json);
    this.#stored = { task, tenant: draft.tenant, owner: draft.owner, lastSeq: seq, createdAt: Date.now() };
    audit(this.env, { tenant: draft.tenant, caller: draft.owner }, { event: "task.received", taskId: task.id, contextId: draft.contextId });
    this.#subs.broadcast(seq, json);
    this.#index.schedule();
    this.#wait.notify();
  }

  /** Store, apply, broadcast: one synchronous block, so order is total and nothing is seen unstored. */
  #append(event: StreamResponse): void {
    const stored = this.#stored;
    if (!stored || isTerminal(stored.task.status.state) || !this.#roomForArtifact(event)) return;
    const json = JSON.stringify(event);
    const seq = this.#store.appendEvent(json);
    this.#store.persist(stored.task, applyEvent(stored.task, event));
    const pushed = this.#push.eventStored(seq, event);
    stored.lastSeq = seq;
    this.#subs.broadcast(seq, json);
    if (pushed) void this.#push.flush(stored.tenant, stored.task.id).then(() => this.#armAlarm());
    auditEvent(this.env, stored, event, seq);
    if ("statusUpdate" in event) {
      const state = event.statusUpdate.status.state;
      if (isSettled(state)) void this.#armAlarm();
      if (isTerminal(state)) this.#subs.closeAll();
      else if (closesStream(state)) this.#subs.closeInterruptible();
      this.#index.schedule();
    }
    this.#wait.notify();
  }

  #emitStatus(state: TaskState, text?: string): void {
    this.#ensureCreated();
    const task = this.#stored?.task;
    if (!task) return;
    const status: Task["status"] = { state, timestamp: nowTimestamp() };
    if (text) status.message = { messageId: crypto.randomUUID(), role: "ROLE_AGENT", parts: [{ text }], taskId: task.id, contextId: task.contextId ?? "" };
    this.#append({ statusUpdate: { taskId: task.id, contextId: task.contextId ?? "", status } });
  }

  // ---- state, access and plumbing ------------------------------------------------------------

  /** Loads the task once per instance. A fresh instance runs no executor, so an active task's run has died. */
  #load(): StoredTask | null {
    if (this.#stored !== undefined) return this.#stored;
    this.#stored = this.#store.load();
    const state = this.#stored?.task.status.state;
    if (state === "TASK_STATE_SUBMITTED" || state === "TASK_STATE_WORKING") {
      this.#emitStatus("TASK_STATE_FAILED", "The agent stopped unexpectedly (the runtime restarted) before finishing this task.");
    }
    return this.#stored;
  }

  /** Another tenant's or caller's task is indistinguishable from a missing one. */
  #access(access: Access): StoredTask {
    const stored = this.#load();
    if (!stored || stored.tenant !== access.tenant || stored.owner !== access.caller.id) {
      throw new A2AError("TaskNotFound", `Task ${access.taskId} not found`, { taskId: access.taskId });
    }
    return stored;
  }

  #limits() {
    return { ...DEFAULT_LIMITS, ...this.#definition.options?.limits };
  }

  /** False (and the task fails) when an artifact event would take the task past its artifact limit. */
  #roomForArtifact(event: StreamResponse): boolean {
    if (!("artifactUpdate" in event)) return true;
    const stored = this.#stored!;
    this.#artifactBytes ??= (stored.task.artifacts ?? []).reduce((sum, a) => sum + JSON.stringify(a.parts).length, 0);
    const added = JSON.stringify(event.artifactUpdate.artifact.parts).length;
    const limit = this.#limits().artifactBytesPerTask;
    if (this.#artifactBytes + added <= limit) {
      this.#artifactBytes += added;
      return true;
    }
    this.#emitStatus("TASK_STATE_FAILED", `The agent's artifacts grew past ${limit} bytes, the most one task may hold.`);
    return false;
  }

  #checkSubscriberRoom(): void {
    const limit = this.#limits().subscribersPerTask;
    if (this.#subs.size >= limit) throw new A2AError("LimitExceeded", `This task already has ${limit} open streams, the most allowed`, { limit: String(limit) });
  }

  #deadlineMs(): number {
    return envNumber(this.env.EXECUTOR_TIMEOUT_MS, this.#definition.options?.executorTimeoutMs ?? DEFAULT_DEADLINE_MS);
  }

  #lifetimes(): Lifetimes {
    return lifetimes(this.env, this.#definition.options);
  }

  #lifecycleDue(): LifecycleStep | undefined {
    return this.#stored ? nextLifecycleStep(this.#stored, this.#lifetimes(), this.#run !== undefined, this.#push.nextWake() !== undefined) : undefined;
  }

  /** Removes a task past its retention: first from the caller's list, then every row of it. */
  async #purge(stored: StoredTask): Promise<void> {
    await indexStub(this.env, stored.tenant, stored.owner).remove(stored.task.id);
    this.#subs.closeAll();
    await this.ctx.storage.deleteAll();
    await this.ctx.storage.deleteAlarm();
    this.#push.store.forget();
    this.#alarmAt = undefined;
    this.#stored = null;
    audit(this.env, { tenant: stored.tenant, caller: stored.owner }, { event: "task.purged", taskId: stored.task.id });
  }

  async #armAlarm(): Promise<void> {
    const at = this.#nextAlarm();
    if (at === this.#alarmAt) return; // already set (or already none): storage needs no word
    this.#alarmAt = at;
    if (at !== undefined) await this.ctx.storage.setAlarm(at);
    else await this.ctx.storage.deleteAlarm();
  }

  #nextAlarm(): number | undefined {
    const times: number[] = [];
    if (this.#run) times.push(nextWatch(this.#run.deadline));
    const push = this.#push.nextWake();
    if (push !== undefined) times.push(push);
    const lifecycle = this.#lifecycleDue();
    if (lifecycle) times.push(lifecycle.at);
    return times.length ? Math.min(...times) : undefined;
  }

}

function nextWatch(deadline: number): number {
  return Math.min(deadline, Date.now() + WATCHDOG_MS);
}

/** The TaskObject class for one agent definition; export it from the Worker's main module. */
export function taskObjectClass(definition: AgentDefinition) {
  return class TaskObject extends TaskObjectBase {
    constructor(ctx: DurableObjectState, env: A2AEnv) {
      super(ctx, env, definition);
    }
  };
}
