/**
 * One task, opened from the list: its history, artifacts and event log, followed live while it runs.
 *
 * A running task is followed with SubscribeToTask (its first event is the task as it stands, with the
 * id of the last event it reflects; the client resumes a cut stream after the last event it saw). The
 * event log's earlier events come from a replay (SubscribeToTask with Last-Event-ID 0) read up to that
 * id; a finished task's replay is the whole log, and the stream then ends by itself.
 */
import { A2AClientError, isInterrupted, isTerminal, type A2AClient, type StreamResponse, type Task } from "../../client/index";
import { errorText, h, jsonDetails, shortId, stateBadge, time, dateTime } from "./dom";
import { renderArtifact, renderMessage } from "./parts";

export interface DetailHooks {
  onContinue(task: Task): void;
  /** The task changed (canceled, finished): the list may refresh. */
  onChanged(): void;
}

/** What kind of event, in a few words. */
function describe(event: StreamResponse): string {
  if ("task" in event) return `task · ${event.task.status.state.replace(/^TASK_STATE_/, "").toLowerCase()}`;
  if ("message" in event) return `message from ${event.message.role === "ROLE_USER" ? "the user" : "the agent"}`;
  if ("statusUpdate" in event) {
    const text = (event.statusUpdate.status.message?.parts ?? []).map((p) => p.text ?? "").join(" ").trim();
    return `status · ${event.statusUpdate.status.state.replace(/^TASK_STATE_/, "").toLowerCase()}${text ? ` — ${text}` : ""}`;
  }
  const update = event.artifactUpdate;
  return `artifact ${update.artifact.name ?? update.artifact.artifactId.slice(0, 8)}${update.append ? " · append" : ""}${update.lastChunk ? " · last chunk" : ""}`;
}

/** When the event happened, when it says so (status updates and tasks carry a timestamp). */
function timestampOf(event: StreamResponse): string | undefined {
  if ("statusUpdate" in event) return event.statusUpdate.status.timestamp;
  if ("task" in event) return event.task.status.timestamp;
  return undefined;
}

export class TaskDetail {
  readonly #root: HTMLElement;
  readonly #hooks: DetailHooks;
  readonly #log = new Map<number, HTMLElement>();
  readonly #logList = h("ol", { class: "event-log" });
  readonly #live = h("span", { class: "live-indicator", hidden: true }, "● following live");
  #abort = new AbortController();
  #task: Task | undefined;
  #body = h("div");

  constructor(root: HTMLElement, hooks: DetailHooks) {
    this.#root = root;
    this.#hooks = hooks;
    this.close();
  }

  /** Stops following and shows nothing. */
  close(): void {
    this.#abort.abort();
    this.#task = undefined;
    this.#root.replaceChildren(h("p", { class: "hint muted" }, "Open a task to see its history, artifacts and event log."));
  }

  async open(client: A2AClient, id: string): Promise<void> {
    this.#abort.abort();
    const abort = (this.#abort = new AbortController());
    this.#log.clear();
    this.#logList.replaceChildren();
    this.#live.hidden = true;
    this.#body = h("div", null, h("p", { class: "muted" }, "Loading…"));
    this.#root.replaceChildren(this.#body);
    try {
      const task = await client.getTask({ id }, { signal: abort.signal });
      if (abort.signal.aborted) return;
      this.#show(client, task);
      if (isTerminal(task.status.state)) await this.#replay(client, id, undefined, abort.signal);
      else await this.#follow(client, id, abort.signal);
    } catch (error) {
      if (!abort.signal.aborted) this.#root.append(h("p", { class: "error" }, errorText(error)));
    }
  }

  /** Follows the running task; the first event (the task now) says how far the replay must go. */
  async #follow(client: A2AClient, id: string, signal: AbortSignal): Promise<void> {
    const stream = client.subscribeToTask({ id }, { signal });
    this.#live.hidden = false;
    let replay: Promise<void> | undefined;
    try {
      for await (const event of stream) {
        const seq = Number(stream.lastEventId);
        if (replay === undefined) {
          replay = this.#replay(client, id, Number.isSafeInteger(seq) ? seq : undefined, signal);
          if ("task" in event) {
            if (stream.task) this.#show(client, stream.task);
            continue; // the task as it stands: the replay logs the events that made it
          }
        }
        this.#logEvent(seq, event);
        if (stream.task) this.#show(client, stream.task);
        if (stream.reconnects) this.#live.textContent = `● following live (resumed ${stream.reconnects}×)`;
      }
    } catch (error) {
      if (!signal.aborted) this.#root.append(h("p", { class: "error" }, `Following stopped: ${errorText(error)}`));
    } finally {
      this.#live.hidden = true;
    }
    await replay;
    if (signal.aborted) return;
    // The stream ends at a terminal state: the stored task has everything, user messages included.
    const task = await client.getTask({ id }, { signal }).catch(() => undefined);
    if (task && !signal.aborted) this.#show(client, task);
    this.#hooks.onChanged();
  }

