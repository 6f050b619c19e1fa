/**
 * The health sweep, run by the registry's real cron trigger under wrangler dev: cards re-fetched with
 * If-None-Match (and changes picked up), a slow agent costing one slot for one timeout and never the
 * sweep, and a stopped agent turning unhealthy after failures with backoff, then healthy again when it
 * comes back. The stopped agent is the real demo agent behind a proxy that keeps its address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAgents, getRegisteredAgent, registerAgent, unregisterAgent, type AgentEntry } from "../../src/client/index";
import { startServer, type RunningServer } from "../e2e/server";
import { ADMIN_TOKEN, runSweep, sleep, startCardServer, startProxy, validCard, type CardServer, type Proxy } from "./helpers";

let registry: RunningServer;
let demo: RunningServer | undefined;
let cards: CardServer;
let proxy: Proxy;

const FETCH_TIMEOUT_MS = 1500;
const BACKOFF_BASE_SECONDS = 1;

beforeAll(async () => {
  cards = await startCardServer();
  [registry, demo] = await Promise.all([
    startServer({
      config: "examples/registry/wrangler.toml",
      vars: {
        REGISTRY_ADMIN_TOKEN: ADMIN_TOKEN, REGISTRY_ALLOW_INSECURE_URLS: "true", REGISTRY_DNS_CHECK: "off",
        REGISTRY_FETCH_TIMEOUT_MS: String(FETCH_TIMEOUT_MS), REGISTRY_SWEEP_CONCURRENCY: "2",
        REGISTRY_UNHEALTHY_AFTER: "2", REGISTRY_BACKOFF_BASE_SECONDS: String(BACKOFF_BASE_SECONDS),
      },
      readyTimeoutMs: 120_000,
    }),
    startServer({ config: "wrangler.toml", readyTimeoutMs: 120_000 }),
  ]);
  proxy = await startProxy(demo!.url);
}, 240_000);

afterAll(async () => {
  await proxy?.down();
  await Promise.all([registry?.stop(), demo?.stop(), cards?.close()]);
}, 60_000);

const admin = { token: ADMIN_TOKEN };

async function entry(id: string): Promise<AgentEntry> {
  return getRegisteredAgent(registry.url, id);
}

/** Waits until the entry's next check is due (its backoff has passed). */
async function untilDue(id: string): Promise<void> {
  const next = Date.parse((await entry(id)).health.nextCheck);
  await sleep(Math.max(0, next - Date.now()) + 300);
}

