/**
 * The chat: text and files go in as one message; each turn streams in live (TurnView); a question of the
 * agent (INPUT_REQUIRED) is answered from the same box, continuing the same task.
 */
import type { A2AClient, Conversation, Part, Task } from "../../client/index";
import { userMessage } from "../../client/index";
import { errorText, h, shortId } from "./dom";
import { formatBytes, renderMessage } from "./parts";
import { TurnView } from "./turn";

export interface ChatHooks {
  /** A turn ended: the task list may have changed. */
  onTurnEnded(): void;
}

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export class ChatView {
  readonly #transcript = h("div", { class: "transcript", "aria-live": "polite" });
  readonly #prompt = h("div", { class: "prompt", hidden: true });
  readonly #input = h("textarea", { id: "chat-input", rows: 2, placeholder: "Message the agent (Enter sends, Shift+Enter for a new line)" });
  readonly #files = h("input", { id: "chat-files", type: "file", multiple: true });
  readonly #fileList = h("span", { class: "file-list muted" });
  readonly #send = h("button", { id: "chat-send", class: "primary", type: "submit" }, "Send");
  readonly #context = h("span", { class: "muted" });
  readonly #hooks: ChatHooks;
  #client: A2AClient | undefined;
  #conversation: Conversation | undefined;
  #turn: TurnView | undefined;
  #abort = new AbortController();
  #busy = false;

  constructor(root: HTMLElement, hooks: ChatHooks) {
    this.#hooks = hooks;
    const form = h("form", { class: "composer", onsubmit: (event) => { event.preventDefault(); void this.send(); } },
      this.#prompt,
      this.#input,
      h("div", { class: "composer-bar" },
        h("label", { class: "file-button" }, "Attach files", this.#files), this.#fileList,
        h("span", { class: "spacer" }),
        this.#context,
        h("button", { type: "button", onclick: () => this.reset() }, "New conversation"),
        this.#send));
    this.#input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.send();
      }
    });
    this.#files.addEventListener("change", () => this.#showFiles());
    root.replaceChildren(this.#transcript, form);
  }

  setClient(client: A2AClient): void {
    this.#client = client;
    this.reset();
  }

  /** Starts over: a new context, an empty transcript; a running turn stops being followed. */
  reset(): void {
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#conversation = this.#client?.conversation();
    this.#turn = undefined;
    this.#transcript.replaceChildren(h("p", { class: "hint muted" }, "Say something to the agent. Its answer streams in here: status changes, artifacts as they grow, questions it asks you."));
    this.#updatePrompt();
  }

  /** Puts text in the box (a skill's example) without sending it. */
  prefill(text: string): void {
    this.#input.value = text;
    this.#input.focus();
  }

  /** Continues a task that waits for input, found in the task list. */
  continueTask(task: Task): void {
    if (!this.#client) return;
    this.reset();
    this.#conversation = this.#client.conversation({ taskId: task.id, ...(task.contextId ? { contextId: task.contextId } : {}) });
    this.#transcript.append(h("p", { class: "hint muted" }, "Continuing task ", shortId(task.id), ": it waits for your answer."));
    this.#updatePrompt(task.status.message?.parts.map((p) => p.text ?? "").join(" "));
    this.#input.focus();
  }

  async send(): Promise<void> {
    const client = this.#client;
    const conversation = this.#conversation;
    const text = this.#input.value.trim();
    const files = [...(this.#files.files ?? [])];
    if (!client || !conversation || this.#busy || (!text && !files.length)) return;
    this.#busy = true;
    this.#send.disabled = true;
    const parts: Part[] = text ? [{ text }] : [];
    try {
      for (const file of files) parts.push({ raw: await base64Of(file), filename: file.name, mediaType: file.type || "application/octet-stream" });
    } catch (error) {
      this.#transcript.append(h("div", { class: "error" }, `Could not read the file: ${errorText(error)}`));
      this.#done();
      return;
    }
    this.#input.value = "";
    this.#files.value = "";
    this.#showFiles();
    this.#transcript.querySelector(".hint")?.remove();
    this.#transcript.append(renderMessage(userMessage(parts)));

    const continuation = conversation.taskId !== undefined;
    this.#turn?.retire();
    const turn = new TurnView(client, continuation);
    this.#turn = turn;
    this.#transcript.append(turn.element);
    this.#prompt.hidden = true;
    const stream = conversation.stream(parts, { signal: this.#abort.signal });
    try {
      for await (const event of stream) {
        turn.show(event, stream);
        this.#scroll();
      }
      turn.settle(stream);
    } catch (error) {
      if (!this.#abort.signal.aborted) turn.fail(error);
    }
    if (conversation === this.#conversation) this.#updatePrompt(conversation.turn.needsInput || conversation.turn.needsAuth ? conversation.turn.text : undefined);
    this.#scroll();
    this.#done();
    this.#hooks.onTurnEnded();
  }

  #done(): void {
    this.#busy = false;
    this.#send.disabled = false;
  }

  /** While the agent waits for an answer, the box says so. */
  #updatePrompt(question?: string): void {
    const waiting = this.#conversation?.taskId;
    this.#prompt.hidden = !waiting;
    if (waiting) this.#prompt.replaceChildren(h("strong", null, "The agent asks: "), question || "(no question given)", h("span", { class: "muted" }, " — your next message answers it, in the same task."));
    this.#input.placeholder = waiting ? "Your answer" : "Message the agent (Enter sends, Shift+Enter for a new line)";
    const context = this.#conversation?.contextId;
    this.#context.replaceChildren(context ? h("span", null, "context ", shortId(context)) : "");
  }

  #showFiles(): void {
    const files = [...(this.#files.files ?? [])];
    this.#fileList.textContent = files.map((f) => `${f.name} (${formatBytes(f.size)})`).join(", ");
  }

  #scroll(): void {
    this.#transcript.scrollTop = this.#transcript.scrollHeight;
  }
}
