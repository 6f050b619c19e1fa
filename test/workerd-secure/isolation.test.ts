/** Per-caller isolation: another caller's task is indistinguishable from a missing one, and nothing changes. */
import { describe, expect, it } from "vitest";
import { fetchSecure, message, rest, rpc, V1 } from "./helpers";

const ALICE = { "x-api-key": "key-alice" };
const BOB = { "x-api-key": "key-bob" };

describe("isolation between callers", () => {
  it("every operation on another caller's task is TaskNotFound, and the task is unchanged", async () => {
    const created = (await (await rest("POST", "/message:send", ALICE, { message: message("hello", { messageId: `tck-input-required-${crypto.randomUUID()}` }) })).json()) as any;
    const id = created.task.id;
    await rest("POST", `/tasks/${id}/pushNotificationConfigs`, ALICE, { id: "alice-hook", url: "https://hooks.example.com/alice" });
    const before = await (await rest("GET", `/tasks/${id}`, ALICE)).text();

    const attempts: [string, Promise<Response>][] = [
      ["GetTask", rest("GET", `/tasks/${id}`, BOB)],
      ["CancelTask", rest("POST", `/tasks/${id}:cancel`, BOB, {})],
      ["SubscribeToTask", rest("POST", `/tasks/${id}:subscribe`, BOB, {})],
      ["SendMessage (continue)", rest("POST", "/message:send", BOB, { message: message("hijack", { taskId: id }) })],
      ["SendStreamingMessage (continue)", rest("POST", "/message:stream", BOB, { message: message("hijack", { taskId: id }) })],
      ["CreateTaskPushNotificationConfig", rest("POST", `/tasks/${id}/pushNotificationConfigs`, BOB, { url: "https://hooks.example.com/bob" })],
      ["GetTaskPushNotificationConfig", rest("GET", `/tasks/${id}/pushNotificationConfigs/alice-hook`, BOB)],
      ["ListTaskPushNotificationConfigs", rest("GET", `/tasks/${id}/pushNotificationConfigs`, BOB)],
      ["DeleteTaskPushNotificationConfig", rest("DELETE", `/tasks/${id}/pushNotificationConfigs/alice-hook`, BOB)],
    ];
    for (const [name, attempt] of attempts) {
      const response = await attempt;
      expect(response.status, name).toBe(404);
      expect(((await response.json()) as any).error.details[0].reason, name).toBe("TASK_NOT_FOUND");
    }
    for (const method of ["GetTask", "CancelTask", "SubscribeToTask"]) {
      const body = (await (await rpc(method, { id }, BOB)).json()) as any;
      expect(body.error.code, method).toBe(-32001);
    }
    const listed = (await (await rest("GET", "/tasks", BOB)).json()) as any;
    expect(listed.tasks.map((t: any) => t.id)).not.toContain(id);

    expect(await (await rest("GET", `/tasks/${id}`, ALICE)).text()).toBe(before);
    expect(((await (await rest("GET", `/tasks/${id}/pushNotificationConfigs/alice-hook`, ALICE)).json()) as any).id).toBe("alice-hook");
    expect(((await (await rest("GET", "/tasks", ALICE)).json()) as any).tasks.map((t: any) => t.id)).toContain(id);
  });

  it("refuses tenant names that collide with routes", async () => {
    for (const tenant of ["tasks", "message", "extendedAgentCard", "v1"]) {
      const body = (await (await rpc("ListTasks", { tenant }, ALICE)).json()) as any;
      expect(body.error.code, tenant).toBe(-32602);
    }
    // REST: /v1/tasks is a 0.3 route, /message/tasks and /extendedAgentCard/tasks are tenant-prefixed lists.
    for (const tenant of ["message", "extendedAgentCard"]) {
      const response = await fetchSecure(`/${tenant}/tasks`, { headers: { ...V1, ...ALICE } });
      expect(response.status, tenant).toBe(400);
    }
  });
});