describe("the health sweep", () => {
  it("re-fetches cards with If-None-Match: a 304 keeps the entry, a changed card is picked up", async () => {
    cards.routes.set("/etag/agent-card.json", { body: validCard(cards.url, "ETag agent", { id: "summarize", tags: ["text"] }), etag: '"v1"' });
    const { agent } = await registerAgent(registry.url, `${cards.url}/etag/agent-card.json`, admin);
    expect(agent.etag).toBe('"v1"');

    await runSweep(registry);
    const checks = cards.seen.filter((r) => r.path === "/etag/agent-card.json");
    expect(checks.at(-1)!.headers["if-none-match"]).toBe('"v1"');
    const unchanged = await entry(agent.id);
    expect(unchanged.health).toMatchObject({ healthy: true, failures: 0 });
    expect(Date.parse(unchanged.health.lastSeen)).toBeGreaterThan(Date.parse(agent.health.lastSeen));
    expect(unchanged.updatedAt).toBe(agent.updatedAt);

    cards.routes.set("/etag/agent-card.json", { body: validCard(cards.url, "ETag agent", { id: "translate", tags: ["language"] }), etag: '"v2"' });
    await runSweep(registry);
    const found = await findAgents(registry.url, { skill: "translate" });
    expect(found.agents.map((a) => a.id)).toEqual([agent.id]);
    expect(found.agents[0]!.etag).toBe('"v2"');
    expect((await findAgents(registry.url, { skill: "summarize" })).agents).toEqual([]);

    // A card that turns invalid is a failed check; the last good card stays.
    cards.routes.set("/etag/agent-card.json", { body: { name: "ETag agent" }, etag: '"v3"' });
    await runSweep(registry);
    const failing = await entry(agent.id);
    expect(failing.health).toMatchObject({ healthy: true, failures: 1, lastError: expect.stringContaining("not a valid A2A v1.0 card") });
    expect(failing.skills.map((s) => s.id)).toEqual(["translate"]);
    await unregisterAgent(registry.url, agent.id, admin);
  });

  it("never lets a slow agent stall the sweep: bounded concurrency, a timeout per fetch", async () => {
    cards.routes.set("/slow/agent-card.json", { body: validCard(cards.url, "Slow agent"), etag: '"s"' });
    const slow = (await registerAgent(registry.url, `${cards.url}/slow/agent-card.json`, admin)).agent;
    const fast: string[] = [];
    for (let i = 0; i < 4; i++) {
      cards.routes.set(`/fast${i}/agent-card.json`, { body: validCard(cards.url, `Fast agent ${i}`) });
      fast.push((await registerAgent(registry.url, `${cards.url}/fast${i}/agent-card.json`, admin)).agent.id);
    }
    cards.routes.set("/slow/agent-card.json", { body: validCard(cards.url, "Slow agent"), delayMs: 30_000 });

    const started = Date.now();
    await runSweep(registry);
    const took = Date.now() - started;
    expect(took).toBeLessThan(15_000); // the slow agent would hold a sweep without timeouts for 30 s
    const slowEntry = await entry(slow.id);
    expect(slowEntry.health.failures).toBe(1);
    expect(slowEntry.health.lastError).toContain(`did not answer within ${FETCH_TIMEOUT_MS} ms`);
    for (const id of fast) {
      const checked = await entry(id);
      expect(checked.health).toMatchObject({ healthy: true, failures: 0 });
      expect(Date.parse(checked.health.lastChecked)).toBeGreaterThanOrEqual(started - 1000);
    }
    for (const id of [slow.id, ...fast]) await unregisterAgent(registry.url, id, admin);
  });

  it("a stopped agent turns unhealthy after failures with backoff, and healthy again when it comes back", async () => {
    const { agent } = await registerAgent(registry.url, proxy.url, admin);
    expect(agent.name).toBe("a2a-edge demo agent");
    await runSweep(registry);
    expect((await entry(agent.id)).health).toMatchObject({ healthy: true, failures: 0 });

    // The agent stops: its process ends, and nothing listens on its address any more.
    await demo!.stop();
    demo = undefined;
    await proxy.down();

    await runSweep(registry);
    const once = await entry(agent.id);
    expect(once.health).toMatchObject({ healthy: true, failures: 1, lastError: expect.stringContaining("could not be reached") });
    const firstWait = Date.parse(once.health.nextCheck) - Date.parse(once.health.lastChecked);
    expect(firstWait).toBe(BACKOFF_BASE_SECONDS * 1000);

    // Backoff: a sweep before the next check is due leaves the entry alone.
    await runSweep(registry);
    expect((await entry(agent.id)).health.lastChecked).toBe(once.health.lastChecked);

    await untilDue(agent.id);
    await runSweep(registry);
    const twice = await entry(agent.id);
    expect(twice.health).toMatchObject({ healthy: false, failures: 2 });
    expect(Date.parse(twice.health.nextCheck) - Date.parse(twice.health.lastChecked)).toBe(2 * BACKOFF_BASE_SECONDS * 1000);
    expect((await findAgents(registry.url, { skill: "echo" })).agents).toEqual([]);
    const listed = await findAgents(registry.url, { skill: "echo", includeUnhealthy: true });
    expect(listed.agents.map((a) => [a.id, a.health.healthy])).toEqual([[agent.id, false]]);

    // It comes back (a new process, the same address).
    demo = await startServer({ config: "wrangler.toml", readyTimeoutMs: 120_000 });
    proxy.target = demo.url;
    await proxy.up();
    await untilDue(agent.id);
    await runSweep(registry);
    const back = await entry(agent.id);
    expect(back.health).toMatchObject({ healthy: true, failures: 0 });
    expect(back.health.lastError).toBeUndefined();
    expect((await findAgents(registry.url, { skill: "echo" })).agents.map((a) => a.id)).toEqual([agent.id]);
  }, 180_000);
});
