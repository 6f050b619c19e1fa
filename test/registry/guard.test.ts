/**
 * The registry as deployed: without REGISTRY_ALLOW_INSECURE_URLS, registrations pointing at private,
 * loopback, link-local or internal addresses are refused by the SSRF guard before anything is fetched.
 * (DNS checks are off here: there is no resolver; the static policy is what is tested.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAgents } from "../../src/client/index";
import { startServer, type RunningServer } from "../e2e/server";
import { ADMIN_TOKEN, register, startCardServer, validCard, type CardServer } from "./helpers";

let registry: RunningServer;
let cards: CardServer;

beforeAll(async () => {
  cards = await startCardServer();
  cards.routes.set("/.well-known/agent-card.json", { body: validCard(cards.url, "Loopback agent") });
  registry = await startServer({
    config: "examples/registry/wrangler.toml",
    vars: { REGISTRY_ADMIN_TOKEN: ADMIN_TOKEN, REGISTRY_DNS_CHECK: "off" },
    readyTimeoutMs: 120_000,
  });
}, 180_000);

afterAll(async () => {
  await Promise.all([registry?.stop(), cards?.close()]);
}, 60_000);

describe("the SSRF guard", () => {
  it("refuses registrations that point at private, loopback or internal addresses", async () => {
    const port = new URL(cards.url).port;
    const cases: [url: string, reason: string][] = [
      [cards.url, "must use https"], // a live agent on loopback, reachable, and still refused
      [`https://127.0.0.1:${port}`, "must name a host, not an IP address"],
      ["https://10.0.0.7/", "must name a host, not an IP address"],
      ["https://192.168.1.20/agent-card.json", "must name a host, not an IP address"],
      ["https://169.254.169.254/latest/meta-data/agent-card.json", "must name a host, not an IP address"],
      ["https://[::1]/", "must name a host, not an IP address"],
      ["https://0x7f000001/", "must name a host, not an IP address"],
      ["https://localhost:8443/", "must not point at this machine"],
      ["https://metadata.google.internal/", "must not point at a local or internal name"],
      ["https://printer.local/", "must not point at a local or internal name"],
      ["https://intranet/", "must be a fully qualified public host name"],
      ["https://user:secret@agent.example.com/", "must not carry credentials"],
    ];
    for (const [url, reason] of cases) {
      const refused = await register(registry, { url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.message, url).toContain(reason);
      const info = refused.body.error.details.find((d: any) => d["@type"].endsWith("ErrorInfo"));
      expect(info.metadata.problem, url).toBe("unsafe-url");
    }
    expect(cards.seen).toEqual([]); // nothing was fetched
    expect((await findAgents(registry.url, { includeUnhealthy: true })).agents).toEqual([]);
  });

  it("still authenticates first: an anonymous registration is refused before any URL is looked at", async () => {
    const refused = await register(registry, { url: "https://10.0.0.7/" }, null);
    expect(refused.status).toBe(401);
  });
});
