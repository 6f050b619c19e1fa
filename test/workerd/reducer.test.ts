/** How events build a task (the reducer shared by the task object and clients). */
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/protocol/index";
import { applyEvent, withHistoryLength } from "../../src/task/reducer";

const base = (): Task => ({ id: "t", contextId: "c", status: { state: "TASK_STATE_SUBMITTED" }, history: [{ messageId: "u1", role: "ROLE_USER", parts: [{ text: "hi" }] }] });
const agentMsg = (id: string) => ({ messageId: id, role: "ROLE_AGENT" as const, parts: [{ text: id }] });

describe("applyEvent", () => {
  it("replaces the status and moves the previous status message into history", () => {
    const task = base();
    expect(applyEvent(task, { statusUpdate: { taskId: "t", contextId: "c", status: { state: "TASK_STATE_WORKING", message: agentMsg("a1") } } })).toEqual({ kind: "status" });
    const change = applyEvent(task, { statusUpdate: { taskId: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED", message: agentMsg("a2") } } });
    expect(change).toEqual({ kind: "status", movedToHistory: agentMsg("a1") });
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(task.history!.map((m) => m.messageId)).toEqual(["u1", "a1"]);
  });

  it("adds, appends to and replaces artifacts by artifactId", () => {
    const task = base();
    const update = (artifactId: string, text: string, append?: boolean) => ({ artifactUpdate: { taskId: "t", contextId: "c", artifact: { artifactId, parts: [{ text }] }, ...(append ? { append } : {}) } });
    applyEvent(task, update("a", "1"));
    const appended = applyEvent(task, update("a", "2", true));
    expect(appended).toMatchObject({ kind: "artifact", appendedParts: [{ text: "2" }] });
    applyEvent(task, update("b", "x"));
    expect(task.artifacts!.map((a) => a.parts.map((p) => p.text).join(""))).toEqual(["12", "x"]);
    applyEvent(task, update("a", "new"));
    expect(task.artifacts!.map((a) => a.parts.map((p) => p.text).join(""))).toEqual(["new", "x"]);
    applyEvent(task, update("c", "first", true)); // append to a missing artifact creates it
    expect(task.artifacts![2]!.parts).toEqual([{ text: "first" }]);
  });

  it("adds messages to history", () => {
    const task = base();
    applyEvent(task, { message: agentMsg("m") });
    expect(task.history!.at(-1)!.messageId).toBe("m");
  });
});

describe("withHistoryLength", () => {
  it("unset = all, 0 = none, N = the last N, and the copy does not follow later changes", () => {
    const task = base();
    task.history!.push(agentMsg("a"), agentMsg("b"));
    const all = withHistoryLength(task, undefined);
    expect(all.history!.length).toBe(3);
    expect(withHistoryLength(task, 0).history).toBeUndefined();
    expect(withHistoryLength(task, 2).history!.map((m) => m.messageId)).toEqual(["a", "b"]);
    task.history!.push(agentMsg("c"));
    expect(all.history!.length).toBe(3);
    expect(withHistoryLength(task, undefined, false).artifacts).toBeUndefined();
  });
});
