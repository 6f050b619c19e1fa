/** What an agent's definition declares, checked through the real fetch handler of ad-hoc agents. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defineAgent } from "../../src/index";

const facts = { name: "n", description: "d", version: "1", skills: [{ id: "s", name: "s", description: "s", tags: ["t"] }] };
const rpc = (agent: ReturnType<typeof defineAgent>, method: string, params: unknown) =>
  agent.fetch(new Request("http://agent.test/", { method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) }), env as never).then((r) => r.json() as Promise<any>);

describe("agent definitions", () => {
  it("an extended card declared but not given answers ExtendedAgentCardNotConfigured", async () => {
    const agent = defineAgent({ card: { ...facts, capabilities: { extendedAgentCard: true } }, execute: (ctx) => ctx.complete() });
    const body = await rpc(agent, "GetExtendedAgentCard", {});
    expect(body.error).toMatchObject({ code: -32007, data: [{ reason: "EXTENDED_AGENT_CARD_NOT_CONFIGURED" }] });
  });

  it("a tenant declared by the card appears on every interface", async () => {
    const agent = defineAgent({ card: { ...facts, tenant: "acme" }, execute: (ctx) => ctx.complete() });
    const card = (await (await agent.fetch(new Request("http://agent.test/.well-known/agent-card.json"), env as never)).json()) as any;
    expect(card.supportedInterfaces.map((i: any) => i.tenant)).toEqual(["acme", "acme"]);
  });

  it("refuses, at definition time, a card that is not valid or security it cannot enforce", () => {
    expect(() => defineAgent({ card: { ...facts, skills: [] }, execute: () => {} })).toThrow(/card\.skills/);
    expect(() => defineAgent({
      card: { ...facts, securitySchemes: { k: { apiKeySecurityScheme: { location: "header", name: "X-Key" } } }, securityRequirements: [{ schemes: { k: { list: [] } } }] },
      execute: () => {},
    })).toThrow(/needs a verifier/);
    expect(() => defineAgent({ card: { ...facts, securityRequirements: [{ schemes: { ghost: { list: [] } } }] }, execute: () => {} })).toThrow(/does not declare/);
  });
});
