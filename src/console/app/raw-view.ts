/** The raw view: every request, response and SSE event the console exchanged, as JSON, newest last. */
import { h, jsonDetails, time } from "./dom";
import type { RawEntry, RawLog } from "./recorder";

const ARROWS: Record<RawEntry["kind"], string> = { request: "→", response: "←", event: "⇠", end: "■", error: "✕" };

export class RawView {
  readonly #log: RawLog;
  readonly #list = h("ol", { class: "raw-list" });
  readonly #filter = h("input", { id: "raw-filter", type: "search", placeholder: "filter (text in the line)", "aria-label": "filter" });
  readonly #count: HTMLElement;

  constructor(root: HTMLElement, log: RawLog, count: HTMLElement) {
    this.#log = log;
    this.#count = count;
    const clear = h("button", { type: "button", onclick: () => log.clear() }, "Clear");
    const expand = h("button", { type: "button", onclick: () => this.#list.querySelectorAll("details").forEach((d) => (d.open = true)) }, "Expand all");
    root.replaceChildren(h("div", { class: "filters" }, this.#filter, expand, clear,
      h("span", { class: "muted" }, "Credentials you typed in are shown as •••.")), this.#list);
    this.#filter.addEventListener("input", () => this.#applyFilter());
    log.addEventListener("entry", (event) => this.#add((event as CustomEvent<RawEntry>).detail));
    log.addEventListener("clear", () => {
      this.#list.replaceChildren();
      this.#updateCount();
    });
    for (const entry of log.entries) this.#add(entry);
  }

  #add(entry: RawEntry): void {
    const item = h("li", { class: `raw raw-${entry.kind}`, "data-kind": entry.kind, "data-exchange": entry.exchange },
      jsonDetails([h("span", { class: "arrow" }, ARROWS[entry.kind]), " ", h("span", { class: "time" }, time(entry.at)), ` #${entry.exchange} `, entry.summary], entry.detail));
    item.hidden = !this.#matches(item);
    const atBottom = this.#list.scrollHeight - this.#list.scrollTop - this.#list.clientHeight < 40;
    this.#list.append(item);
    while (this.#list.childElementCount > this.#log.entries.length) this.#list.firstElementChild?.remove();
    if (atBottom) this.#list.scrollTop = this.#list.scrollHeight;
    this.#updateCount();
  }

  #matches(item: HTMLElement): boolean {
    const needle = this.#filter.value.trim().toLowerCase();
    return !needle || (item.querySelector("summary")?.textContent ?? "").toLowerCase().includes(needle);
  }

  #applyFilter(): void {
    for (const item of this.#list.children) (item as HTMLElement).hidden = !this.#matches(item as HTMLElement);
  }

  #updateCount(): void {
    this.#count.textContent = String(this.#log.entries.length);
  }
}
