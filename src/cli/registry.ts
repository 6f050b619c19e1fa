/**
 * `a2a registry add|rm|find|ls REGISTRY …`: an a2a-edge agent registry from the terminal. Writing takes
 * the registry's admin token (or a writer JWT): --token, or $A2A_REGISTRY_TOKEN.
 */
import { readFile } from "node:fs/promises";
import Table from "cli-table3";
import type { Command } from "commander";
import pc from "picocolors";
import { findAgents, findAllAgents, registerAgent, unregisterAgent, type AgentEntry, type AgentQuery, type RegisterAgentRequest, type RegistryOptions } from "../client/index";
import { UsageError } from "./exit";

/** main.ts's wrapper that records an action's exit code. */
export type Runner = <A extends unknown[]>(action: (...args: A) => Promise<number | void>) => (...args: A) => Promise<void>;

interface WriteFlags {
  token?: string;
  json?: boolean;
}

interface FindFlags {
  skill?: string;
  tag?: string;
  input?: string;
  output?: string;
  all?: boolean;
  verified?: boolean;
  pageSize?: number;
  pageToken?: string;
  json?: boolean;
}

const out = (text: string) => {
  if (text !== "") process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
};

function writeOptions(flags: WriteFlags): RegistryOptions {
  const token = flags.token ?? process.env.A2A_REGISTRY_TOKEN;
  return token ? { token } : {};
}

function health(agent: AgentEntry): string {
  const h = agent.health;
  if (h.healthy) return pc.green(h.failures ? `healthy (${h.failures} failed)` : "healthy");
  return pc.red(`unhealthy (${h.failures} failed)`);
}

export function agentTable(agents: AgentEntry[]): string {
  const table = new Table({
    head: ["ID", "NAME", "HEALTH", "LATENCY", "SIGNATURE", "SKILLS", "INTERFACE"],
    style: { head: process.stdout.isTTY ? ["bold"] : [], border: process.stdout.isTTY ? ["gray"] : [] },
  });
  for (const agent of agents) {
    const skills = agent.matchedSkills.length === agent.skills.length ? agent.skills.map((s) => s.id) : agent.matchedSkills;
    table.push([agent.id, agent.name, health(agent), `${agent.health.latencyMs} ms`, agent.signature.status, skills.join(", "), `${agent.interface.protocolBinding} ${agent.interface.url}`]);
  }
  return table.toString();
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--page-size needs a whole number from 1, got ${value}`);
  return n;
}

/** Adds `registry` and its four subcommands to the program. */
export function registryCommands(root: Command, run: Runner): Command {
  const registry = root.command("registry").description("an a2a-edge agent registry: add | rm | find | ls (REGISTRY is its URL)");

  registry.command("add").argument("<registry>", "registry URL").argument("<agent>", "the agent's URL or its card URL")
    .description("register an agent (the registry fetches and validates its card); again to update it")
    .option("--jwks-url <url>", "where the keys that sign the agent's card are published: the registry verifies the signature")
    .option("--jwks <file>", "or a file holding that JWKS")
    .option("--token <token>", "the registry's admin token or a writer JWT (default: $A2A_REGISTRY_TOKEN)")
    .option("--json", "print the registry's answer as JSON")
    .action(run(async (registryUrl: string, agentUrl: string, flags: WriteFlags & { jwksUrl?: string; jwks?: string }) => {
      const request: RegisterAgentRequest = { url: agentUrl };
      if (flags.jwksUrl) request.jwksUrl = flags.jwksUrl;
      if (flags.jwks) request.jwks = JSON.parse(await readFile(flags.jwks, "utf8")) as RegisterAgentRequest["jwks"];
      const { created, agent } = await registerAgent(registryUrl, request, writeOptions(flags));
      if (flags.json) return out(JSON.stringify({ created, agent }));
      out(`${created ? "registered" : "updated"} ${pc.bold(agent.name)} ${pc.dim(`(${agent.id})`)}`);
      process.stderr.write(`card ${agent.cardUrl}; signature ${agent.signature.status}${agent.signature.kid ? ` (kid ${agent.signature.kid})` : ""}; skills ${agent.skills.map((s) => s.id).join(", ")}\n`);
    }));

  registry.command("rm").argument("<registry>", "registry URL").argument("<agent>", "the entry id, or the agent's URL or card URL")
    .description("unregister an agent")
    .option("--token <token>", "the registry's admin token or a writer JWT (default: $A2A_REGISTRY_TOKEN)")
    .action(run(async (registryUrl: string, agent: string, flags: WriteFlags) => {
      await unregisterAgent(registryUrl, agent, writeOptions(flags));
      process.stderr.write(`unregistered ${agent}\n`);
    }));

  registry.command("find").argument("<registry>", "registry URL").argument("[text...]", "free text: every word must appear in the card")
    .description("find healthy agents by skill, tag, media type or free text (filters hold on one skill)")
    .option("--skill <id>", "a skill id")
    .option("--tag <tag>", "a skill tag")
    .option("--input <type>", "a media type the skill accepts")
    .option("--output <type>", "a media type the skill produces")
    .option("--all", "include unhealthy agents")
    .option("--verified", "only agents whose card signature verified")
    .option("--page-size <n>", "agents per page (1-100, default 20)", positiveInt)
    .option("--page-token <token>", "the page after this token")
    .option("--json", "print the page as JSON")
    .action(run(async (registryUrl: string, words: string[], flags: FindFlags) => {
      const query: AgentQuery = {};
      if (words.length) query.text = words.join(" ");
      if (flags.skill) query.skill = flags.skill;
      if (flags.tag) query.tag = flags.tag;
      if (flags.input) query.inputMode = flags.input;
      if (flags.output) query.outputMode = flags.output;
      if (flags.all) query.includeUnhealthy = true;
      if (flags.verified) query.verifiedOnly = true;
      if (flags.pageSize) query.pageSize = flags.pageSize;
      if (flags.pageToken) query.pageToken = flags.pageToken;
      const page = await findAgents(registryUrl, query);
      if (flags.json) return out(JSON.stringify(page));
      out(page.agents.length ? agentTable(page.agents) : "no agents match");
      process.stderr.write(`${page.agents.length} agent(s)${page.nextPageToken ? `; next page: --page-token ${page.nextPageToken}` : ""}\n`);
    }));

  registry.command("ls").argument("<registry>", "registry URL")
    .description("list every registered agent, healthy or not")
    .option("--healthy", "only healthy agents")
    .option("--json", "print one AgentEntry JSON per line")
    .action(run(async (registryUrl: string, flags: { healthy?: boolean; json?: boolean }) => {
      const agents: AgentEntry[] = [];
      for await (const agent of findAllAgents(registryUrl, { includeUnhealthy: !flags.healthy, pageSize: 100 })) agents.push(agent);
      if (flags.json) return out(agents.map((a) => JSON.stringify(a)).join("\n"));
      out(agents.length ? agentTable(agents) : "no agents registered");
      process.stderr.write(`${agents.length} agent(s), ${agents.filter((a) => a.health.healthy).length} healthy\n`);
    }));

  for (const command of registry.commands) command.exitOverride();
  return registry;
}
