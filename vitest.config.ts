import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { webcrypto } from "node:crypto";
import { defineConfig } from "vitest/config";
import { buildConsole } from "./scripts/build-console.mjs";

// The Worker imports the web console's generated module: make sure it exists and is current, whichever
// way vitest was started (npm test builds it too; this covers `npx vitest run --project …`).
await buildConsole();

/** A fresh ES256 key pair per run, as `npm run keys` makes them: the private JWK, and the public one in a JWKS. */
async function testKey(kid: string): Promise<{ privateJwk: string; jwks: string }> {
  const { privateKey } = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = await webcrypto.subtle.exportKey("jwk", privateKey);
  const pub = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid, alg: "ES256" };
  return { privateJwk: JSON.stringify({ ...pub, d: jwk.d }), jwks: JSON.stringify({ keys: [pub] }) };
}

const pushKey = await testKey("test-key-1");
const idpKey = await testKey("idp-key-1");
const cardKey = await testKey("card-key-1");

export default defineConfig({
  test: {
    projects: [
      {
        // In-runtime tests: the test agent runs inside workerd with real Durable Objects.
        plugins: [cloudflareTest({
          wrangler: { configPath: "./test/wrangler.test.toml" },
          miniflare: { bindings: { PUSH_SIGNING_JWK: pushKey.privateJwk } },
        })],
        test: { name: "workerd", include: ["test/workerd/**/*.test.ts"], testTimeout: 20_000, silent: "passed-only" },
      },
      {
        // Security tests: an agent whose card demands credentials, with its own identity provider keys.
        plugins: [cloudflareTest({
          wrangler: { configPath: "./test/wrangler.secure.toml" },
          miniflare: {
            bindings: {
              PUSH_SIGNING_JWK: pushKey.privateJwk,
              TEST_JWKS: idpKey.jwks,
              TEST_IDP_PRIVATE_JWK: idpKey.privateJwk,
              API_KEYS: JSON.stringify({ "key-alice": "alice", "key-bob": "bob", "key-busy": "busy", "key-watcher": "watcher" }),
              CARD_SIGNING_JWK: cardKey.privateJwk,
              TEST_CARD_JWKS: cardKey.jwks,
            },
          },
        })],
        test: { name: "workerd-secure", include: ["test/workerd-secure/**/*.test.ts"], testTimeout: 20_000, silent: "passed-only" },
      },
      {
        // End-to-end tests: Node starts the real local server (wrangler dev) and talks HTTP to it.
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "test/client/**/*.test.ts", "test/registry/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
      {
        // Browser tests: headless Chromium (Debian's `chromium`) driven by playwright-core loads the web
        // console from the real local server (wrangler dev) and uses it like a person.
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
