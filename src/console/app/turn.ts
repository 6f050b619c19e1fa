/**
 * One turn of the chat as it happens: the task it runs in, each status transition, the artifacts
 * growing chunk by chunk, and a Cancel button while the task is not finished.
 */
import { isTerminal, type A2AClient, type StreamResponse, type TaskStream } from "../../client/index";
import { errorText, h, shortId, stateBadge, time } from "./dom";
import { renderArtifact, renderMessage, renderParts } from "./parts";

export class TurnView {
  readonly element: HTMLElement;
  readonly #client: A2AClient;
  readonly #head = h("div", { class: "turn-head" });
  readonly #badge = h("span");
  /** Status transitions and artifacts in the order they came. */
  readonly #timeline = h("ol", { class: "timeline" });
  readonly #cancel: HTMLButtonElement;
  readonly #artifactElements = new Map<string, HTMLElement>();
  readonly #continuation: boolean;
  #taskId: string | undefined;

  constructor(client: A2AClient, continuation: boolean) {
    this.#client = client;
    this.#continuation = continuation;
    this.#cancel = h("button", { class: "danger cancel", type: "button", hidden: true, onclick: () => void this.cancel() }, "Cancel task");
    this.element = h("div", { class: "turn" }, h("div", { class: "turn-bar" }, this.#head, this.#badge, this.#cancel), this.#timeline);
  }

  /** Shows one event of the turn's stream; `stream.task` is the task as the events built it. */
  show(event: StreamResponse, stream: TaskStream): void {
    const task = stream.task;
    if ("message" in event && !task) {
      this.element.replaceChildren(renderMessage(event.message));
      return;
    }
    if (task && task.id !== this.#taskId) {
      this.#taskId = task.id;
      this.#head.replaceChildren(this.#continuation ? "continuing task " : "task ", shortId(task.id), " in context ", shortId(task.contextId));
    }
    if ("task" in event && !this.#continuation) this.#status(event.task.status.state, undefined, event.task.status.timestamp);
    if ("statusUpdate" in event) {
      const status = event.statusUpdate.status;
      this.#status(status.state, status.message ? renderParts(status.message.parts) : undefined, status.timestamp);
    }
    if ("artifactUpdate" in event) {
      const id = event.artifactUpdate.artifact.artifactId;
      const artifact = task?.artifacts?.find((a) => a.artifactId === id) ?? event.artifactUpdate.artifact;
      const fresh = h("li", { class: "timeline-artifact" }, renderArtifact(artifact, event.artifactUpdate.lastChunk !== true));
      const old = this.#artifactElements.get(id);
      if (old) old.replaceWith(fresh);
      else this.#timeline.append(fresh);
      this.#artifactElements.set(id, fresh);
    }
    if (task) this.#state(task.status.state);
  }

  /** The stream ended: a final word on the state. */
  settle(stream: TaskStream): void {
    for (const element of this.#artifactElements.values()) element.querySelector(".artifact")?.classList.remove("live");
    if (stream.task) this.#state(stream.task.status.state);
    if (stream.reconnects) this.#timeline.append(h("li", { class: "muted" }, `(the stream was resumed ${stream.reconnects}×)`));
  }

  fail(error: unknown): void {
    this.#cancel.hidden = true;
    this.element.append(h("div", { class: "error" }, errorText(error)));
  }

  /** Another turn took over this task: only the newest turn offers Cancel. */
  retire(): void {
    this.#cancel.hidden = true;
  }

  async cancel(): Promise<void> {
    if (!this.#taskId) return;
    this.#cancel.disabled = true;
    try {
      await this.#client.cancelTask({ id: this.#taskId });
    } catch (error) {
      this.element.append(h("div", { class: "error" }, `Cancel refused: ${errorText(error)}`));
      this.#cancel.disabled = false;
    }
  }

  #status(state: string, message: HTMLElement[] | undefined, timestamp: string | undefined): void {
    this.#timeline.append(h("li", { class: "status" }, h("span", { class: "time" }, time(timestamp ?? Date.now())), stateBadge(state),
      message?.length ? h("span", { class: "status-message" }, message) : null));
  }

  #state(state: Parameters<typeof isTerminal>[0]): void {
    this.#badge.replaceChildren(stateBadge(state));
    this.element.dataset.state = state.replace(/^TASK_STATE_/, "").toLowerCase();
    this.#cancel.hidden = isTerminal(state);
    if (isTerminal(state)) this.#cancel.disabled = true;
  }
}
