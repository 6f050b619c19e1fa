/**
 * a2a-edge under `wrangler dev` (S6 only). Push delivery goes through Cloudflare Queues, which raw workerd
 * does not have (reference/workers-platform.md §9); Miniflare, which `wrangler dev` runs, has a local queue
 * broker. The Worker is the same bundle the other scenarios serve on raw workerd (`--no-bundle`, so wrangler
 * neither rebuilds nor reloads when a source file changes during a run), with the queue producer and
 * consumers of the project's wrangler.toml. `wrangler dev` puts a proxy workerd in front of the Worker's
 * and logs each request: it is slower than raw workerd, so S6's numbers for a2a-edge are lower bounds.
 */
import { webcrypto } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { freePort, start, waitForPort, type Proc } from "./procs.ts";
import { ROOT } from "./workerd.ts";

const require = createRequire(import.meta.url);

/** The wrangler config, written next to the scratch copy of the bundle (so wrangler's .wrangler/ goes there too). */
function wranglerToml(bundle: string): string {
  return `# Written by bench/lib/wrangler-dev.ts for S6; the queues are those of the project's wrangler.toml.
name = "a2a-edge-bench-push"
main = ${JSON.stringify(bundle)}
no_bundle = true
compatibility_date = "2026-11-01"
compatibility_flags = ["global_fetch_strictly_public"]

[[durable_objects.bindings]]
name = "TASKS"
class_name = "TaskObject"

[[durable_objects.bindings]]
name = "TASK_INDEX"
class_name = "TaskIndex"

[[migrations]]
tag = "v1"
new_sqlite_classes = ["TaskObject", "TaskIndex"]

[[queues.producers]]
binding = "PUSH_QUEUE"
queue = "a2a-push"

[[queues.consumers]]
queue = "a2a-push"
max_batch_size = 10
max_batch_timeout = 1
max_retries = 10
dead_letter_queue = "a2a-push-dlq"

[[queues.consumers]]
queue = "a2a-push-dlq"
max_batch_size = 10
max_batch_timeout = 5
`;
}

/** A fresh ES256 private JWK (as vitest.config.ts makes its test keys). */
export async function signingJwk(kid = "bench-push-key"): Promise<string> {
  const { privateKey } = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const jwk = await webcrypto.subtle.exportKey("jwk", privateKey);
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid, alg: "ES256" });
}

/**
 * Starts `wrangler dev` on 127.0.0.1:`port` serving `bundle` (its config written to `dir`), Durable Objects
 * and queue state under `persistTo`, signing with a fresh key; ready once its Agent Card names the port and offers push.
 */
export async function startOursDev(dir: string, bundle: string, port: number, persistTo: string): Promise<Proc> {
  mkdirSync(dir, { recursive: true });
  mkdirSync(persistTo, { recursive: true });
  const config = join(dir, "wrangler.toml");
  writeFileSync(config, wranglerToml(bundle));
  const envFile = join(dir, "push.env");
  // Single-quoted dotenv values are taken literally (the JWK's quotes and colons included).
  writeFileSync(envFile, `PUSH_SIGNING_JWK='${await signingJwk()}'\n`, { mode: 0o600 });
  const wrangler = join(dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");
  const args = [
    wrangler, "dev", "--config", config, "--port", String(port), "--ip", "127.0.0.1", "--persist-to", persistTo,
    "--env-file", envFile, "--var", "ALLOW_INSECURE_WEBHOOKS:true", "--log-level", "warn",
    "--inspector-port", String(await freePort()), "--show-interactive-dev-session=false",
  ];
  const proc = start("ours (wrangler dev)", process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" },
  });
  await waitForPort(port, proc, 60_000);
  const deadline = Date.now() + 60_000;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited early:\n${proc.log()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`, { headers: { "a2a-version": "1.0" }, signal: AbortSignal.timeout(2000) });
      const text = await res.text();
      if (res.ok && text.includes(`:${port}`) && /"pushNotifications":\s*true/.test(text)) return proc;
      last = `HTTP ${res.status}: ${text.slice(0, 200)}`;
    } catch (error) {
      last = String((error as Error).cause ?? error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${proc.name} not ready within 60 s (last: ${last}):\n${proc.log()}`);
}
