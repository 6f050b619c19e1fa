/**
 * The task list (ListTasks): state, task, context, time and the status text, filtered by state and
 * context on the agent and by any text here; a row opens the task on the right (TaskDetail).
 */
import type { A2AClient, ListTasksRequest, Task, TaskState } from "../../client/index";
import { dateTime, errorText, h, shortId, stateBadge, stateLabel } from "./dom";
import { TaskDetail } from "./task-view";

const STATES: TaskState[] = [
  "TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED",
  "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED",
];

export interface TasksHooks {
  /** Answer a waiting task in the chat. */
  onContinue(task: Task): void;
}

export class TasksView {
  readonly detail: TaskDetail;
  readonly #state = h("select", { id: "filter-state", "aria-label": "state" }, h("option", { value: "" }, "any state"), STATES.map((s) => h("option", { value: s }, stateLabel(s))));
  readonly #context = h("input", { id: "filter-context", type: "search", placeholder: "context id", "aria-label": "context id" });
  readonly #text = h("input", { id: "filter-text", type: "search", placeholder: "filter shown rows", "aria-label": "filter shown rows" });
  readonly #rows = h("tbody");
  readonly #status = h("p", { class: "list-status muted" });
  readonly #more = h("button", { type: "button", hidden: true, onclick: () => void this.#load(true) }, "Load more");
  #client: A2AClient | undefined;
  #tasks: Task[] = [];
  #pageToken = "";
  #selected: string | undefined;
  #loading = 0;

  constructor(root: HTMLElement, hooks: TasksHooks) {
    const detailRoot = h("div", { class: "task-detail" });
    this.detail = new TaskDetail(detailRoot, { onContinue: hooks.onContinue, onChanged: () => void this.refresh() });
    const filters = h("form", { class: "filters", onsubmit: (event) => { event.preventDefault(); void this.refresh(); } },
      this.#state, this.#context, h("button", { class: "primary", type: "submit", id: "tasks-refresh" }, "Refresh"), this.#text);
    this.#state.addEventListener("change", () => void this.refresh());
    this.#text.addEventListener("input", () => this.#render());
    const table = h("table", { class: "task-list" },
      h("thead", null, h("tr", null, ["state", "task", "context", "updated", "status"].map((t) => h("th", null, t)))), this.#rows);
    root.replaceChildren(h("div", { class: "tasks-pane" }, filters, h("div", { class: "table-wrap" }, table), this.#status, this.#more), detailRoot);
  }

  setClient(client: A2AClient): void {
    this.#client = client;
    this.#tasks = [];
    this.#selected = undefined;
    this.detail.close();
    this.#render();
  }

  /** Shows the tasks of one context (a context id was clicked). */
  filterContext(contextId: string): void {
    this.#context.value = contextId;
    void this.refresh();
  }

  async refresh(): Promise<void> {
    await this.#load(false);
  }

  async #load(more: boolean): Promise<void> {
    const client = this.#client;
    if (!client) return;
    const request: Omit<ListTasksRequest, "tenant"> = { pageSize: 50 };
    if (this.#state.value) request.status = this.#state.value as TaskState;
    if (this.#context.value.trim()) request.contextId = this.#context.value.trim();
    if (more && this.#pageToken) request.pageToken = this.#pageToken;
    const ticket = ++this.#loading;
    this.#status.textContent = "Loading…";
    try {
      const page = await client.listTasks(request);
      if (ticket !== this.#loading) return; // a newer load won
      this.#tasks = more ? this.#tasks.concat(page.tasks) : page.tasks;
      this.#pageToken = page.nextPageToken;
      this.#render();
    } catch (error) {
      if (ticket !== this.#loading) return;
      this.#status.replaceChildren(h("span", { class: "error" }, `ListTasks failed: ${errorText(error)}`));
    }
  }

  #render(): void {
    const needle = this.#text.value.trim().toLowerCase();
    const shown = this.#tasks.filter((task) => !needle || [task.id, task.contextId ?? "", stateLabel(task.status.state), statusText(task)].some((s) => s.toLowerCase().includes(needle)));
    this.#rows.replaceChildren(...shown.map((task) => {
      const row = h("tr", { class: task.id === this.#selected ? "selected" : "", "data-task-id": task.id, tabindex: 0, onclick: () => this.#open(task.id), onkeydown: (event) => { if ((event as KeyboardEvent).key === "Enter") this.#open(task.id); } },
        h("td", null, stateBadge(task.status.state)),
        h("td", null, shortId(task.id)),
        h("td", null, task.contextId ? h("a", { href: "#", title: "only this context", onclick: (event) => { event.preventDefault(); event.stopPropagation(); this.filterContext(task.contextId!); } }, shortId(task.contextId)) : "—"),
        h("td", null, dateTime(task.status.timestamp)),
        h("td", { class: "status-text" }, statusText(task)));
      return row;
    }));
    const total = this.#tasks.length;
    this.#status.textContent = total === 0 ? "No tasks." : `${shown.length} of ${total} task${total === 1 ? "" : "s"} shown${this.#pageToken ? " (more on the agent)" : ""}.`;
    this.#more.hidden = !this.#pageToken;
  }

  #open(id: string): void {
    if (!this.#client) return;
    this.#selected = id;
    for (const row of this.#rows.querySelectorAll("tr")) row.classList.toggle("selected", row.dataset.taskId === id);
    void this.detail.open(this.#client, id);
  }
}

function statusText(task: Task): string {
  return (task.status.message?.parts ?? []).map((p) => p.text ?? "").join(" ").trim();
}
