/**
 * The demo agent: the template's starting point and the default `npm run dev` agent. It shows the three
 * shapes of work an A2A agent does:
 *  - "greet": asks for the caller's name (INPUT_REQUIRED) and continues on the answer;
 *  - "long ...": a long task that reports progress and can be canceled;
 *  - anything else: echoes the text back as an artifact streamed in chunks.
 */
import { defineAgent, type AgentContext } from "../../src/index";

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });

function textOf(ctx: AgentContext): string {
  return ctx.message.parts.map((part) => part.text ?? "").join(" ").trim();
}

async function echoInChunks(ctx: AgentContext, text: string): Promise<void> {
  ctx.working("Echoing your message");
  const words = (text || "(empty message)").split(/(?<=\s)/);
  let artifactId: string | undefined;
  for (const [i, word] of words.entries()) {
    if (ctx.signal.aborted) return;
    artifactId = ctx.artifact({ artifactId, name: "echo", content: word, append: i > 0, lastChunk: i === words.length - 1 });
    await pause(100, ctx.signal);
  }
  ctx.complete("Done echoing.");
}

async function longTask(ctx: AgentContext, steps: number): Promise<void> {
  for (let step = 1; step <= steps; step++) {
    if (ctx.signal.aborted) return;
    ctx.working(`Step ${step} of ${steps}`);
    await pause(1000, ctx.signal);
  }
  if (!ctx.signal.aborted) ctx.complete(`Finished all ${steps} steps.`);
}

const agent = defineAgent({
  card: {
    name: "a2a-edge demo agent",
    description: "Echoes text as a streamed artifact, greets you by name, and runs a cancelable long task.",
    version: "0.1.0",
    provider: { organization: "a2a-edge", url: "https://github.com/a2a-edge/a2a-edge" },
    skills: [
      { id: "echo", name: "Echo", description: "Streams your text back in chunks.", tags: ["echo", "streaming"], examples: ["hello there"] },
      { id: "greet", name: "Greet", description: "Asks for your name, then greets you.", tags: ["conversation", "input-required"], examples: ["greet"] },
      { id: "long", name: "Long task", description: "Works for N seconds with progress updates; cancel it any time.", tags: ["long-running", "cancel"], examples: ["long 10"] },
    ],
  },
  async execute(ctx) {
    const text = textOf(ctx);
    if (ctx.task?.status.state === "TASK_STATE_INPUT_REQUIRED") return ctx.complete(`Nice to meet you, ${text || "stranger"}!`);
    if (/^greet\b/i.test(text)) return ctx.askForInput("What is your name?");
    const long = /^long(?:\s+(\d+))?/i.exec(text);
    if (long) return longTask(ctx, Math.min(Number(long[1] ?? 10), 600));
    return echoInChunks(ctx, text);
  },
});

export default { fetch: agent.fetch, queue: agent.queue };
export const { TaskObject, TaskIndex } = agent;
