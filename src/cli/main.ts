#!/usr/bin/env node
/**
 * `a2a`: talk to any A2A v1.0 agent from the terminal.
 *
 *   a2a card http://localhost:8787
 *   a2a send http://localhost:8787 "hello"
 *   a2a list http://localhost:8787
 */
import { Command, Option } from "commander";
import { A2AClient, A2AClientError, type Part } from "../client/index";
import { connect, type ConnectionFlags } from "./connect";
import { EXIT, EXIT_HELP, exitForState, reportError, UsageError } from "./exit";
import { LiveView, Prompter } from "./live";
import { filePart, dataPart } from "./parts";
import { artifactsText, cardDetails, colorState, messageText, pushTable, resultText, stateLabel, taskDetails, taskTable } from "./render";
import { registryCommands } from "./registry";

const VERSION = "0.1.0";

const collect = (value: string, previous: string[]) => [...previous, value];

/** The options every command that talks to an agent takes. */
function withConnection(command: Command): Command {
  return command
    .option("--bearer <token>", "bearer token (default: $A2A_TOKEN)")
    .option("--api-key <key>", "API key, sent where the card's apiKeySecurityScheme says (default: $A2A_API_KEY)")
    .option("--tenant <tenant>", "tenant to send (default: the interface's tenant from the card)")
    .addOption(new Option("--binding <binding>", "protocol binding to use (default: the card's first)").choices(["jsonrpc", "rest"]))
    .option("--json", "print raw JSON instead of text");
}

const out = (text: string) => {
  if (text !== "") process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
};

interface SendFlags extends ConnectionFlags {
  file: string[];
  data: string[];
  context?: string;
  task?: string;
  stream: boolean;
  input: boolean;
  accept?: string;
}

async function send(url: string, words: string[], flags: SendFlags): Promise<number> {
  const parts: Part[] = [];
  if (words.length) parts.push({ text: words.join(" ") });
  for (const path of flags.file) parts.push(await filePart(path));
  for (const json of flags.data) parts.push(dataPart(json));
  if (!parts.length) throw new UsageError("nothing to send: give TEXT, --file PATH or --data JSON");

  const client = await connect(url, flags);
  const start: { contextId?: string; taskId?: string } = {};
  if (flags.context) start.contextId = flags.context;
  if (flags.task) start.taskId = flags.task;
  const chat = client.conversation(start);
  const view = new LiveView({ json: Boolean(flags.json) });
  const prompter = new Prompter();
  const configuration = flags.accept ? { acceptedOutputModes: flags.accept.split(",").map((s) => s.trim()) } : undefined;
  const options = configuration ? { configuration } : {};
  let content: Part[] = parts;
  try {
    for (;;) {
      if (flags.stream) {
        await view.follow(chat.stream(content, options));
      } else {
        const turn = await chat.send(content, options);
        view.showResponse(turn.task ? { task: turn.task } : { message: turn.message! });
      }
      const turn = chat.turn;
      if (turn.needsInput && flags.input) {
        if (!flags.json) out(artifactsText(turn.task?.artifacts));
        const answer = await prompter.ask(`${turn.text || "The agent needs more input."}\n> `);
        if (answer !== undefined && answer.trim() !== "") {
          content = [{ text: answer }];
          continue;
        }
        process.stderr.write("\n");
        return EXIT.INPUT_REQUIRED;
      }
      if (!flags.json) {
        out(resultText(turn.task, turn.message));
        if (turn.task) process.stderr.write(`${colorState(turn.state)}  task ${turn.task.id}\n`);
      }
      return exitForState(turn.state);
    }
  } finally {
    prompter.close();
  }
}

async function watch(url: string, taskId: string, flags: ConnectionFlags & { lastEventId?: string }): Promise<number> {
  const client = await connect(url, flags);
  const stream = client.subscribeToTask({ id: taskId }, flags.lastEventId ? { lastEventId: flags.lastEventId } : {});
  try {
    await new LiveView({ json: Boolean(flags.json) }).follow(stream, { stopAtInterruptedSnapshot: true });
  } catch (error) {
    // A finished task cannot be subscribed to: show how it ended instead.
    if (!(error instanceof A2AClientError && error.type === "UnsupportedOperation" && stream.task === undefined)) throw error;
    const task = await client.getTask({ id: taskId });
    if (flags.json) out(JSON.stringify({ task }));
    else out(resultText(task, undefined));
    process.stderr.write(`${colorState(task.status.state)}  task ${taskId}\n`);
    return exitForState(task.status.state);
  }
  if (!flags.json) {
    out(resultText(stream.task, undefined));
    process.stderr.write(`${colorState(stream.state)}  task ${taskId}\n`);
  }
  return exitForState(stream.state);
}

