/** Ordered fan-out, replay with Last-Event-ID, and order under concurrent sends to one task. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { A2AEnv } from "../../src/env";
import { BINDINGS, ok, openStream, readEvents, shapeOf, uid, userMessage, waitForTask } from "./helpers";

describe.each(BINDINGS)("streams over %s", (binding) => {
  it("resumes with Last-Event-ID right after that event: no gap, no duplicate", async () => {
    const full = await readEvents(await openStream(binding, "SendStreamingMessage", { message: userMessage(uid("test-chunks"), "8") }));
    const taskId = full[0].data.task.id;
    expect(full.map((e) => Number(e.id))).toEqual(full.map((_, i) => i + 1));
    for (const cut of [1, 4, full.length - 1]) {
      const resumed = await readEvents(await openStream(binding, "SubscribeToTask", { id: taskId }, String(cut)));
      expect(resumed.map((e) => e.id)).toEqual(full.slice(cut).map((e) => e.id));
      expect(resumed.map((e) => e.data)).toEqual(full.slice(cut).map((e) => e.data));
    }
  });

  it("a client that drops mid-stream resumes from its last id and sees every event once", async () => {
    const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("test-chunks"), "10"), configuration: { returnImmediately: true } });
    const head = await readEvents(await openStream(binding, "SubscribeToTask", { id: task.id }), 3); // then the client "drops"
    const lastId = head.at(-1)!.id!;
    const rest = await readEvents(await openStream(binding, "SubscribeToTask", { id: task.id }, lastId));
    expect(shapeOf(rest).at(-1)).toBe("status:COMPLETED");
    const ids = [...head.slice(1), ...rest].map((e) => Number(e.id)); // head[0] is the snapshot
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.at(-1)).toBe(ids[0]! + ids.length - 1);
    // The snapshot's chunks plus the live chunks are the whole artifact.
    const snapshotText = (head[0].data.task.artifacts?.[0]?.parts ?? []).map((p: any) => p.text).join("");
    const liveText = [...head.slice(1), ...rest].filter((e) => e.data.artifactUpdate).map((e) => e.data.artifactUpdate.artifact.parts[0].text).join("");
    expect(snapshotText + liveText).toBe(Array.from({ length: 10 }, (_, i) => `c${i};`).join(""));
  });

  it("fans the same events out, in the same order, to many subscribers", async () => {
    const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("test-chunks"), "6"), configuration: { returnImmediately: true } });
    const streams = await Promise.all(Array.from({ length: 20 }, () => openStream(binding, "SubscribeToTask", { id: task.id }, "0")));
    const all = await Promise.all(streams.map((s) => readEvents(s)));
    for (const events of all) expect(events.map((e) => e.data)).toEqual(all[0]!.map((e) => e.data));
    expect(shapeOf(all[0]!)).toEqual(["task:SUBMITTED", "status:WORKING", "artifact", "artifact", "artifact", "artifact", "artifact", "artifact", "status:COMPLETED"]);
  });

  it("replays a finished task's log with Last-Event-ID, where a plain subscribe is refused", async () => {
    const { task } = await ok(binding, "SendMessage", { message: userMessage(uid("tck-stream-003")) });
    const replay = await readEvents(await openStream(binding, "SubscribeToTask", { id: task.id }, "0"));
    expect(shapeOf(replay)).toEqual(["task:SUBMITTED", "status:WORKING", "artifact", "status:COMPLETED"]);
  });

  it("orders concurrent sends to one task: one run at a time, every event once, in seq order", async () => {
    const first = (await ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), "start") })).task;
    const texts = Array.from({ length: 6 }, (_, i) => `m${i}`);
    const results = await Promise.all(texts.map((text) => ok(binding, "SendMessage", { message: userMessage(uid("test-converse"), text, { taskId: first.id }) })));
    // Each send saw its own turn complete: the agent's answer quotes that send's text.
    results.forEach((r, i) => expect(r.task.status.message.parts[0].text).toMatch(new RegExp(`^turn \\d+: m${i}$`)));
    const turns = results.map((r) => Number(/^turn (\d+)/.exec(r.task.status.message.parts[0].text)![1]));
    expect([...turns].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
    // The task waits for input, so its subscription stays open: read the 8 stored events.
    const log = await readEvents(await openStream(binding, "SubscribeToTask", { id: first.id }, "0"), 8);
    expect(log.map((e) => Number(e.id))).toEqual(log.map((_, i) => i + 1));
    expect(shapeOf(log)).toEqual(["task:SUBMITTED", ...Array(7).fill("status:INPUT_REQUIRED")]);
    const task = await ok(binding, "GetTask", { id: first.id });
    const userTexts = task.history.filter((m: any) => m.role === "ROLE_USER").map((m: any) => m.parts[0].text);
    expect(userTexts[0]).toBe("start");
    expect([...userTexts.slice(1)].sort()).toEqual(texts);
  });
});

describe("the event log is stored before it is seen", () => {
  it("every streamed event is in the task's SQLite log with the same seq and bytes", async () => {
    const events = await readEvents(await openStream("rest", "SendStreamingMessage", { message: userMessage(uid("tck-stream-artifact-chunked")) }));
    const taskId = events[0].data.task.id;
    const stub = (env as unknown as A2AEnv).TASKS.getByName(JSON.stringify(["", taskId]));
    const rows = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql.exec<{ seq: number; json: string }>("SELECT seq, json FROM events ORDER BY seq").toArray());
    expect(rows.map((r) => String(r.seq))).toEqual(events.map((e) => e.id));
    expect(rows.map((r) => JSON.parse(r.json))).toEqual(events.map((e) => e.data));
    const task = await waitForTask("rest", taskId, (t) => t.status.state === "TASK_STATE_COMPLETED");
    expect(task.artifacts[0].parts).toEqual([{ text: "chunk-1 " }, { text: "chunk-2" }]);
  });
});
