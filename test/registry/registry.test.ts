/**
 * The agent registry end to end: the registry Worker and two real agents (the demo agent, with a signed
 * card, and the conformance agent) run under wrangler dev; the client's findAgents and the HTTP API are
 * exercised against them. Bad cards come from a tiny Node card server on loopback.
 */
import { webcrypto } from "node:crypto";
import { importJWK, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  A2AClient, A2AClientError, findAgents, getRegisteredAgent, registerAgent, unregisterAgent, userMessage, type AgentEntry,
} from "../../src/client/index";
import { startServer, type RunningServer } from "../e2e/server";
import { ADMIN_TOKEN, register, startCardServer, validCard, type CardServer } from "./helpers";

let registry: RunningServer;
let demo: RunningServer;
let conformance: RunningServer;
let cards: CardServer;
let cardKey: { privateJwk: JWK; jwks: { keys: JWK[] } };
let otherKey: { privateJwk: JWK; jwks: { keys: JWK[] } };
let idpKey: { privateJwk: JWK; jwks: { keys: JWK[] } };

const ISSUER = "https://idp.registry-test.example";
const AUDIENCE = "a2a-registry-test";

async function makeKey(kid: string) {
  const { privateKey } = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await webcrypto.subtle.exportKey("jwk", privateKey)) as JWK;
  const pub: JWK = { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y!, kid, alg: "ES256" };
  return { privateJwk: { ...pub, d: jwk.d! }, jwks: { keys: [pub] } };
}

async function writerJwt(claims: Record<string, unknown>, audience = AUDIENCE): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: idpKey.privateJwk.kid! })
    .setIssuer(ISSUER).setAudience(audience).setSubject("deployer-bot").setIssuedAt().setExpirationTime("5m")
    .sign(await importJWK(idpKey.privateJwk, "ES256"));
}

