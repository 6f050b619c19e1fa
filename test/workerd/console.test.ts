/**
 * The web console's routes in the Worker: served only when enabled (options.console, env A2A_CONSOLE
 * over it), public even when the API needs credentials, and otherwise answered like any unknown route.
 * (What the page does is tested in a real browser: test/browser/.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defineAgent, type AgentDefinition } from "../../src/index";

const facts = { name: "n", description: "d", version: "1", skills: [{ id: "s", name: "s", description: "s", tags: ["t"] }] };
const agentWith = (extra: Partial<AgentDefinition> = {}) => defineAgent({ card: facts, execute: (ctx) => ctx.complete(), ...extra });
const get = (agent: ReturnType<typeof defineAgent>, path: string, vars: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  agent.fetch(new Request(`http://agent.test${path}`, { headers }), { ...env, ...vars } as never);

const secured: Partial<AgentDefinition> = {
  card: {
    ...facts,
    securitySchemes: { key: { apiKeySecurityScheme: { location: "header", name: "X-API-Key" } } },
    securityRequirements: [{ schemes: { key: { list: [] } } }],
  },
  auth: { key: { apiKeys: () => ({ "key-1": "alice" }) } },
};

describe("the web console's routes", () => {
  it("is off by default: GET / and the console's files answer exactly as without a console", async () => {
    const agent = agentWith();
    const errorOf = async (response: Response) => {
      expect(response.headers.get("content-type")).toMatch(/json/);
      const { error } = (await response.json()) as { error: { code: number; status: string; message: string } };
      return { http: response.status, code: error.code, status: error.status };
    };
    for (const path of ["/", "/console/app.js", "/console/app.css"]) {
      const unknown = path === "/" ? "/" : "/console/nothing.js";
      expect(await errorOf(await get(agent, path))).toEqual(await errorOf(await get(agent, unknown)));
    }
    expect((await get(agent, "/")).status).toBe(405); // POST / is the JSON-RPC endpoint
    expect((await get(agent, "/console/app.js")).status).toBe(404);
  });

  it("options.console serves the page, its script and its style", async () => {
    const agent = agentWith({ options: { console: true } });
    const page = await get(agent, "/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toMatch(/<script type="module" src="\/console\/app\.js\?v=[\w-]+"><\/script>/);
    const script = await get(agent, "/console/app.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await script.text()).length).toBeGreaterThan(10_000);
    const style = await get(agent, "/console/app.css");
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    // Revalidation: the build's hash is the ETag.
    const etag = script.headers.get("etag")!;
    expect((await get(agent, "/console/app.js", {}, { "if-none-match": etag })).status).toBe(304);
  });

  it("A2A_CONSOLE overrides options.console both ways", async () => {
    expect((await get(agentWith({ options: { console: true } }), "/", { A2A_CONSOLE: "false" })).status).toBe(405);
    expect((await get(agentWith(), "/", { A2A_CONSOLE: "true" })).status).toBe(200);
    expect((await get(agentWith(), "/", { A2A_CONSOLE: "TRUE" })).status).toBe(200);
  });

  it("the page is public when the API needs credentials; the API still does", async () => {
    const agent = agentWith({ ...secured, options: { console: true } });
    expect((await get(agent, "/")).status).toBe(200);
    expect((await get(agent, "/console/app.js")).status).toBe(200);
    expect((await get(agent, "/tasks", {}, { "a2a-version": "1.0" })).status).toBe(401);
    expect((await get(agent, "/tasks", {}, { "a2a-version": "1.0", "x-api-key": "key-1" })).status).toBe(200);
    const rpc = await agent.fetch(new Request("http://agent.test/", {
      method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} }),
    }), env as never);
    expect(rpc.status).toBe(401);
    // Off, the page is behind the credentials like every other path.
    expect((await get(agentWith(secured), "/")).status).toBe(401);
  });

  it("reserves the console's folder name: no tenant can be called `console`", async () => {
    const agent = agentWith({ options: { console: true } });
    const response = await get(agent, "/console/tasks", {}, { "a2a-version": "1.0" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.details[0].reason).toBe("INVALID_PARAMS");
  });
});
