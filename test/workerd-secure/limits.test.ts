/** Limits, each with its own clear refusal (the secure agent sets small ones). */
import { describe, expect, it } from "vitest";
import { message, rest } from "./helpers";

const error = async (response: Response) => ((await response.json()) as any).error;

describe("limits", () => {
  it("refuses too many parts, too long a text and too much metadata, naming the field", async () => {
    const KEY = { "x-api-key": "key-alice" };
    const parts = await rest("POST", "/message:send", KEY, { message: { ...message(), parts: [{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }] } });
    expect(parts.status).toBe(400);
    expect((await error(parts)).message).toMatch(/message\.parts has more than 3 parts/);
    const text = await rest("POST", "/message:send", KEY, { message: message("x".repeat(201)) });
    expect((await error(text)).message).toMatch(/message\.parts\.0\.text is longer than 200 characters/);
    const metadata = await rest("POST", "/message:send", KEY, { message: message(), metadata: { blob: "y".repeat(400) } });
    expect((await error(metadata)).message).toMatch(/metadata is larger than 300 bytes/);
  });

  it("caps the tasks one caller has in progress, and frees room when one ends", async () => {
    const BUSY = { "x-api-key": "key-busy" };
    const open: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sent = (await (await rest("POST", "/message:send", BUSY, { message: message("wait", { messageId: `tck-input-required-${crypto.randomUUID()}` }) })).json()) as any;
      open.push(sent.task.id);
    }
    const refused = await rest("POST", "/message:send", BUSY, { message: message() });
    expect(refused.status).toBe(429);
    expect((await error(refused)).details[0].reason).toBe("LIMIT_EXCEEDED");
    // Continuing an existing task is not a new task.
    expect((await rest("POST", "/message:send", BUSY, { message: message("answer", { taskId: open[0] }) })).status).toBe(200);
    await rest("POST", `/tasks/${open[1]}:cancel`, BUSY, {});
    expect((await rest("POST", "/message:send", BUSY, { message: message() })).status).toBe(200);
  });

  it("caps a task's history: past it, new messages to the task are refused", async () => {
    const KEY = { "x-api-key": "key-bob" };
    const first = (await (await rest("POST", "/message:send", KEY, { message: message("1", { messageId: `tck-input-required-${crypto.randomUUID()}` }) })).json()) as any;
    const id = first.task.id;
    const statuses: number[] = [];
    for (let i = 2; i <= 4; i++) {
      statuses.push((await rest("POST", "/message:send", KEY, { message: message(String(i), { messageId: `tck-input-required-${crypto.randomUUID()}`, taskId: id }) })).status);
    }
    expect(statuses).toEqual([200, 200, 429]); // user + agent messages: 2, then 4 in history — the limit
    const refused = await rest("POST", "/message:send", KEY, { message: message("5", { taskId: id }) });
    expect((await error(refused)).message).toMatch(/history holds 4 messages/);
  });

  it("fails a task whose agent emits more artifact bytes than a task may hold", async () => {
    const sent = (await (await rest("POST", "/message:send", { "x-api-key": "key-bob" }, { message: message("go", { messageId: `big-artifact-${crypto.randomUUID()}` }) })).json()) as any;
    expect(sent.task.status.state).toBe("TASK_STATE_FAILED");
    expect(sent.task.status.message.parts[0].text).toBe("The agent's artifacts grew past 60 bytes, the most one task may hold.");
    expect(sent.task.artifacts[0].parts).toEqual([{ text: "x".repeat(30) }]);
  });

  it("caps open streams per task", async () => {
    const KEY = { "x-api-key": "key-watcher" };
    const sent = (await (await rest("POST", "/message:send", KEY, { message: message("wait", { messageId: `tck-input-required-${crypto.randomUUID()}` }) })).json()) as any;
    const streams = [await rest("POST", `/tasks/${sent.task.id}:subscribe`, KEY, {}), await rest("POST", `/tasks/${sent.task.id}:subscribe`, KEY, {})];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const third = await rest("POST", `/tasks/${sent.task.id}:subscribe`, KEY, {});
    expect(third.status).toBe(429);
    expect((await error(third)).message).toMatch(/already has 2 open streams/);
    for (const s of streams) await s.body!.cancel();
  });
});