beforeAll(async () => {
  [cardKey, otherKey, idpKey] = await Promise.all([makeKey("card-key-1"), makeKey("other-key"), makeKey("idp-key-1")]);
  cards = await startCardServer();
  [registry, demo, conformance] = await Promise.all([
    startServer({
      config: "examples/registry/wrangler.toml",
      vars: {
        REGISTRY_ADMIN_TOKEN: ADMIN_TOKEN, REGISTRY_ALLOW_INSECURE_URLS: "true", REGISTRY_DNS_CHECK: "off",
        REGISTRY_JWT_AUDIENCE: AUDIENCE, REGISTRY_JWT_ISSUER: ISSUER, REGISTRY_JWKS: JSON.stringify(idpKey.jwks),
      },
      readyTimeoutMs: 120_000,
    }),
    startServer({ config: "wrangler.toml", vars: { CARD_SIGNING_JWK: JSON.stringify(cardKey.privateJwk) }, readyTimeoutMs: 120_000 }),
    startServer({ config: "examples/conformance/wrangler.toml", readyTimeoutMs: 120_000 }),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([registry?.stop(), demo?.stop(), conformance?.stop(), cards?.close()]);
}, 60_000);

const admin = { token: ADMIN_TOKEN };
const names = (agents: AgentEntry[]) => agents.map((a) => a.name).sort();
const DEMO = "a2a-edge demo agent";
const CONFORMANCE = "a2a-edge conformance agent";

describe("registering and finding", () => {
  it("registers two local agents and finds each by skill and by tag, with the card summary and the interface to call", async () => {
    const first = await register(registry, { url: demo.url, jwks: cardKey.jwks });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.created).toBe(true);
    expect(first.headers.get("location")).toBe(`${registry.url}/agents/${first.body.agent.id}`);
    expect(first.body.agent).toMatchObject({
      name: DEMO, cardUrl: `${demo.url}/.well-known/agent-card.json`, signature: { status: "verified", kid: "card-key-1" },
      health: { healthy: true, failures: 0 },
    });
    expect(first.body.agent.etag).toMatch(/^".+"$/);

    const second = await registerAgent(registry.url, `${conformance.url}/.well-known/agent-card.json`, admin);
    expect(second.created).toBe(true);
    expect(second.agent.signature).toEqual({ status: "unsigned" });

    const bySkill = await findAgents(registry.url, { skill: "echo" });
    expect(names(bySkill.agents)).toEqual([DEMO]);
    const [entry] = bySkill.agents;
    expect(entry!.matchedSkills).toEqual(["echo"]);
    expect(entry!.skills.map((s) => s.id)).toEqual(["echo", "greet", "long"]);
    expect(entry!.interface).toEqual({ url: `${demo.url}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" });
    expect(entry).toMatchObject({ description: expect.stringContaining("Echoes text"), version: "0.1.0", capabilities: { streaming: true }, authRequired: false });
    expect(entry!.health.latencyMs).toBeGreaterThanOrEqual(0);
    expect(entry!.health.lastSeen).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(bySkill.nextPageToken).toBe("");

    expect(names((await findAgents(registry.url, { skill: "tck" })).agents)).toEqual([CONFORMANCE]);
    expect(names((await findAgents(registry.url, { tag: "streaming" })).agents)).toEqual([DEMO]);
    expect(names((await findAgents(registry.url, { tag: "TCK" })).agents)).toEqual([CONFORMANCE]);
    expect((await findAgents(registry.url, { tag: "input-required" })).agents[0]!.matchedSkills).toEqual(["greet"]);

    // The interface the registry hands out is one a client can call.
    const client = await A2AClient.connect(entry!.cardUrl);
    const answer = await client.sendMessage({ message: userMessage("found you") });
    expect("task" in answer && answer.task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("finds by media type and free text; filters combine; verified only", async () => {
    expect(names((await findAgents(registry.url, { inputMode: "text/plain" })).agents)).toEqual([DEMO, CONFORMANCE].sort());
    expect((await findAgents(registry.url, { outputMode: "audio/mpeg" })).agents).toEqual([]);
    expect(names((await findAgents(registry.url, "greets you by name")).agents)).toEqual([DEMO]);
    expect(names((await findAgents(registry.url, { text: "MESSAGEID prefix" })).agents)).toEqual([CONFORMANCE]);
    expect((await findAgents(registry.url, { skill: "echo", tag: "tck" })).agents).toEqual([]);
    expect(names((await findAgents(registry.url, { skill: "long", tag: "cancel", inputMode: "Text/Plain; charset=utf-8" })).agents)).toEqual([DEMO]);
    expect(names((await findAgents(registry.url, { verifiedOnly: true })).agents)).toEqual([DEMO]);
  });

  it("pages with an opaque token and refuses a forged one", async () => {
    const first = await findAgents(registry.url, { pageSize: 1 });
    expect(first.agents).toHaveLength(1);
    expect(first.nextPageToken).not.toBe("");
    const second = await findAgents(registry.url, { pageSize: 1, pageToken: first.nextPageToken });
    expect(second.agents).toHaveLength(1);
    expect(second.nextPageToken).toBe("");
    expect(names([...first.agents, ...second.agents])).toEqual([DEMO, CONFORMANCE].sort());

    const forged = await findAgents(registry.url, { pageToken: "not-a-token" }).catch((e: unknown) => e);
    expect(forged).toBeInstanceOf(A2AClientError);
    expect(forged).toMatchObject({ type: "InvalidParams", httpStatus: 400, violations: [{ field: "pageToken" }] });
    const tooBig = await fetch(`${registry.url}/agents?pageSize=1000`);
    expect(tooBig.status).toBe(400);
  });

  it("re-registering updates the entry; unregistering removes it", async () => {
    const before = (await findAgents(registry.url, { skill: "echo" })).agents[0]!;
    const again = await registerAgent(registry.url, demo.url, admin); // no keys this time
    expect(again.created).toBe(false);
    expect(again.agent.id).toBe(before.id);
    expect(again.agent.registeredAt).toBe(before.registeredAt);
    expect(again.agent.signature).toEqual({ status: "unverified" });
    expect(again.agent.card.name).toBe(DEMO);

    const conformanceEntry = (await findAgents(registry.url, { skill: "tck" })).agents[0]!;
    await unregisterAgent(registry.url, conformance.url, admin);
    expect((await findAgents(registry.url, { skill: "tck", includeUnhealthy: true })).agents).toEqual([]);
    const gone = await getRegisteredAgent(registry.url, conformanceEntry.id).catch((e: unknown) => e);
    expect(gone).toMatchObject({ httpStatus: 404, reason: "AGENT_NOT_FOUND" });
    const twice = await unregisterAgent(registry.url, conformanceEntry.id, admin).catch((e: unknown) => e);
    expect(twice).toMatchObject({ httpStatus: 404, reason: "AGENT_NOT_FOUND" });
    expect(names((await findAgents(registry.url)).agents)).toEqual([DEMO]);

    // Registered again (by entry URL), for the tests that follow.
    expect((await registerAgent(registry.url, conformance.url, admin)).created).toBe(true);
  });
});

describe("refusals", () => {
  it("refuses a card that fails validation, naming what is wrong", async () => {
    const bad = validCard(cards.url, "Broken agent");
    bad.skills = [{ id: "x", name: "x", description: "no tags" , tags: [] }];
    delete bad.defaultInputModes;
    cards.routes.set("/broken/agent-card.json", { body: bad });
    const refused = await register(registry, { url: `${cards.url}/broken/agent-card.json` });
    expect(refused.status).toBe(400);
    expect(refused.body.error.status).toBe("INVALID_ARGUMENT");
    expect(refused.body.error.message).toContain("is not a valid A2A v1.0 card");
    expect(refused.body.error.message).toContain("card.skills.0.tags: needs at least one tag");
    const violations = refused.body.error.details.find((d: any) => d["@type"].endsWith("BadRequest")).fieldViolations;
    expect(violations.map((v: any) => v.field)).toEqual(expect.arrayContaining(["card.skills.0.tags", "card.defaultInputModes"]));

    // Through the client: an A2AClientError with the same violations.
    const viaClient = await registerAgent(registry.url, `${cards.url}/broken/agent-card.json`, admin).catch((e: unknown) => e);
    expect(viaClient).toBeInstanceOf(A2AClientError);
    expect(viaClient).toMatchObject({ type: "InvalidParams", httpStatus: 400, metadata: { problem: "invalid-card" } });

    cards.routes.set("/not-json/agent-card.json", { body: "<html>hello</html>" });
    cards.routes.set("/v03/agent-card.json", { body: { name: "Old", description: "0.3", url: `${cards.url}/`, version: "1", capabilities: {}, skills: [] } });
    cards.routes.set("/moved/agent-card.json", { body: "", status: 302, headers: { location: "http://10.0.0.1/agent-card.json" } });
    const cases: [string, string][] = [
      ["/not-json/agent-card.json", "is not JSON"],
      ["/v03/agent-card.json", "is a protocol 0.3 card"],
      ["/missing/agent-card.json", "answered HTTP 404"],
      ["/moved/agent-card.json", "redirects to http://10.0.0.1/agent-card.json; redirects are not followed"],
    ];
    for (const [path, reason] of cases) {
      const answer = await register(registry, { url: `${cards.url}${path}` });
      expect(answer.status, path).toBe(400);
      expect(answer.body.error.message, path).toContain(reason);
    }
    expect((await register(registry, { nothing: true })).body.error.message).toContain("url");
    expect((await register(registry, { url: "not a url" })).body.error.message).toContain("url is not an absolute URL");
    expect(cards.seen.some((r) => r.path.startsWith("/moved/"))).toBe(true);
    expect(names((await findAgents(registry.url, { includeUnhealthy: true })).agents)).toEqual([DEMO, CONFORMANCE].sort());
  });

  it("refuses a signed card whose signature does not verify with the keys given", async () => {
    const refused = await register(registry, { url: demo.url, jwks: otherKey.jwks });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("the card's signature does not verify with the keys given");
    expect((await findAgents(registry.url, { skill: "echo" })).agents[0]!.signature.status).toBe("unverified");

    // Keys from a JWKS URL: fetched through the same SSRF guard as the card.
    const unsafeKeys = await register(registry, { url: demo.url, jwksUrl: "https://10.0.0.1/jwks.json" });
    expect(unsafeKeys.status).toBe(400);
    expect(unsafeKeys.body.error.message).toContain("https://10.0.0.1/jwks.json must name a host, not an IP address");
    cards.routes.set("/keys.json", { body: cardKey.jwks });
    const fromUrl = await registerAgent(registry.url, { url: demo.url, jwksUrl: `${cards.url}/keys.json` }, admin);
    expect(fromUrl.agent.signature).toEqual({ status: "verified", kid: "card-key-1" });
    await registerAgent(registry.url, demo.url, admin); // back to no keys (unverified), as the tests below expect
  });

  it("refuses unauthenticated registration and unregistration", async () => {
    const none = await register(registry, { url: demo.url }, null);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain('Bearer realm="a2a-registry"');
    expect(none.body.error).toMatchObject({ status: "UNAUTHENTICATED" });
    expect((await register(registry, { url: demo.url }, "Bearer wrong-token")).status).toBe(401);
    expect((await register(registry, { url: demo.url }, `Basic ${btoa(`admin:${ADMIN_TOKEN}`)}`)).status).toBe(401);
    const deleted = await fetch(`${registry.url}/agents?url=${encodeURIComponent(demo.url)}`, { method: "DELETE" });
    expect(deleted.status).toBe(401);
    const byClient = await registerAgent(registry.url, demo.url).catch((e: unknown) => e);
    expect(byClient).toMatchObject({ type: "Unauthenticated", httpStatus: 401 });
    expect(names((await findAgents(registry.url)).agents)).toEqual([DEMO, CONFORMANCE].sort());
  });

  it("accepts a writer JWT with the registry:write scope (card-driven auth), and refuses one without", async () => {
    const good = await register(registry, { url: conformance.url }, `Bearer ${await writerJwt({ scope: "registry:write" })}`);
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const noScope = await register(registry, { url: conformance.url }, `Bearer ${await writerJwt({ scope: "other" })}`);
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.message).toContain("missing scope registry:write");
    const wrongAudience = await register(registry, { url: conformance.url }, `Bearer ${await writerJwt({ scope: "registry:write" }, "someone-else")}`);
    expect(wrongAudience.status).toBe(401);
  });
});

describe("the registry is an agent too", () => {
  it("publishes its own card and answers find-agents over A2A", async () => {
    const client = await A2AClient.connect(registry.url);
    expect(client.card.name).toBe("a2a-edge agent registry");
    expect(client.card.skills.map((s) => s.id)).toEqual(["find-agents"]);
    const response = await client.sendMessage({ message: userMessage("skill:echo") });
    if (!("task" in response)) throw new Error("expected a task");
    expect(response.task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(response.task.status.message?.parts[0]?.text).toBe(`Found 1 agent: ${DEMO}`);
    const data = response.task.artifacts?.[0]?.parts[0]?.data as { agents: AgentEntry[] };
    expect(data.agents.map((a) => a.name)).toEqual([DEMO]);

    const structured = await client.sendMessage({ message: { ...userMessage(""), parts: [{ data: { tag: "tck" } }] } });
    const found = "task" in structured ? (structured.task.artifacts?.[0]?.parts[0]?.data as { agents: AgentEntry[] }) : undefined;
    expect(found?.agents.map((a) => a.name)).toEqual([CONFORMANCE]);
  });
});
