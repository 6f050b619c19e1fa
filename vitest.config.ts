import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { webcrypto } from "node:crypto";
import { defineConfig } from "vitest/config";

/** A fresh ES256 signing key per run, as `npm run keys` makes them. */
async function testSigningKey(): Promise<string> {
  const { privateKey } = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = await webcrypto.subtle.exportKey("jwk", privateKey);
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid: "test-key-1", alg: "ES256" });
}

export default defineConfig({
  test: {
    projects: [
      {
        // In-runtime tests: the test agent runs inside workerd with real Durable Objects.
        plugins: [cloudflareTest({
          wrangler: { configPath: "./test/wrangler.test.toml" },
          miniflare: { bindings: { PUSH_SIGNING_JWK: await testSigningKey() } },
        })],
        test: { name: "workerd", include: ["test/workerd/**/*.test.ts"], testTimeout: 20_000 },
      },
      {
        // End-to-end tests: Node starts the real local server (wrangler dev) and talks HTTP to it.
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
