/**
 * The orchestrator: an agent that delegates each conversation to another A2A agent with a2a-edge's client
 * — over a URL (DELEGATE_URL), a Cloudflare Service Binding (DELEGATE), or the first healthy agent with the skill
 * DELEGATE_SKILL in the agent registry at REGISTRY_URL — and relays what happens: the
 * delegate's artifacts become its own as they stream in, its progress becomes its own status, and when
 * the delegate asks for input (or authorization) this task asks its own caller, then carries the answer
 * back to the same remote task.
 */
import { A2AClient, bearer, findAgents, type ClientOptions } from "../../src/client/index";
import { defineAgent, type A2AEnv, type AgentContext, type Part, type Task } from "../../src/index";

interface OrchestratorEnv extends A2AEnv {
  /** The delegate agent's URL (its card is found from it). */
  DELEGATE_URL?: string;
  /** Or the delegate as a Service Binding. */
  DELEGATE?: Fetcher;
  /** A bearer token for the delegate, if it asks for one. */
  DELEGATE_TOKEN?: string;
  /** Or find the delegate in an agent registry: the first healthy agent offering this skill (instead of DELEGATE_URL). */
  REGISTRY_URL?: string;
  DELEGATE_SKILL?: string;
}

/** Where a question relayed from the delegate records which remote task it came from. */
const REMOTE = "a2a-edge/delegate-task";

interface RemoteTask {
  taskId: string;
  contextId: string;
}

async function connect(env: OrchestratorEnv, signal: AbortSignal): Promise<A2AClient> {
  const options: ClientOptions = { signal };
  if (env.DELEGATE_TOKEN) options.credentials = bearer(env.DELEGATE_TOKEN);
  if (env.DELEGATE) {
    const binding = env.DELEGATE;
    return A2AClient.connect("https://delegate.internal", { ...options, fetch: (input, init) => binding.fetch(new Request(input, init)) });
  }
  const url = await delegateUrl(env, signal);
  if (!url) throw new Error("the orchestrator needs DELEGATE_URL, REGISTRY_URL with DELEGATE_SKILL, or a DELEGATE service binding");
  return A2AClient.connect(url, options);
}

// ---- Finding the delegate through the agent registry (REGISTRY_URL + DELEGATE_SKILL) ---------------

/**
 * The delegate's URL: with REGISTRY_URL and DELEGATE_SKILL, the card URL of the first healthy agent the
 * registry lists for that skill (asked on every connection, so an agent the health sweep marked unhealthy
 * is no longer chosen; the registry's order is stable, so follow-ups reach the same agent while it stays
 * healthy); otherwise DELEGATE_URL.
 */
async function delegateUrl(env: OrchestratorEnv, signal: AbortSignal): Promise<string | undefined> {
  if (!env.REGISTRY_URL || !env.DELEGATE_SKILL) return env.DELEGATE_URL;
  const { agents } = await findAgents(env.REGISTRY_URL, { skill: env.DELEGATE_SKILL, pageSize: 1 }, { signal });
  const found = agents[0];
  if (!found) throw new Error(`no healthy agent with the skill "${env.DELEGATE_SKILL}" is registered at ${env.REGISTRY_URL}`);
  return found.cardUrl;
}

/** The remote task a previous turn was waiting on, from the question it relayed. */
function remoteOf(task: Readonly<Task> | undefined): RemoteTask | undefined {
  const tag = task?.status.message?.parts[0]?.metadata?.[REMOTE] as RemoteTask | undefined;
  return tag && typeof tag.taskId === "string" ? tag : undefined;
}

/** The delegate's words, tagged with its task so the answer can find its way back. */
function tagged(parts: Part[] | undefined, fallback: string, remote: RemoteTask | undefined): Part[] {
  const [first, ...rest] = parts?.length ? parts : [{ text: fallback }];
  return [{ ...first!, metadata: { ...first!.metadata, ...(remote ? { [REMOTE]: remote } : {}) } }, ...rest];
}

async function relay(ctx: AgentContext): Promise<void> {
  const env = ctx.env as OrchestratorEnv;
  const client = await connect(env, ctx.signal);
  let remote = remoteOf(ctx.task);
  ctx.working(remote ? "Passing your answer to the delegate" : "Asking the delegate agent");
  const stream = client.sendStreamingMessage(
    { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: ctx.message.parts, ...(remote ?? {}) } },
    { signal: ctx.signal },
  );
  for await (const event of stream) {
    if (ctx.signal.aborted) return;
    if ("task" in event) {
      remote = { taskId: event.task.id, contextId: event.task.contextId ?? "" };
      running.set(ctx, remote);
    } else if ("message" in event) {
      return ctx.complete(event.message.parts);
    } else if ("artifactUpdate" in event) {
      const { artifact, append, lastChunk } = event.artifactUpdate;
      ctx.artifact({ artifactId: artifact.artifactId, ...(artifact.name ? { name: artifact.name } : {}), content: artifact.parts, append: append === true, lastChunk: lastChunk === true });
    } else {
      const { state, message } = event.statusUpdate.status;
      remote ??= { taskId: event.statusUpdate.taskId, contextId: event.statusUpdate.contextId };
      switch (state) {
        case "TASK_STATE_WORKING":
          if (message) ctx.working(message.parts);
          break;
        case "TASK_STATE_INPUT_REQUIRED":
          return ctx.askForInput(tagged(message?.parts, "The delegate needs more input.", remote));
        case "TASK_STATE_AUTH_REQUIRED":
          return ctx.requireAuth(tagged(message?.parts, "The delegate needs authorization.", remote));
        case "TASK_STATE_COMPLETED":
          return ctx.complete(message?.parts ?? "The delegate finished.");
        case "TASK_STATE_REJECTED":
          return ctx.reject(message?.parts ?? "The delegate declined.");
        case "TASK_STATE_CANCELED":
          return ctx.fail("The delegate canceled its task.");
        case "TASK_STATE_FAILED":
          return ctx.fail(message?.parts ?? "The delegate failed.");
      }
    }
  }
}

/** The remote task each running relay is talking to (the cancel handler gets the run's own context). */
const running = new WeakMap<AgentContext, RemoteTask>();

/** When our caller cancels, the delegate's task is canceled too. */
async function cancelRemote(ctx: AgentContext): Promise<void> {
  const remote = running.get(ctx) ?? remoteOf(ctx.task);
  if (!remote) return;
  const client = await connect(ctx.env as OrchestratorEnv, AbortSignal.timeout(5000));
  await client.cancelTask({ id: remote.taskId }).catch(() => {});
}

const agent = defineAgent({
  card: {
    name: "a2a-edge orchestrator",
    description: "Delegates your request to another A2A agent and relays its progress, questions and results.",
    version: "0.1.0",
    skills: [{ id: "delegate", name: "Delegate", description: "Hands the conversation to the configured agent.", tags: ["orchestration", "delegation"] }],
  },
  execute: relay,
  cancel: cancelRemote,
});

export default { fetch: agent.fetch, queue: agent.queue };
export const { TaskObject, TaskIndex } = agent;