  /** The stored events from the first, up to `until` (or to the end of a finished task's log). */
  async #replay(client: A2AClient, id: string, until: number | undefined, signal: AbortSignal): Promise<void> {
    if (until === 0) return;
    const stream = client.subscribeToTask({ id }, { lastEventId: "0", signal, resume: false });
    try {
      for await (const event of stream) {
        const seq = Number(stream.lastEventId);
        this.#logEvent(seq, event);
        if (until !== undefined && seq >= until) break;
      }
    } catch (error) {
      if (signal.aborted) return;
      const unsupported = error instanceof A2AClientError && error.type === "UnsupportedOperation";
      this.#logList.append(h("li", { class: "muted" }, unsupported ? "This agent does not replay the events of a finished task." : `Replay failed: ${errorText(error)}`));
    }
  }

  #logEvent(seq: number, event: StreamResponse): void {
    if (!Number.isSafeInteger(seq) || this.#log.has(seq)) return;
    const entry = h("li", { "data-seq": seq }, jsonDetails([h("span", { class: "seq" }, `#${seq}`), " ", h("span", { class: "time" }, time(timestampOf(event))), " ", describe(event)], event));
    this.#log.set(seq, entry);
    // Keep the log in event order: replayed events may arrive after live ones.
    const after = [...this.#log.keys()].filter((s) => s > seq).sort((a, b) => a - b)[0];
    if (after === undefined) this.#logList.append(entry);
    else this.#log.get(after)!.before(entry);
  }

  #show(client: A2AClient, task: Task): void {
    this.#task = task;
    const state = task.status.state;
    const cancel = h("button", { class: "danger", type: "button", hidden: isTerminal(state), onclick: async () => {
      cancel.disabled = true;
      try {
        await client.cancelTask({ id: task.id });
        this.#hooks.onChanged();
      } catch (error) {
        this.#body.append(h("p", { class: "error" }, `Cancel refused: ${errorText(error)}`));
        cancel.disabled = false;
      }
    } }, "Cancel task");
    const answer = h("button", { type: "button", hidden: !isInterrupted(state), onclick: () => this.#task && this.#hooks.onContinue(this.#task) }, "Answer in the chat");
    const history = task.history ?? [];
    const artifacts = task.artifacts ?? [];
    const body = h("div", null,
      h("header", { class: "detail-head" },
        h("h3", null, "Task ", h("code", { class: "id-full" }, task.id)),
        h("p", null, stateBadge(state), " ", dateTime(task.status.timestamp), " · context ", shortId(task.contextId), " ", this.#live),
        task.status.message ? renderMessage(task.status.message) : null,
        h("div", { class: "actions" }, cancel, answer)),
      h("section", null, h("h4", null, `History (${history.length})`), history.length ? history.map((m) => renderMessage(m)) : h("p", { class: "muted" }, "No messages.")),
      h("section", null, h("h4", null, `Artifacts (${artifacts.length})`), artifacts.length ? artifacts.map((a) => renderArtifact(a)) : h("p", { class: "muted" }, "No artifacts.")),
      h("section", null, h("h4", null, "Event log"), this.#logList),
      h("section", null, jsonDetails("the task's JSON", task)));
    this.#body.replaceWith(body);
    this.#body = body;
    this.#root.dataset.state = state.replace(/^TASK_STATE_/, "").toLowerCase();
  }
}
