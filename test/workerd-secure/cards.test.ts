/** The extended card, card signatures (with hand-made vectors), extensions and CORS. */
import { env } from "cloudflare:workers";
import { generateKeyPair, exportJWK } from "jose";
import { describe, expect, it } from "vitest";
import { canonicalCardPayload, signAgentCard, verifyAgentCard } from "../../src/signing/card";
import type { AgentCard } from "../../src/protocol/index";
import secureWorker from "../fixtures/secure-agent";
import { BASE, fetchSecure, message, REQUIRED_EXTENSION, rest, rpc, token } from "./helpers";

const cardJwks = () => JSON.parse((env as unknown as { TEST_CARD_JWKS: string }).TEST_CARD_JWKS);
const ALICE = { "x-api-key": "key-alice" };

describe("the extended card", () => {
  it("is served to an authenticated caller, per caller, on both bindings, and refused without credentials", async () => {
    const viaRest = (await (await rest("GET", "/extendedAgentCard", ALICE)).json()) as any;
    expect(viaRest.description).toBe("The extended card, as alice sees it.");
    expect(viaRest.skills.map((s: any) => s.id)).toEqual(["whoami", "admin", "secret"]);
    const viaRpc = (await (await rpc("GetExtendedAgentCard", {}, { authorization: `Bearer ${await token({ sub: "dave" })}` })).json()) as any;
    expect(viaRpc.result.description).toBe("The extended card, as dave sees it.");
    expect((await rest("GET", "/extendedAgentCard", {})).status).toBe(401);
    const publicCard = (await (await fetchSecure("/.well-known/agent-card.json")).json()) as any;
    expect(publicCard.capabilities.extendedAgentCard).toBe(true);
    expect(publicCard.skills.map((s: any) => s.id)).toEqual(["whoami", "admin"]);
  });
});

