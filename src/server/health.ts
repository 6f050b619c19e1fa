/**
 * GET /healthz: is this Worker able to serve? It reaches the Durable Object namespace it depends on
 * (a fixed, storage-free object — no task is created) and reports what is configured. No auth, no rate
 * limit; answers in milliseconds.
 */
import { pushEnabled, type A2AEnv } from "../env";

export const HEALTH_PATH = "/healthz";
const TIMEOUT_MS = 2000;

export async function health(env: A2AEnv): Promise<Response> {
  const started = Date.now();
  let durableObjects: string;
  try {
    const ping = env.TASK_INDEX.getByName("__health__").ping();
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timed out")), TIMEOUT_MS));
    durableObjects = (await Promise.race([ping, timeout])) === "pong" ? "ok" : "unexpected answer";
  } catch (error) {
    durableObjects = `failing: ${error instanceof Error ? error.message : String(error)}`;
  }
  const ok = durableObjects === "ok";
  const body = {
    status: ok ? "ok" : "degraded",
    checks: { durableObjects, push: pushEnabled(env) ? "configured" : "off", rateLimits: rateLimitsConfigured(env) },
    latencyMs: Date.now() - started,
  };
  return new Response(JSON.stringify(body), { status: ok ? 200 : 503, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

function rateLimitsConfigured(env: A2AEnv): string[] {
  return (["RATE_LIMIT_SEND", "RATE_LIMIT_READ", "RATE_LIMIT_STREAM", "RATE_LIMIT_TENANT"] as const).filter((name) => env[name] !== undefined);
}
