/**
 * The benchmark's echo agent for a2a-edge. bench/peer.ts implements the same behaviours on the official
 * SDK, so both servers do the same work per request. The first text part picks the behaviour:
 *  - anything else:  completes at once with the text echoed back (S1, S2, S3, S7);
 *  - "stream N":     a stream of N events in all: the Task, N-2 artifact chunks, the final status (S4);
 *  - "hold":         asks for input, so the task waits in INPUT_REQUIRED for subscribers (S5);
 *  - "burst N" sent to a held task: N events — N-1 numbered artifact chunks, then COMPLETED (S5);
 *  - "push N":       N pushed events: WORKING, N-2 numbered artifact chunks (each stamped with the time it was
 *                    emitted in metadata.emittedAt, as status updates carry theirs), COMPLETED (S6).
 * The queue handler delivers push notifications; it is only used where a queue is bound (S6, wrangler dev).
 */
import { defineAgent, type AgentContext } from "../src/index";

function textOf(ctx: AgentContext): string {
  const first = ctx.message.parts[0];
  return first?.text ?? "";
}

const agent = defineAgent({
  card: {
    name: "a2a-edge bench echo",
    description: "Echoes text back; streams, holds and bursts on request.",
    version: "1.0.0",
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    capabilities: { streaming: true },
    skills: [{ id: "echo", name: "Echo", description: "Echoes text back.", tags: ["bench"] }],
  },
  execute(ctx) {
    const text = textOf(ctx);
    const [verb, count] = text.split(" ");
    const n = Number(count);
    if (verb === "stream" && n >= 2) {
      let artifactId: string | undefined;
      for (let i = 1; i <= n - 2; i++) {
        artifactId = ctx.artifact({ artifactId, name: "stream", content: String(i), append: i > 1, lastChunk: i === n - 2 });
      }
      // With n - 2 chunks the Task snapshot (event 1) and this status make n events.
      return ctx.complete("done");
    }
    if (verb === "push" && n >= 2) {
      ctx.working();
      let artifactId: string | undefined;
      for (let i = 1; i <= n - 2; i++) {
        artifactId = ctx.artifact({ artifactId, name: "push", content: String(i), append: i > 1, lastChunk: i === n - 2, metadata: { emittedAt: Date.now() } });
      }
      return ctx.complete("done");
    }
    if (verb === "hold") return ctx.askForInput("send burst N");
    if (verb === "burst" && n >= 1 && ctx.task) {
      let artifactId: string | undefined;
      for (let i = 1; i <= n - 1; i++) {
        artifactId = ctx.artifact({ artifactId, name: "burst", content: String(i), append: i > 1, lastChunk: i === n - 1 });
      }
      return ctx.complete("done");
    }
    return ctx.complete(text);
  },
});

export default { fetch: agent.fetch, queue: agent.queue };
export const { TaskObject, TaskIndex } = agent;
