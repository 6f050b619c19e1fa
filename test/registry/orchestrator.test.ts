/**
 * The orchestrator example finding its delegate through the registry (REGISTRY_URL + DELEGATE_SKILL)
 * instead of a fixed URL: no healthy agent with the skill, no delegate; once one is registered, the
 * orchestrator relays to it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AClient, registerAgent, userMessage } from "../../src/client/index";
import { startServer, type RunningServer } from "../e2e/server";
import { ADMIN_TOKEN } from "./helpers";

let registry: RunningServer;
let demo: RunningServer;
let orchestrator: RunningServer;

beforeAll(async () => {
  [registry, demo] = await Promise.all([
    startServer({ config: "examples/registry/wrangler.toml", vars: { REGISTRY_ADMIN_TOKEN: ADMIN_TOKEN, REGISTRY_ALLOW_INSECURE_URLS: "true", REGISTRY_DNS_CHECK: "off" }, readyTimeoutMs: 120_000 }),
    startServer({ config: "wrangler.toml", readyTimeoutMs: 120_000 }),
  ]);
  orchestrator = await startServer({ config: "examples/orchestrator/wrangler.toml", vars: { REGISTRY_URL: registry.url, DELEGATE_SKILL: "echo" }, readyTimeoutMs: 120_000 });
}, 240_000);

afterAll(async () => {
  await Promise.all([orchestrator?.stop(), registry?.stop(), demo?.stop()]);
}, 60_000);

const textOf = (parts: { text?: string }[] | undefined) => (parts ?? []).map((p) => p.text ?? "").join("");

describe("the orchestrator with a registry", () => {
  it("finds its delegate by skill in the registry", async () => {
    const client = await A2AClient.connect(orchestrator.url);
    const before = await client.sendMessage({ message: userMessage("anyone there?") });
    expect("task" in before && before.task.status.state).toBe("TASK_STATE_FAILED"); // nobody offers "echo" yet

    await registerAgent(registry.url, demo.url, { token: ADMIN_TOKEN });
    const after = await client.sendMessage({ message: userMessage("found through the registry") });
    if (!("task" in after)) throw new Error("expected a task");
    expect(after.task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(textOf(after.task.artifacts?.[0]?.parts)).toBe("found through the registry");
    expect(textOf(after.task.status.message?.parts)).toBe("Done echoing.");
  });
});
