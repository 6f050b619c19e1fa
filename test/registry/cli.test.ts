/**
 * `a2a registry add|find|ls|rm`, built as `npm run build` builds it, against the real registry and the
 * conformance agent under wrangler dev.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentEntry, FindAgentsResult } from "../../src/client/index";
import { buildCli, runCli } from "../client/helpers";
import { startServer, type RunningServer } from "../e2e/server";
import { ADMIN_TOKEN, startCardServer, validCard, type CardServer } from "./helpers";

let registry: RunningServer;
let agent: RunningServer;
let cards: CardServer;

beforeAll(async () => {
  buildCli();
  cards = await startCardServer();
  [registry, agent] = await Promise.all([
    startServer({ config: "examples/registry/wrangler.toml", vars: { REGISTRY_ADMIN_TOKEN: ADMIN_TOKEN, REGISTRY_ALLOW_INSECURE_URLS: "true", REGISTRY_DNS_CHECK: "off" }, readyTimeoutMs: 120_000 }),
    startServer({ config: "examples/conformance/wrangler.toml", readyTimeoutMs: 120_000 }),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([registry?.stop(), agent?.stop(), cards?.close()]);
}, 60_000);

const token = { A2A_REGISTRY_TOKEN: ADMIN_TOKEN };

describe("a2a registry", () => {
  it("add registers (and updates) an agent; without the token it is refused", async () => {
    const refused = await runCli(["registry", "add", registry.url, agent.url]);
    expect(refused.code).toBe(8);
    expect(refused.stderr).toContain("Authentication required");

    const added = await runCli(["registry", "add", registry.url, agent.url], { env: token });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^registered a2a-edge conformance agent \([0-9a-f]{20}\)\n$/);
    expect(added.stderr).toContain("signature unsigned; skills tck");

    const again = await runCli(["registry", "add", registry.url, agent.url, "--token", ADMIN_TOKEN, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: false, agent: { name: "a2a-edge conformance agent" } });
  });

  it("add shows why a bad card is refused", async () => {
    cards.routes.set("/bad/agent-card.json", { body: { ...validCard(cards.url, "Bad"), skills: [] } });
    const bad = await runCli(["registry", "add", registry.url, `${cards.url}/bad/agent-card.json`], { env: token });
    expect(bad.code).toBe(8);
    expect(bad.stderr).toContain("is not a valid A2A v1.0 card");
    expect(bad.stderr).toContain("card.skills");
  });

  it("find filters by skill, tag and text; --json prints the page", async () => {
    const bySkill = await runCli(["registry", "find", registry.url, "--skill", "tck"]);
    expect(bySkill.code, bySkill.stderr).toBe(0);
    expect(bySkill.stdout).toContain("a2a-edge conformance agent");
    expect(bySkill.stdout).toContain(`JSONRPC ${agent.url}/`);
    expect(bySkill.stdout).toContain("healthy");
    expect(bySkill.stderr).toBe("1 agent(s)\n");

    const byTag = await runCli(["registry", "find", registry.url, "--tag", "conformance", "--json"]);
    expect(byTag.code, byTag.stderr).toBe(0);
    const page = JSON.parse(byTag.stdout) as FindAgentsResult;
    expect(page.agents.map((a) => a.name)).toEqual(["a2a-edge conformance agent"]);
    expect(page.nextPageToken).toBe("");

    const byText = await runCli(["registry", "find", registry.url, "messageId", "prefix"]);
    expect(byText.stdout).toContain("a2a-edge conformance agent");
    const none = await runCli(["registry", "find", registry.url, "--tag", "nothing-has-this"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("no agents match\n");
    const usage = await runCli(["registry", "find", registry.url, "--page-size", "0"]);
    expect(usage.code).toBe(2);
  });

  it("ls lists every agent; rm unregisters by URL", async () => {
    const listed = await runCli(["registry", "ls", registry.url, "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    const entries = listed.stdout.trim().split("\n").map((line) => JSON.parse(line) as AgentEntry);
    expect(entries.map((e) => e.name)).toEqual(["a2a-edge conformance agent"]);
    const table = await runCli(["registry", "ls", registry.url]);
    expect(table.stdout).toContain(entries[0]!.id);
    expect(table.stderr).toBe("1 agent(s), 1 healthy\n");

    const removed = await runCli(["registry", "rm", registry.url, agent.url], { env: token });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toBe(`unregistered ${agent.url}\n`);
    const empty = await runCli(["registry", "ls", registry.url]);
    expect(empty.stdout).toBe("no agents registered\n");
    const twice = await runCli(["registry", "rm", registry.url, entries[0]!.id], { env: token });
    expect(twice.code).toBe(8);
    expect(twice.stderr).toContain("AGENT_NOT_FOUND");
  });
});
