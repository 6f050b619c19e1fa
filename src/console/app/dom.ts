/** A few DOM helpers: elements from tag, attributes and children, and the formats every view uses. */
import type { TaskState } from "../../client/index";

export type Child = Node | string | number | false | null | undefined | readonly Child[];
type Listener = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | Listener | null | undefined>;

/**
 * `h("button", { class: "primary", onclick: send }, "Send")`. `on…` keys add listeners; `true` sets an
 * empty attribute; `false`, null and undefined leave it out. (No `style`: the page's CSP forbids it.)
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = String(value);
    else if (name === "value" && "value" in element) (element as HTMLInputElement).value = String(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** The element with this id, of the expected kind (the page's skeleton is static). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
}

/** "TASK_STATE_INPUT_REQUIRED" → "input required". */
export function stateLabel(state: TaskState | string | undefined): string {
  return (state ?? "unknown").replace(/^TASK_STATE_/, "").replaceAll("_", " ").toLowerCase();
}

/** A coloured badge for a task state. */
export function stateBadge(state: TaskState | string | undefined): HTMLElement {
  const name = (state ?? "unknown").replace(/^TASK_STATE_/, "").toLowerCase();
  return h("span", { class: `badge state-${name}`, "data-state": name }, stateLabel(state));
}

/** Pretty JSON for people. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A JSON block that folds away. */
export function jsonDetails(summary: Child, value: unknown, open = false): HTMLDetailsElement {
  return h("details", { class: "json", open }, h("summary", null, summary), h("pre", null, json(value)));
}

/** A local time with seconds, or "" when there is none. */
export function time(value: string | number | undefined): string {
  if (value === undefined) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleTimeString(undefined, { hour12: false });
}

/** Date and time, for lists that span days. */
export function dateTime(value: string | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${date.toLocaleDateString()} ${date.toLocaleTimeString(undefined, { hour12: false })}`;
}

/** The first characters of an id, with the whole id as a tooltip. */
export function shortId(id: string | undefined): HTMLElement {
  return h("code", { class: "id", title: id ?? "" }, id ? (id.length > 13 ? `${id.slice(0, 8)}…` : id) : "—");
}

/** What an error says, for a person: A2A errors with their type and code. */
export function errorText(error: unknown): string {
  if (error && typeof error === "object") {
    const e = error as { name?: string; type?: string; code?: number; message?: string; status?: number };
    if (e.type && e.code !== undefined) return `${e.type} (${e.code}): ${e.message ?? ""}`;
    if (e.status !== undefined) return `HTTP ${e.status}: ${e.message ?? ""}`;
    if (e.message) return `${e.name && e.name !== "Error" ? `${e.name}: ` : ""}${e.message}`;
  }
  return String(error);
}
