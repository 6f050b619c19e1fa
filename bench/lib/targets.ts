/** The three servers under test, and plain JSON-RPC calls to them (setup steps, not measured). */
import type { Proc } from "./procs.ts";

/** `oursDisk`: a2a-edge again, its Durable Objects on disk instead of tmpfs (S1 only). */
export type TargetName = "ours" | "oursDisk" | "peer" | "ceiling";

export interface Target {
  name: TargetName;
  base: string;
  proc: Proc;
}

export async function rpc<T = Record<string, unknown>>(base: string, method: string, params: Record<string, unknown>): Promise<T> {
  const res = await fetch(base + "/", {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: unknown };
  if (body.error !== undefined || body.result === undefined) throw new Error(`${method} on ${base}: ${JSON.stringify(body).slice(0, 400)}`);
  return body.result;
}

export const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: crypto.randomUUID(),
  role: "ROLE_USER",
  parts: [{ text }],
  ...extra,
});

/** A new task that completed with `text` echoed; returns its id. */
export async function sendEcho(base: string, text = "hello", params: Record<string, unknown> = {}): Promise<string> {
  const result = await rpc<{ task: { id: string; status: { state: string } } }>(base, "SendMessage", { message: userMessage(text), ...params });
  if (result.task?.status?.state !== "TASK_STATE_COMPLETED") throw new Error(`echo did not complete on ${base}: ${JSON.stringify(result).slice(0, 300)}`);
  return result.task.id;
}
