/**
 * The conformance agent: what the official A2A conformance kit (a2a-tck) drives. It acts on the prefix of
 * the incoming messageId, as ../shared/conformance-agent.md specifies. Also the agent our own tests use.
 */
import { defineAgent, type AgentContext, type Executor } from "../../src/index";

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });

const RAW_FILE = { raw: btoa("tck"), filename: "output.txt", mediaType: "text/plain" };

/** Longest prefixes first, so `tck-artifact-file-url` is not taken for `tck-artifact-file`. */
const BEHAVIOURS: [prefix: string, run: (ctx: AgentContext) => void | Promise<void>][] = [
  ["tck-complete-task", (ctx) => ctx.complete("Hello from TCK")],
  ["tck-delayed-complete", async (ctx) => {
    ctx.working();
    await sleep(1500, ctx.signal);
    ctx.complete("Delayed completion from TCK");
  }],
  ["tck-artifact-text", (ctx) => { ctx.artifact({ content: "Generated text content" }); ctx.complete(); }],
  ["tck-artifact-file-url", (ctx) => {
    ctx.artifact({ content: [{ url: "https://example.com/output.txt", filename: "output.txt", mediaType: "text/plain" }] });
    ctx.complete();
  }],
  ["tck-artifact-file", (ctx) => { ctx.artifact({ content: [RAW_FILE] }); ctx.complete(); }],
  ["tck-artifact-data", (ctx) => { ctx.artifact({ content: [{ data: { key: "value", count: 42 }, mediaType: "application/json" }] }); ctx.complete(); }],
  ["tck-message-response", (ctx) => ctx.reply("Direct message response")],
  ["tck-input-required", (ctx) => ctx.askForInput("Please provide more input")],
  ["tck-reject-task", (ctx) => ctx.reject("Rejected by TCK agent")],
  ["tck-stream-001", (ctx) => { ctx.working(); ctx.artifact({ content: "Stream hello from TCK" }); ctx.complete(); }],
  ["tck-stream-002", (ctx) => ctx.complete()],
  ["tck-stream-003", (ctx) => { ctx.working(); ctx.artifact({ content: "Stream task lifecycle" }); ctx.complete(); }],
  ["tck-stream-ordering-001", (ctx) => { ctx.working(); ctx.artifact({ content: "Ordered output" }); ctx.complete(); }],
  ["tck-stream-artifact-text", (ctx) => { ctx.working(); ctx.artifact({ content: "Streamed text content" }); ctx.complete(); }],
  ["tck-stream-artifact-file", (ctx) => { ctx.working(); ctx.artifact({ content: [RAW_FILE] }); ctx.complete(); }],
  ["tck-stream-artifact-chunked", (ctx) => {
    ctx.working();
    const artifactId = ctx.artifact({ content: "chunk-1 ", append: true });
    ctx.artifact({ artifactId, content: "chunk-2", append: true, lastChunk: true });
    ctx.complete();
  }],
  ["test-resubscribe-message-id", async (ctx) => {
    ctx.working();
    await sleep(4000, ctx.signal);
    ctx.complete("Resubscribe test complete");
  }],
];

export const conformanceExecutor: Executor = async (ctx) => {
  const id = ctx.message.messageId;
  const behaviour = BEHAVIOURS.find(([prefix]) => id.startsWith(prefix));
  if (behaviour) return behaviour[1](ctx);
  ctx.complete(`Unhandled messageId prefix: ${id}`);
};

export const conformanceCard = {
  name: "a2a-edge conformance agent",
  description: "Follows the A2A conformance kit's messageId contract.",
  version: "1.0.0",
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  capabilities: { streaming: true },
  skills: [{ id: "tck", name: "Conformance behaviours", description: "Acts on the messageId prefix of each message.", tags: ["conformance", "tck"] }],
};

const agent = defineAgent({ card: conformanceCard, execute: conformanceExecutor });

export default { fetch: agent.fetch, queue: agent.queue };
export const { TaskObject, TaskIndex } = agent;
