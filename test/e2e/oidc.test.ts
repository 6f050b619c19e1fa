/**
 * OpenID Connect end to end: a provider on loopback serves its discovery document and keys; the agent
 * finds the JWKS and issuer through the card's openIdConnectUrl, caches them, and checks tokens.
 */
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OIDC_PORT } from "../fixtures/oidc-port";
import { startServer, type RunningServer } from "./server";

const ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
let provider: Server;
let server: RunningServer;
let privateKey: CryptoKey;
const hits: string[] = [];

beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  privateKey = pair.privateKey as CryptoKey;
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "oidc-1", alg: "ES256", use: "sig" }] };
  provider = createServer((request, response) => {
    hits.push(request.url ?? "");
    if (request.url === "/.well-known/openid-configuration") {
      return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` }));
    }
    if (request.url === "/jwks") return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(jwks));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => provider.listen(OIDC_PORT, "127.0.0.1", resolve));
  server = await startServer({ config: "test/wrangler.oidc.toml" });
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => provider?.close(resolve));
});

const token = (claims: { iss?: string; aud?: string; sub?: string } = {}) =>
  new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: "oidc-1" }).setIssuer(claims.iss ?? ISSUER).setAudience(claims.aud ?? "a2a-edge-oidc")
    .setSubject(claims.sub ?? "oidc-user").setIssuedAt().setExpirationTime("5m").sign(privateKey);

async function send(authorization?: string): Promise<Response> {
  return fetch(`${server.url}/message:send`, {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0", ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "hi" }] } }),
  });
}

describe("OpenID Connect", () => {
  it("accepts a token from the discovered issuer and keys, caching the discovery", async () => {
    for (const sub of ["ada", "grace"]) {
      const response = await send(`Bearer ${await token({ sub })}`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as any).task.status.message.parts[0].text).toBe(`caller=${sub} scheme=oidc`);
    }
    expect(hits.filter((h) => h === "/.well-known/openid-configuration")).toHaveLength(1);
    expect(hits.filter((h) => h === "/jwks").length).toBeGreaterThanOrEqual(1);
  });

  it("refuses a token from another issuer, for another audience, or none", async () => {
    const wrongIssuer = await send(`Bearer ${await token({ iss: "http://evil.test" })}`);
    expect(wrongIssuer.status).toBe(401);
    expect(wrongIssuer.headers.get("www-authenticate")).toMatch(/invalid_token/);
    expect((await send(`Bearer ${await token({ aud: "someone-else" })}`)).status).toBe(401);
    const none = await send();
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error.details[0].reason).toBe("UNAUTHENTICATED");
  });
});