function program(): Command {
  const root = new Command("a2a")
    .description("Talk to any A2A (Agent2Agent protocol v1.0) agent. URL is the agent's address or its Agent Card URL.")
    .version(VERSION)
    .showHelpAfterError("(run with --help for usage)")
    .addHelpText("after", `${EXIT_HELP}\n\nExamples:\n  a2a send http://localhost:8787 "hello"\n  a2a list http://localhost:8787 --json`)
    .exitOverride();
  let code: number = EXIT.OK;
  const run = <A extends unknown[]>(action: (...args: A) => Promise<number | void>) =>
    async (...args: A) => {
      code = (await action(...args)) ?? EXIT.OK;
    };

  withConnection(root.command("card").argument("<url>", "agent URL or card URL"))
    .description("show the agent's card and the interface this client would use")
    .action(run(async (url: string, flags: ConnectionFlags) => {
      const client = await connect(url, flags);
      if (flags.json) out(JSON.stringify(client.card, null, 2));
      else out(cardDetails(client.card, client.interface));
    }));

  withConnection(root.command("send").argument("<url>", "agent URL or card URL").argument("[text...]", "the message text"))
    .description("send a message and follow the task: live status, artifacts as they grow, the result at the end")
    .option("--file <path>", "attach a file (repeatable)", collect, [])
    .option("--data <json>", "attach a JSON data part (repeatable)", collect, [])
    .option("--context <id>", "contextId to continue")
    .option("--task <id>", "taskId to continue (a task waiting for input)")
    .option("--accept <modes>", "acceptedOutputModes, comma-separated")
    .option("--no-stream", "one blocking SendMessage instead of a stream")
    .option("--no-input", "do not prompt when the agent asks for input (exit 6)")
    .addHelpText("after", `\nWith --json, prints one StreamResponse JSON per line (with --no-stream, the SendMessage response).\nWhen the agent asks for input, the question goes to stderr and the answer is read from stdin.\n${EXIT_HELP}`)
    .action(run((url: string, text: string[], flags: SendFlags) => send(url, text, flags)));

  withConnection(root.command("get").argument("<url>", "agent URL or card URL").argument("<task>", "task id"))
    .description("show a task")
    .option("--history <n>", "at most N messages of history", (v) => positiveInt(v, "--history"))
    .action(run(async (url: string, id: string, flags: ConnectionFlags & { history?: number }) => {
      const client = await connect(url, flags);
      const task = await client.getTask(flags.history === undefined ? { id } : { id, historyLength: flags.history });
      out(flags.json ? JSON.stringify(task) : taskDetails(task));
    }));

  withConnection(root.command("list").argument("<url>", "agent URL or card URL"))
    .description("list your tasks, newest first")
    .option("--context <id>", "only this contextId")
    .option("--status <state>", "only this state, e.g. working or TASK_STATE_WORKING")
    .option("--page-size <n>", "tasks per page (1-100)", (v) => positiveInt(v, "--page-size"))
    .option("--page-token <token>", "the page after this token")
    .option("--history <n>", "at most N messages of history per task", (v) => positiveInt(v, "--history"))
    .option("--artifacts", "include artifacts")
    .action(run(async (url: string, flags: ConnectionFlags & { context?: string; status?: string; pageSize?: number; pageToken?: string; history?: number; artifacts?: boolean }) => {
      const client = await connect(url, flags);
      const request: Parameters<A2AClient["listTasks"]>[0] = {};
      if (flags.context) request.contextId = flags.context;
      if (flags.status) request.status = toState(flags.status);
      if (flags.pageSize) request.pageSize = flags.pageSize;
      if (flags.pageToken) request.pageToken = flags.pageToken;
      if (flags.history !== undefined) request.historyLength = flags.history;
      if (flags.artifacts) request.includeArtifacts = true;
      const page = await client.listTasks(request);
      if (flags.json) return out(JSON.stringify(page));
      out(page.tasks.length ? taskTable(page.tasks) : "no tasks");
      process.stderr.write(`${page.tasks.length} of ${page.totalSize} task(s)${page.nextPageToken ? `; next page: --page-token ${page.nextPageToken}` : ""}\n`);
    }));

  withConnection(root.command("cancel").argument("<url>", "agent URL or card URL").argument("<task>", "task id"))
    .description("cancel a task")
    .action(run(async (url: string, id: string, flags: ConnectionFlags) => {
      const client = await connect(url, flags);
      const task = await client.cancelTask({ id });
      if (flags.json) out(JSON.stringify(task));
      else out(`${stateLabel(task.status.state)}  task ${task.id}${messageText(task.status.message) ? `  ${messageText(task.status.message)}` : ""}`);
      return task.status.state === "TASK_STATE_CANCELED" ? EXIT.OK : exitForState(task.status.state);
    }));

  withConnection(root.command("watch").argument("<url>", "agent URL or card URL").argument("<task>", "task id"))
    .description("subscribe to a task and follow it until it ends or waits for you (resumes after dropped connections)")
    .option("--last-event-id <id>", "resume after this event id instead of starting with the current task")
    .addHelpText("after", EXIT_HELP)
    .action(run((url: string, id: string, flags: ConnectionFlags & { lastEventId?: string }) => watch(url, id, flags)));

  const push = root.command("push").description("push notification configs of a task (add | get | list | rm)");
  withConnection(push.command("add").argument("<url>").argument("<task>", "task id").argument("<webhook>", "the URL the agent POSTs to"))
    .description("register a webhook for a task")
    .option("--id <id>", "config id (default: the agent assigns one)")
    .option("--token <token>", "token the agent sends back with each notification")
    .option("--auth-scheme <scheme>", "Authorization scheme the agent uses, e.g. Bearer")
    .option("--auth-credentials <credentials>", "credentials for that scheme")
    .action(run(async (url: string, taskId: string, webhook: string, flags: ConnectionFlags & { id?: string; token?: string; authScheme?: string; authCredentials?: string }) => {
      const client = await connect(url, flags);
      const config: Parameters<A2AClient["createTaskPushNotificationConfig"]>[0] = { taskId, url: webhook };
      if (flags.id) config.id = flags.id;
      if (flags.token) config.token = flags.token;
      if (flags.authScheme) config.authentication = flags.authCredentials ? { scheme: flags.authScheme, credentials: flags.authCredentials } : { scheme: flags.authScheme };
      const created = await client.createTaskPushNotificationConfig(config);
      out(flags.json ? JSON.stringify(created) : pushTable([created]));
    }));
  withConnection(push.command("get").argument("<url>").argument("<task>", "task id").argument("<config>", "config id"))
    .description("show one push config")
    .action(run(async (url: string, taskId: string, id: string, flags: ConnectionFlags) => {
      const config = await (await connect(url, flags)).getTaskPushNotificationConfig({ taskId, id });
      out(flags.json ? JSON.stringify(config) : pushTable([config]));
    }));
  withConnection(push.command("list").argument("<url>").argument("<task>", "task id"))
    .description("list a task's push configs")
    .action(run(async (url: string, taskId: string, flags: ConnectionFlags) => {
      const page = await (await connect(url, flags)).listTaskPushNotificationConfigs({ taskId });
      out(flags.json ? JSON.stringify(page) : page.configs.length ? pushTable(page.configs) : "no push configs");
    }));
  withConnection(push.command("rm").argument("<url>").argument("<task>", "task id").argument("<config>", "config id"))
    .description("delete a push config")
    .action(run(async (url: string, taskId: string, id: string, flags: ConnectionFlags) => {
      await (await connect(url, flags)).deleteTaskPushNotificationConfig({ taskId, id });
      if (!flags.json) process.stderr.write(`deleted ${id}\n`);
    }));

  registryCommands(root, run);
  for (const command of [root, ...root.commands, ...push.commands]) command.exitOverride();
  Object.defineProperty(root, "exitCode", { get: () => code });
  return root;
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} needs a whole number, got ${value}`);
  return n;
}

function toState(value: string): NonNullable<Parameters<A2AClient["listTasks"]>[0]>["status"] {
  const name = value.toUpperCase().replace(/-/g, "_");
  return (name.startsWith("TASK_STATE_") ? name : `TASK_STATE_${name}`) as never;
}

async function main(): Promise<number> {
  const cli = program();
  try {
    await cli.parseAsync(process.argv);
    return (cli as unknown as { exitCode: number }).exitCode;
  } catch (error) {
    return reportError(error);
  }
}

const code = await main();
// Let stdout drain (it may be a pipe), then exit even if stdin or a keep-alive socket is still open.
process.stdout.write("", () => process.exit(code));
