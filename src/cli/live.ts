/**
 * Following a task on the terminal: status transitions as lines and artifacts as they grow on stderr,
 * with a spinner while the agent works (only on a terminal); or, with `--json`, every StreamResponse as
 * one JSON line on stdout. The final result goes to stdout, so it can be piped.
 */
import { createInterface, type Interface } from "node:readline";
import pc from "picocolors";
import yoctoSpinner, { type Spinner } from "yocto-spinner";
import { isInterrupted, type StreamResponse, type TaskState, type TaskStream } from "../client/index";
import { colorState, messageText, partsText } from "./render";

export interface LiveOptions {
  json: boolean;
  /** Stop at a snapshot that shows an interrupted state (watch), not only at a status update. */
  stopAtInterruptedSnapshot?: boolean;
}

export class LiveView {
  readonly #json: boolean;
  readonly #interactive = Boolean(process.stderr.isTTY) && !("CI" in process.env);
  #spinner: Spinner | undefined;
  #state: TaskState | undefined;
  #statusText = "";
  readonly #artifactChars = new Map<string, number>();

  constructor(options: { json: boolean }) {
    this.#json = options.json;
  }

  /** Reads the stream to its end, or to an interrupted state (the agent waits for the user). */
  async follow(stream: TaskStream, options: { stopAtInterruptedSnapshot?: boolean } = {}): Promise<void> {
    try {
      for await (const event of stream) {
        if (this.#json) process.stdout.write(`${JSON.stringify(event)}\n`);
        else this.#show(event, stream);
        const state = "statusUpdate" in event ? event.statusUpdate.status.state
          : "task" in event && options.stopAtInterruptedSnapshot ? event.task.status.state : undefined;
        if (state && isInterrupted(state)) break;
      }
    } finally {
      this.#stopSpinner();
    }
  }

  /** A whole response at once (`--no-stream`). */
  showResponse(response: StreamResponse): void {
    if (this.#json) process.stdout.write(`${JSON.stringify(response)}\n`);
  }

  #show(event: StreamResponse, stream: TaskStream): void {
    if ("task" in event) {
      if (this.#state === undefined) this.#line(pc.dim(`task ${event.task.id}  context ${event.task.contextId ?? ""}`));
      this.#status(event.task.status.state, messageText(event.task.status.message));
    } else if ("statusUpdate" in event) {
      this.#status(event.statusUpdate.status.state, messageText(event.statusUpdate.status.message));
    } else if ("artifactUpdate" in event) {
      const update = event.artifactUpdate;
      const artifact = stream.task?.artifacts?.find((a) => a.artifactId === update.artifact.artifactId) ?? update.artifact;
      const text = partsText(artifact.parts);
      const name = artifact.name ?? artifact.artifactId.slice(0, 8);
      const before = this.#artifactChars.get(artifact.artifactId);
      this.#artifactChars.set(artifact.artifactId, text.length);
      if (this.#spinner) {
        const tail = text.replace(/\s+/g, " ").slice(-50);
        this.#spinner.text = `artifact ${pc.bold(name)}: ${text.length} chars ${pc.dim(`…${tail}`)}`;
        if (update.lastChunk) this.#line(`${pc.blue("▸")} artifact ${pc.bold(name)} (${text.length} chars)`);
      } else if (before === undefined || update.lastChunk) {
        this.#line(`${pc.blue("▸")} artifact ${name}${update.lastChunk || !update.append ? ` (${text.length} chars)` : " …"}`);
      }
    }
  }

  #status(state: TaskState, text: string): void {
    if (state === this.#state && text === this.#statusText) return;
    this.#state = state;
    this.#statusText = text;
    this.#line(`${pc.cyan("●")} ${colorState(state)}${text ? `  ${text}` : ""}`);
    const active = state === "TASK_STATE_SUBMITTED" || state === "TASK_STATE_WORKING";
    if (active && this.#interactive) {
      this.#spinner ??= yoctoSpinner({ stream: process.stderr }).start();
      this.#spinner.text = text || "working";
    } else if (!active) this.#stopSpinner();
  }

  #line(text: string): void {
    process.stderr.write(`${text}\n`);
  }

  #stopSpinner(): void {
    this.#spinner?.stop();
    this.#spinner = undefined;
  }
}

/** Lines typed (or piped) on stdin, one per question; undefined once stdin has ended. */
export class Prompter {
  #rl: Interface | undefined;
  readonly #lines: string[] = [];
  #waiting: ((line: string | undefined) => void) | undefined;
  #closed = false;

  async ask(question: string): Promise<string | undefined> {
    if (!this.#rl) {
      this.#rl = createInterface({ input: process.stdin, terminal: false });
      this.#rl.on("line", (line) => {
        if (this.#waiting) {
          const resolve = this.#waiting;
          this.#waiting = undefined;
          resolve(line);
        } else this.#lines.push(line);
      });
      this.#rl.on("close", () => {
        this.#closed = true;
        this.#waiting?.(undefined);
        this.#waiting = undefined;
      });
    }
    process.stderr.write(question);
    const queued = this.#lines.shift();
    const line = queued ?? (this.#closed ? undefined : await new Promise<string | undefined>((resolve) => (this.#waiting = resolve)));
    // A piped answer is not echoed by a terminal: show it, so the transcript reads right.
    if (!process.stdin.isTTY) process.stderr.write(`${line ?? ""}\n`);
    return line;
  }

  close(): void {
    this.#rl?.close();
  }
}
