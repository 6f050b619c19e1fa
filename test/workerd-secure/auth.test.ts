/** Card-driven authentication: the bad-credentials table per scheme, 401/403 before dispatch, the caller's identity. */
import { exportJWK, generateKeyPair, SignJWT, base64url } from "jose";
import { describe, expect, it } from "vitest";
import { fetchSecure, message, rest, rpc, token } from "./helpers";

const unsecured = (claims: Record<string, unknown>) =>
  `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${base64url.encode(JSON.stringify(claims))}.`;

/** [case, headers, status, reason]. */
async function badCredentials(): Promise<[string, Record<string, string>, number, string][]> {
  const now = Math.floor(Date.now() / 1000);
  const stranger = await generateKeyPair("ES256");
  const strangerToken = await new SignJWT({ scope: "a2a:use" }).setProtectedHeader({ alg: "ES256", kid: "idp-key-1" })
    .setIssuer("https://idp.test").setAudience("a2a-edge-secure").setSubject("mallory").setExpirationTime("5m").sign(stranger.privateKey);
  // HS/RS confusion: an HMAC token keyed with the public key's bytes.
  const publicJwk = JSON.stringify(await exportJWK(stranger.publicKey));
  const hmac = await new SignJWT({ scope: "a2a:use" }).setProtectedHeader({ alg: "HS256", kid: "idp-key-1" })
    .setIssuer("https://idp.test").setAudience("a2a-edge-secure").setSubject("mallory").setExpirationTime("5m").sign(new TextEncoder().encode(publicJwk));
  return [
    ["no credentials", {}, 401, "UNAUTHENTICATED"],
    ["a malformed bearer token", { authorization: "Bearer not.a.jwt" }, 401, "UNAUTHENTICATED"],
    ["a bearer header without a token", { authorization: "Bearer" }, 401, "UNAUTHENTICATED"],
    ["a token signed by another key", { authorization: `Bearer ${strangerToken}` }, 401, "UNAUTHENTICATED"],
    ["an expired token", { authorization: `Bearer ${await token({}, { issuedAt: now - 3600, expiresIn: now - 600 })}` }, 401, "UNAUTHENTICATED"],
    ["a token from another issuer", { authorization: `Bearer ${await token({}, { issuer: "https://evil.test" })}` }, 401, "UNAUTHENTICATED"],
    ["a token for another audience", { authorization: `Bearer ${await token({}, { audience: "someone-else" })}` }, 401, "UNAUTHENTICATED"],
    ["alg: none", { authorization: `Bearer ${unsecured({ iss: "https://idp.test", aud: "a2a-edge-secure", sub: "mallory", scope: "a2a:use", exp: now + 300 })}` }, 401, "UNAUTHENTICATED"],
    ["HS/RS confusion", { authorization: `Bearer ${hmac}` }, 401, "UNAUTHENTICATED"],
    ["a token without the required scope", { authorization: `Bearer ${await token({ scope: "profile" })}` }, 403, "PERMISSION_DENIED"],
    ["an unknown API key", { "x-api-key": "key-mallory" }, 401, "UNAUTHENTICATED"],
  ];
}

describe("authentication", () => {
  it("refuses every bad credential with 401 (or 403 for a missing scope) before dispatch, on both bindings", async () => {
    for (const [name, headers, status, reason] of await badCredentials()) {
      const viaRest = await rest("POST", "/message:send", headers, { message: message() });
      expect(viaRest.status, `REST: ${name}`).toBe(status);
      const restBody = (await viaRest.json()) as any;
      expect(restBody.error.details[0].reason, `REST: ${name}`).toBe(reason);
      const challenge = viaRest.headers.get("www-authenticate") ?? "";
      expect(challenge, `REST: ${name}`).toMatch(status === 403 ? /insufficient_scope/ : /Bearer realm="a2a".*ApiKey/);

      const viaRpc = await rpc("SendMessage", { message: message() }, headers);
      expect(viaRpc.status, `JSON-RPC: ${name}`).toBe(status);
      const rpcBody = (await viaRpc.json()) as any;
      expect(rpcBody.error.data[0].reason, `JSON-RPC: ${name}`).toBe(reason);
      expect(viaRpc.headers.get("www-authenticate"), `JSON-RPC: ${name}`).toBeTruthy();
    }
  });

  it("lets a valid token or API key through, and the executor sees who called", async () => {
    const viaToken = (await (await rest("POST", "/message:send", { authorization: `Bearer ${await token({ sub: "carol" })}` }, { message: message() })).json()) as any;
    expect(viaToken.task.status.message.parts[0].text).toBe(`caller=carol scheme=oauth extensions=urn:a2a-edge:test:required`);
    const viaKey = (await (await rpc("SendMessage", { message: message() }, { "x-api-key": "key-alice" })).json()) as any;
    expect(viaKey.result.task.status.message.parts[0].text).toBe(`caller=alice scheme=apiKey extensions=urn:a2a-edge:test:required`);
  });

  it("enforces a skill's own requirements when the message names the skill", async () => {
    const forSkill = (skillId: string) => ({ message: { ...message(), metadata: { skillId } } });
    const plain = await rest("POST", "/message:send", { authorization: `Bearer ${await token()}` }, forSkill("admin"));
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as any).error.details[0]).toMatchObject({ reason: "PERMISSION_DENIED", metadata: { skillId: "admin" } });
    const viaKey = await rest("POST", "/message:send", { "x-api-key": "key-alice" }, forSkill("admin"));
    expect(viaKey.status).toBe(403);
    const admin = await rest("POST", "/message:send", { authorization: `Bearer ${await token({ scope: "a2a:use a2a:admin" })}` }, forSkill("admin"));
    expect(admin.status).toBe(200);
    expect((await rest("POST", "/message:send", { "x-api-key": "key-alice" }, forSkill("whoami"))).status).toBe(200);
    const unknown = await rest("POST", "/message:send", { "x-api-key": "key-alice" }, forSkill("nope"));
    expect(((await unknown.json()) as any).error.details[0].reason).toBe("INVALID_PARAMS");
  });

  it("keeps the card and the push keys public", async () => {
    expect((await fetchSecure("/.well-known/agent-card.json")).status).toBe(200);
    expect((await fetchSecure("/.well-known/a2a-push-jwks.json")).status).toBe(200);
  });

  it("declares what it enforces in the card", async () => {
    const card = (await (await fetchSecure("/.well-known/agent-card.json")).json()) as any;
    expect(Object.keys(card.securitySchemes)).toEqual(["oauth", "apiKey"]);
    expect(card.securityRequirements).toEqual([{ schemes: { oauth: { list: ["a2a:use"] } } }, { schemes: { apiKey: { list: [] } } }]);
  });
});