describe("card signatures", () => {
  it("signs the public and the extended card; the verifier accepts them with the published key", async () => {
    const card = (await (await fetchSecure("/.well-known/agent-card.json")).json()) as AgentCard;
    expect(card.signatures).toHaveLength(1);
    const header = JSON.parse(atob(card.signatures![0]!.protected.replace(/-/g, "+").replace(/_/g, "/")));
    expect(header).toEqual({ alg: "ES256", kid: "card-key-1", typ: "JOSE" });
    expect(await verifyAgentCard(card, cardJwks())).toEqual({ kid: "card-key-1" });
    const extended = (await (await rest("GET", "/extendedAgentCard", ALICE)).json()) as AgentCard;
    expect(await verifyAgentCard(extended, cardJwks())).toEqual({ kid: "card-key-1" });
  });

  it("fails on a tampered field and on the wrong key; ignores default-valued fields", async () => {
    const card = (await (await fetchSecure("/.well-known/agent-card.json")).json()) as AgentCard;
    await expect(verifyAgentCard({ ...card, description: "Trust me." }, cardJwks())).rejects.toThrow(/no signature verifies/);
    await expect(verifyAgentCard({ ...card, capabilities: { ...card.capabilities, streaming: false } }, cardJwks())).rejects.toThrow(/no signature verifies/);
    const other = await generateKeyPair("ES256");
    await expect(verifyAgentCard(card, { keys: [{ ...(await exportJWK(other.publicKey)), kid: "card-key-1", alg: "ES256" }] })).rejects.toThrow(/no signature verifies/);
    // Fields at their ProtoJSON default are not part of the signed payload: adding them changes nothing.
    const withDefaults = { ...card, skills: card.skills.map((s) => ({ ...s, examples: [] })), capabilities: { ...card.capabilities, extensions: card.capabilities.extensions!.map((e) => ({ ...e, required: e.required ?? false })) } };
    expect(await verifyAgentCard(withDefaults, cardJwks())).toEqual({ kid: "card-key-1" });
    await expect(verifyAgentCard({ ...card, signatures: [] }, cardJwks())).rejects.toThrow(/not signed/);
  });

  it("canonicalizes by hand-made vectors (RFC 8785 order, defaults dropped, REQUIRED and explicit fields kept)", async () => {
    const card = {
      version: "1", name: "n", description: "", skills: [{ tags: ["t"], id: "s", name: "S", description: "d", examples: [] }],
      supportedInterfaces: [{ url: "https://a", protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" }],
      capabilities: { streaming: false, extensions: [{ uri: "urn:x", required: false, params: { zero: 0 } }] },
      defaultInputModes: ["text/plain"], defaultOutputModes: [], securitySchemes: {}, signatures: [{ protected: "x", signature: "y" }],
    } as unknown as AgentCard;
    expect(canonicalCardPayload(card)).toBe(
      '{"capabilities":{"extensions":[{"params":{"zero":0},"uri":"urn:x"}],"streaming":false},"defaultInputModes":["text/plain"],"defaultOutputModes":[],"description":"","name":"n","skills":[{"description":"d","id":"s","name":"S","tags":["t"]}],"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","url":"https://a"}],"version":"1"}',
    );
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const signed = await signAgentCard(card, { ...(await exportJWK(privateKey)), kid: "k", alg: "ES256" });
    expect(signed.signatures).toHaveLength(2);
    expect(await verifyAgentCard(signed, { keys: [{ ...(await exportJWK(publicKey)), kid: "k", alg: "ES256" }] })).toEqual({ kid: "k" });
  });
});

describe("extensions", () => {
  it("refuses a request that does not ask for a required extension, on both bindings", async () => {
    const viaRest = await fetchSecure("/message:send", { method: "POST", headers: { "a2a-version": "1.0", "content-type": "application/json", ...ALICE }, body: JSON.stringify({ message: message() }) });
    expect(viaRest.status).toBe(400);
    expect(((await viaRest.json()) as any).error.details[0].reason).toBe("EXTENSION_SUPPORT_REQUIRED");
    const viaRpc = await fetchSecure("/", { method: "POST", headers: { "a2a-version": "1.0", "content-type": "application/json", ...ALICE }, body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "GetTask", params: { id: "x" } }) });
    const body = (await viaRpc.json()) as any;
    expect(body.id).toBe(9);
    expect(body.error.code).toBe(-32008);
  });

  it("activates requested extensions it declares, ignores unknown ones, and echoes the active ones", async () => {
    const response = await rest("POST", "/message:send", { ...ALICE, "a2a-extensions": `${REQUIRED_EXTENSION}, urn:a2a-edge:test:optional, urn:unknown` }, { message: message() });
    expect(response.headers.get("a2a-extensions")).toBe(`${REQUIRED_EXTENSION}, urn:a2a-edge:test:optional`);
    const body = (await response.json()) as any;
    expect(body.task.status.message.parts[0].text).toMatch(/extensions=urn:a2a-edge:test:required,urn:a2a-edge:test:optional$/);
  });
});

describe("CORS", () => {
  const preflight = (workerEnv: unknown) => secureWorker.fetch(new Request(`${BASE}/message:send`, {
    method: "OPTIONS",
    headers: { origin: "https://console.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type,authorization,a2a-version,a2a-extensions,last-event-id" },
  }), workerEnv as never);

  it("keeps the card public but the API closed to browsers by default", async () => {
    const card = await fetchSecure("/.well-known/agent-card.json", { headers: { origin: "https://console.example" } });
    expect(card.headers.get("access-control-allow-origin")).toBe("*");
    expect((await preflight(env)).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("opens the API to configured origins, with the A2A headers allowed and exposed", async () => {
    const open = { ...(env as object), CORS_ORIGINS: "https://console.example" };
    const answer = await preflight(open);
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://console.example");
    expect(answer.headers.get("access-control-allow-headers")).toMatch(/a2a-version.*a2a-extensions.*last-event-id/);
    const call = await secureWorker.fetch(new Request(`${BASE}/tasks`, { headers: { origin: "https://console.example", "a2a-version": "1.0", "a2a-extensions": REQUIRED_EXTENSION, ...ALICE } }), open as never);
    expect(call.headers.get("access-control-allow-origin")).toBe("https://console.example");
    expect(call.headers.get("access-control-expose-headers")).toMatch(/www-authenticate/);
    const elsewhere = await secureWorker.fetch(new Request(`${BASE}/tasks`, { headers: { origin: "https://evil.example", "a2a-version": "1.0", "a2a-extensions": REQUIRED_EXTENSION, ...ALICE } }), open as never);
    expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();
  });
});
