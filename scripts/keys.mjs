#!/usr/bin/env node
// Makes an ES256 key pair for signing push notifications.
//   npm run keys                      prints the private JWK (give it to `wrangler secret put PUSH_SIGNING_JWK`)
//   npm run keys -- --dev-env FILE    makes FILE with a development key unless it already has one (npm run dev does this)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { webcrypto as crypto } from "node:crypto";

async function makeKey() {
  const { privateKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const jwk = await crypto.subtle.exportKey("jwk", privateKey);
  // kid = RFC 7638 thumbprint of the public key.
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical)));
  const kid = Buffer.from(digest).toString("base64url");
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid, alg: "ES256" };
}

const devEnv = process.argv.indexOf("--dev-env");
if (devEnv >= 0) {
  const file = process.argv[devEnv + 1];
  if (!file) throw new Error("--dev-env needs a file");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (!/^PUSH_SIGNING_JWK=/m.test(current)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${current}${current && !current.endsWith("\n") ? "\n" : ""}PUSH_SIGNING_JWK='${JSON.stringify(await makeKey())}'\n`);
    console.log(`a2a-edge: generated a development push-signing key in ${file} (for local use only; production uses \`wrangler secret put PUSH_SIGNING_JWK\`)`);
  } else {
    console.log(`a2a-edge: using the development push-signing key in ${file}`);
  }
} else {
  console.log(JSON.stringify(await makeKey()));
}
