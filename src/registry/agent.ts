/**
 * The registry is itself an A2A agent, so it is discoverable like any other: its card offers the skill
 * "find-agents". Send it text ("skill:echo tag:streaming summarize" — `key:value` filters plus free text)
 * or a data part holding an AgentQuery; the task completes with a one-line summary and an artifact
 * "agents" holding the FindAgentsResult as a JSON data part.
 */
import type { AgentCardFacts, AgentContext, AgentDefinition } from "../agent/types";
import { A2AError, type Part } from "../protocol/index";
import type { RegistryEnv } from "./env";
import { findAgents, parseQuery } from "./find";
import type { AgentQuery } from "./types";

export const REGISTRY_CARD: AgentCardFacts = {
  name: "a2a-edge agent registry",
  description: "Finds A2A agents by skill, tag, media type or free text. Agents are registered through its HTTP API (/agents), which also lists them with their health.",
  version: "0.1.0",
  provider: { organization: "a2a-edge", url: "https://github.com/a2a-edge/a2a-edge" },
  defaultInputModes: ["text/plain", "application/json"],
  defaultOutputModes: ["application/json", "text/plain"],
  capabilities: { streaming: true },
  skills: [{
    id: "find-agents",
    name: "Find agents",
    description: "Finds registered, healthy agents. Text: free words plus skill:ID, tag:TAG, in:MEDIA-TYPE, out:MEDIA-TYPE filters. Data: an AgentQuery {skill, tag, inputMode, outputMode, text, includeUnhealthy, verifiedOnly, pageSize, pageToken}. Answers with the matching agents (card summary, the interface to call, health) as JSON.",
    tags: ["registry", "discovery", "agents"],
    examples: ["skill:echo", "tag:translation out:audio/mpeg", "summarize legal documents"],
    inputModes: ["text/plain", "application/json"],
    outputModes: ["application/json", "text/plain"],
  }],
};

const FILTERS: Record<string, keyof AgentQuery> = { skill: "skill", tag: "tag", in: "inputMode", input: "inputMode", out: "outputMode", output: "outputMode" };

/** The query a message asks: its first data part, else its text with `key:value` filters taken out. */
export function queryFromMessage(parts: readonly Part[]): AgentQuery {
  const data = parts.find((p) => p.data !== undefined && p.data !== null && typeof p.data === "object")?.data;
  if (data !== undefined) return parseQuery(data);
  const raw: Record<string, string> = {};
  const words: string[] = [];
  for (const word of parts.map((p) => p.text ?? "").join(" ").split(/\s+/).filter(Boolean)) {
    const match = /^([a-z]+):(.+)$/i.exec(word);
    const key = match ? FILTERS[match[1]!.toLowerCase()] : undefined;
    if (match && key) raw[key] = match[2]!;
    else words.push(word);
  }
  if (words.length) raw.text = words.join(" ");
  return parseQuery(raw);
}

async function execute(ctx: AgentContext): Promise<void> {
  let query: AgentQuery;
  try {
    query = queryFromMessage(ctx.message.parts);
  } catch (error) {
    return ctx.reject(`I could not read that query: ${error instanceof A2AError ? error.message : String(error)}`);
  }
  const result = await findAgents(ctx.env as RegistryEnv, query);
  const names = result.agents.map((a) => a.name);
  const summary = names.length
    ? `Found ${names.length} agent${names.length === 1 ? "" : "s"}${result.nextPageToken ? " (more on the next page)" : ""}: ${names.join(", ")}`
    : "No registered healthy agent matches.";
  // A plain copy: what came over RPC carries a disposer, which cannot travel in an event.
  const data = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
  ctx.artifact({ name: "agents", content: [{ data, mediaType: "application/json" }] });
  ctx.complete(summary);
}

export const registryAgentDefinition: AgentDefinition = { card: REGISTRY_CARD, execute };
