/** Push notification configs over both bindings: CRUD, inline configs, caps, scoping and the SSRF guard. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { A2AEnv } from "../../src/env";
import { BINDINGS, call, fetchWorker, ok, uid, userMessage, waitForTask } from "./helpers";

const HOOK = "https://hooks.example.com/a2a";

describe.each(BINDINGS)("push configs over %s", (binding) => {
  const newTask = async (prefix = "tck-complete-task") => (await ok(binding, "SendMessage", { message: userMessage(uid(prefix)) })).task;

  it("creates with a server-assigned id, gets, lists and deletes idempotently", async () => {
    const task = await newTask();
    const created = await ok(binding, "CreateTaskPushNotificationConfig", { taskId: task.id, url: HOOK, token: "tok", authentication: { scheme: "Bearer", credentials: "secret" } });
    expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), taskId: task.id, url: HOOK, token: "tok", authentication: { scheme: "Bearer", credentials: "secret" } });
    expect(await ok(binding, "GetTaskPushNotificationConfig", { taskId: task.id, id: created.id })).toEqual(created);
    const mine = await ok(binding, "CreateTaskPushNotificationConfig", { taskId: task.id, id: "my-id", url: `${HOOK}/2` });
    expect(mine.id).toBe("my-id");
    const listed = await ok(binding, "ListTaskPushNotificationConfigs", { taskId: task.id });
    expect(listed).toEqual({ configs: [created, mine], nextPageToken: "" });

    expect(await ok(binding, "DeleteTaskPushNotificationConfig", { taskId: task.id, id: "my-id" })).toEqual({});
    expect(await ok(binding, "DeleteTaskPushNotificationConfig", { taskId: task.id, id: "my-id" })).toEqual({});
    expect((await call(binding, "GetTaskPushNotificationConfig", { taskId: task.id, id: "my-id" })).error).toMatchObject({ reason: "TASK_NOT_FOUND" });
  });

  it("paginates the list", async () => {
    const task = await newTask();
    for (let i = 0; i < 5; i++) await ok(binding, "CreateTaskPushNotificationConfig", { taskId: task.id, id: `c${i}`, url: HOOK });
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await ok(binding, "ListTaskPushNotificationConfigs", { taskId: task.id, pageSize: 2, ...(pageToken ? { pageToken } : {}) });
      expect(page.configs.length).toBeLessThanOrEqual(2);
      seen.push(...page.configs.map((c: any) => c.id));
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen).toEqual(["c0", "c1", "c2", "c3", "c4"]);
  });

  it("caps configs per task with a clear error", async () => {
    const task = await newTask();
    for (let i = 0; i < 10; i++) await ok(binding, "CreateTaskPushNotificationConfig", { taskId: task.id, id: `c${i}`, url: HOOK });
    const over = await call(binding, "CreateTaskPushNotificationConfig", { taskId: task.id, id: "c10", url: HOOK });
    expect(over.error).toMatchObject({ reason: "INVALID_PARAMS" });
    expect(over.error!.message).toMatch(/at most 10/);
    // Replacing an existing id is not a new config.
    await ok(binding, "CreateTaskPushNotificationConfig", { taskId: task.id, id: "c3", url: `${HOOK}/new` });
  });

  it("is scoped to the task's tenant: another tenant gets TaskNotFound", async () => {
    const tenant = uid("push-tenant");
    const { task } = await ok(binding, "SendMessage", { tenant, message: userMessage(uid("tck-complete-task")) });
    await ok(binding, "CreateTaskPushNotificationConfig", { tenant, taskId: task.id, id: "c", url: HOOK });
    expect((await call(binding, "GetTaskPushNotificationConfig", { taskId: task.id, id: "c" })).error).toMatchObject({ reason: "TASK_NOT_FOUND" });
    expect((await call(binding, "CreateTaskPushNotificationConfig", { taskId: task.id, url: HOOK })).error).toMatchObject({ reason: "TASK_NOT_FOUND" });
    expect((await call(binding, "ListTaskPushNotificationConfigs", { taskId: crypto.randomUUID() })).error).toMatchObject({ reason: "TASK_NOT_FOUND" });
  });

  it("stores an inline config from SendMessage (and the older pushNotificationConfig key)", async () => {
    for (const key of ["taskPushNotificationConfig", "pushNotificationConfig"]) {
      const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-input-required")), configuration: { [key]: { id: "inline", url: HOOK, authentication: { scheme: "Bearer", credentials: "x" } } } });
      expect(await ok(binding, "GetTaskPushNotificationConfig", { taskId: task.id, id: "inline" })).toMatchObject({ id: "inline", taskId: task.id, url: HOOK });
    }
  });

  it("writes one outbox row per config for each pushed event, in the event's own block", async () => {
    const first = (await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "one"), configuration: { taskPushNotificationConfig: { id: "a", url: HOOK } } })).task;
    await ok(binding, "CreateTaskPushNotificationConfig", { taskId: first.id, id: "b", url: `${HOOK}/b` });
    await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "done", { taskId: first.id }) });
    const stub = (env as unknown as A2AEnv).TASKS.getByName(JSON.stringify(["", first.id]));
    const rows = await runInDurableObject(stub, (_i, state) => state.storage.sql.exec<{ config_id: string; seq: number }>("SELECT config_id, seq FROM outbox ORDER BY seq, config_id").toArray());
    // seq 1 is the Task snapshot (not pushed); seq 2 INPUT_REQUIRED went to "a" only; seq 3 COMPLETED to both.
    expect(rows.map((r) => `${r.seq}:${r.config_id}`)).toEqual(["2:a", "3:a", "3:b"]);
  });

  it.each([
    ["http (not https)", "http://hooks.example.com/x"],
    ["localhost", "https://localhost/x"],
    ["loopback IPv4", "https://127.0.0.1/x"],
    ["loopback in decimal", "https://2130706433/x"],
    ["private 10/8", "https://10.1.2.3/x"],
    ["private 192.168/16", "https://192.168.1.1/x"],
    ["link-local / metadata", "https://169.254.169.254/latest/meta-data"],
    ["IPv6 loopback", "https://[::1]/x"],
    ["IPv6 unique-local", "https://[fd00::1]/x"],
    ["IPv4-mapped IPv6", "https://[::ffff:10.0.0.1]/x"],
    ["metadata name", "https://metadata.google.internal/x"],
    ["single-label host", "https://intranet/x"],
    [".internal name", "https://db.internal/x"],
    ["credentials in the URL", "https://user:pass@hooks.example.com/x"],
    ["not a URL", "hooks"],
  ])("refuses a webhook at %s", async (_name, url) => {
    const task = await newTask();
    const refused = await call(binding, "CreateTaskPushNotificationConfig", { taskId: task.id, url });
    expect(refused.error).toMatchObject({ reason: "INVALID_PARAMS" });
    expect(refused.error!.message).toMatch(/url/);
    const inline = await call(binding, "SendMessage", { message: userMessage(uid("tck-complete-task")), configuration: { taskPushNotificationConfig: { url } } });
    expect(inline.error).toMatchObject({ reason: "INVALID_PARAMS" });
  });
});

describe("push capability and keys", () => {
  it("the card declares push when the queue and a signing key are configured", async () => {
    const card = (await (await fetchWorker("/.well-known/agent-card.json")).json()) as any;
    expect(card.capabilities.pushNotifications).toBe(true);
  });

  it("publishes the public signing key, never the private part", async () => {
    const response = await fetchWorker("/.well-known/a2a-push-jwks.json");
    const jwks = (await response.json()) as any;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", kid: "test-key-1", alg: "ES256", use: "sig" });
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it("accepts the nested RC / 0.3 create shape", async () => {
    const { task } = await ok("jsonrpc", "SendMessage", { message: userMessage(uid("tck-complete-task")) });
    const created = await ok("jsonrpc", "CreateTaskPushNotificationConfig", { taskId: task.id, pushNotificationConfig: { id: "old", url: HOOK, authentication: { schemes: ["Bearer"], credentials: "c" } } });
    expect(created).toEqual({ id: "old", taskId: task.id, url: HOOK, authentication: { scheme: "Bearer", credentials: "c" } });
    await waitForTask("jsonrpc", task.id, () => true);
  });
});
