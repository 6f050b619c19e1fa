/**
 * The `a2a` command, built as `npm run build` builds it and spawned with Node against the real local
 * server running the demo agent: each command's output, `--json` lines, the INPUT_REQUIRED prompt
 * answered through stdin, and the exit codes.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AClient, userMessage, type StreamResponse, type Task } from "../../src/client/index";
import { makeTempDir, removeDir, startServer, type RunningServer } from "../e2e/server";
import { buildCli, runCli } from "./helpers";

let server: RunningServer;
let client: A2AClient;
let scratch: string;

beforeAll(async () => {
  buildCli();
  scratch = makeTempDir("a2a-cli-test-");
  server = await startServer({ config: "wrangler.toml" });
  client = await A2AClient.connect(server.url);
});

afterAll(async () => {
  await server?.stop();
  if (scratch) removeDir(scratch);
});

const lines = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line) as StreamResponse);
const textOf = (task: Task) => (task.artifacts ?? []).flatMap((a) => a.parts).map((p) => p.text ?? "").join("");

async function startLong(seconds: number): Promise<Task> {
  const response = await client.sendMessage({ message: userMessage(`long ${seconds}`), configuration: { returnImmediately: true } });
  if (!("task" in response)) throw new Error("expected a task");
  return response.task;
}

describe("a2a card", () => {
  it("shows the card and the chosen interface; --json prints the card itself", async () => {
    const human = await runCli(["card", server.url]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("a2a-edge demo agent");
    expect(human.stdout).toMatch(/\* JSONRPC +1\.0 +http:\/\/127\.0\.0\.1:\d+\//);
    expect(human.stdout).toContain("streaming yes");
    expect(human.stdout).toContain("Greet (greet)");

    const json = await runCli(["card", `${server.url}/.well-known/agent-card.json`, "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(client.card);
  });
});

describe("a2a send", () => {
  it("--json prints one StreamResponse per line, from the Task to the final status", async () => {
    const run = await runCli(["send", server.url, "hello", "there", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const events = lines(run.stdout);
    expect(events[0]).toHaveProperty("task");
    const last = events.at(-1)!;
    expect("statusUpdate" in last && last.statusUpdate.status.state).toBe("TASK_STATE_COMPLETED");
    const chunks = events.flatMap((e) => ("artifactUpdate" in e ? e.artifactUpdate.artifact.parts.map((p) => p.text) : []));
    expect(chunks.join("")).toBe("hello there");
    expect(run.stderr).toBe("");
  });

  it("streams live status to stderr and prints the artifacts and the agent's last words on stdout", async () => {
    const run = await runCli(["send", server.url, "echo this back", "--binding", "rest"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("● working  Echoing your message");
    expect(run.stderr).toMatch(/▸ artifact echo/);
    expect(run.stderr).toContain("● completed  Done echoing.");
    expect(run.stdout).toBe("── echo ──\necho this back\nDone echoing.\n");
  });

  it("--no-stream sends one blocking SendMessage (and --json prints its response)", async () => {
    const human = await runCli(["send", server.url, "no stream please", "--no-stream"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toBe("── echo ──\nno stream please\nDone echoing.\n");
    expect(human.stderr).toMatch(/^completed {2}task [0-9a-f-]{36}\n$/);

    const json = await runCli(["send", server.url, "one line", "--no-stream", "--json", "--binding", "rest"]);
    expect(json.code, json.stderr).toBe(0);
    const [response, ...rest] = lines(json.stdout);
    expect(rest).toEqual([]);
    expect("task" in response! && response.task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("asks for input on INPUT_REQUIRED and continues the same task with the answer from stdin", async () => {
    for (const extra of [[], ["--no-stream"]]) {
      const run = await runCli(["send", server.url, "greet", ...extra], { input: "Ada\n" });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("What is your name?\n> Ada\n");
      expect(run.stdout).toBe("Nice to meet you, Ada!\n");
      const taskId = /task ([0-9a-f-]{36})/.exec(run.stderr)![1]!;
      const task = await client.getTask({ id: taskId });
      expect(task.history?.filter((m) => m.role === "ROLE_USER").map((m) => m.parts[0]?.text)).toEqual(["greet", "Ada"]);
    }
  });

  it("exits 6 on INPUT_REQUIRED when nobody answers, or with --no-input", async () => {
    const eof = await runCli(["send", server.url, "greet"]);
    expect(eof.code, eof.stderr).toBe(6);
    expect(eof.stderr).toContain("What is your name?");

    const json = await runCli(["send", server.url, "greet", "--no-input", "--json"], { input: "ignored\n" });
    expect(json.code, json.stderr).toBe(6);
    const last = lines(json.stdout).at(-1)!;
    expect("statusUpdate" in last && last.statusUpdate.status.state).toBe("TASK_STATE_INPUT_REQUIRED");

    const taskId = "statusUpdate" in last ? last.statusUpdate.taskId : "";
    const answered = await runCli(["send", server.url, "Grace", "--task", taskId]);
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toBe("Nice to meet you, Grace!\n");
  });

  it("--file and --data add file and data parts", async () => {
    const path = join(scratch, "notes.txt");
    writeFileSync(path, "file body");
    const run = await runCli(["send", server.url, "with attachments", "--file", path, "--data", '{"n":1}', "--json", "--no-stream"]);
    expect(run.code, run.stderr).toBe(0);
    const [response] = lines(run.stdout);
    const task = (response as { task: Task }).task;
    const sent = (await client.getTask({ id: task.id })).history![0]!;
    expect(sent.parts).toEqual([
      { text: "with attachments" },
      { raw: Buffer.from("file body").toString("base64"), filename: "notes.txt", mediaType: "text/plain" },
      { data: { n: 1 }, mediaType: "application/json" },
    ]);

    const bad = await runCli(["send", server.url, "--data", "{nope"]);
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toContain("--data is not valid JSON");
  });
});

describe("a2a get, list, cancel, watch", () => {
  it("get shows a task; --json prints it", async () => {
    const response = await client.sendMessage({ message: userMessage("get me") });
    const task = (response as { task: Task }).task;
    const human = await runCli(["get", server.url, task.id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`Task       ${task.id}`);
    expect(human.stdout).toMatch(/State +completed/);
    expect(human.stdout).toContain("get me");

    const json = await runCli(["get", server.url, task.id, "--json", "--history", "0", "--binding", "rest"]);
    expect(json.code, json.stderr).toBe(0);
    const fetched = JSON.parse(json.stdout) as Task;
    expect(fetched.id).toBe(task.id);
    expect(fetched.history).toBeUndefined();
    expect(textOf(fetched)).toBe("get me");
  });

  it("list prints a table of your tasks (and --json the ListTasksResponse)", async () => {
    const contextId = crypto.randomUUID();
    const ids: string[] = [];
    for (const text of ["one", "two"]) {
      const response = await client.sendMessage({ message: userMessage(text, { contextId }) });
      ids.push((response as { task: Task }).task.id);
    }
    const human = await runCli(["list", server.url, "--context", contextId]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/TASK +│ CONTEXT +│ STATE +│ UPDATED +│ MESSAGE/);
    for (const id of ids) expect(human.stdout).toContain(id);
    expect(human.stderr).toContain("2 of 2 task(s)");

    const json = await runCli(["list", server.url, "--context", contextId, "--status", "completed", "--page-size", "1", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const page = JSON.parse(json.stdout) as { tasks: Task[]; totalSize: number; nextPageToken: string };
    expect(page.tasks.map((t) => t.id)).toEqual([ids[1]]);
    expect(page.totalSize).toBe(2);
    expect(page.nextPageToken).not.toBe("");
  });

  it("cancel cancels a running task; a finished one is a protocol error (exit 8)", async () => {
    const task = await startLong(30);
    const run = await runCli(["cancel", server.url, task.id, "--binding", "rest"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`canceled  task ${task.id}\n`);
    expect((await client.getTask({ id: task.id })).status.state).toBe("TASK_STATE_CANCELED");

    const done = (await client.sendMessage({ message: userMessage("finished") })) as { task: Task };
    const refused = await runCli(["cancel", server.url, done.task.id]);
    expect(refused.code, refused.stderr).toBe(8);
    expect(refused.stderr).toContain("TASK_NOT_CANCELABLE");
  });

  it("watch follows a task to its end (exit 0), or to its cancellation (exit 5)", async () => {
    const short = await startLong(2);
    const watched = await runCli(["watch", server.url, short.id, "--json"]);
    expect(watched.code, watched.stderr).toBe(0);
    const events = lines(watched.stdout);
    expect(events[0]).toHaveProperty("task");
    const last = events.at(-1)!;
    expect("statusUpdate" in last && last.statusUpdate.status.state).toBe("TASK_STATE_COMPLETED");
    expect(events.filter((e) => "statusUpdate" in e).map((e) => "statusUpdate" in e && e.statusUpdate.status.message?.parts[0]?.text))
      .toContain("Finished all 2 steps.");

    const again = await runCli(["watch", server.url, short.id]);
    expect(again.code, again.stderr).toBe(0); // a finished task: shown as it ended
    expect(again.stderr).toContain(`completed  task ${short.id}`);
    expect(again.stdout).toBe("Finished all 2 steps.\n");

    const long = await startLong(30);
    const watching = runCli(["watch", server.url, long.id]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await client.cancelTask({ id: long.id });
    const canceled = await watching;
    expect(canceled.code, canceled.stderr).toBe(5);
    expect(canceled.stderr).toMatch(/● working {2}Step 1 of 30/);
    expect(canceled.stderr).toContain("● canceled");
  });
});

describe("errors and exit codes", () => {
  it("usage errors exit 2, A2A errors 8, an unreachable agent 9", async () => {
    const usage = await runCli(["send"]);
    expect(usage.code, usage.stderr).toBe(2);
    expect(usage.stderr).toContain("missing required argument 'url'");
    expect((await runCli(["send", server.url])).code).toBe(2);
    expect((await runCli(["frobnicate"])).code).toBe(2);

    const missing = await runCli(["get", server.url, "no-such-task"]);
    expect(missing.code, missing.stderr).toBe(8);
    expect(missing.stderr).toMatch(/TASK_NOT_FOUND, code -32001, HTTP 200/);
    const missingRest = await runCli(["get", server.url, "no-such-task", "--binding", "rest"]);
    expect(missingRest.stderr).toMatch(/TASK_NOT_FOUND, code -32001, HTTP 404/);

    const push = await runCli(["push", "list", server.url, "no-such-task"]);
    expect(push.code, push.stderr).toBe(8);

    const down = await runCli(["card", "http://127.0.0.1:9"]);
    expect(down.code, down.stderr).toBe(9);
    expect(down.stderr).toContain("could not reach the agent");

    const help = await runCli(["send", "--help"]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("Exit codes:");
  });

  it("--tenant scopes the commands to a tenant", async () => {
    const sent = await runCli(["send", server.url, "tenant work", "--tenant", "acme", "--json", "--no-stream"]);
    expect(sent.code, sent.stderr).toBe(0);
    const taskId = (lines(sent.stdout)[0] as { task: Task }).task.id;
    expect((await runCli(["get", server.url, taskId, "--tenant", "acme", "--binding", "rest"])).code).toBe(0);
    expect((await runCli(["get", server.url, taskId])).code).toBe(8);
  });
});
