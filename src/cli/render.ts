/** How the `a2a` command shows cards, tasks, parts and lists to a person. */
import Table from "cli-table3";
import pc from "picocolors";
import type { AgentCard, Artifact, Message, Part, Task, TaskPushNotificationConfig, TaskState } from "../client/index";

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateLabel(state: TaskState | undefined): string {
  return (state ?? "TASK_STATE_UNSPECIFIED").replace(/^TASK_STATE_/, "").toLowerCase().replace(/_/g, "-");
}

export function colorState(state: TaskState | undefined): string {
  const label = stateLabel(state);
  switch (state) {
    case "TASK_STATE_COMPLETED": return pc.green(label);
    case "TASK_STATE_FAILED":
    case "TASK_STATE_REJECTED": return pc.red(label);
    case "TASK_STATE_CANCELED": return pc.gray(label);
    case "TASK_STATE_INPUT_REQUIRED":
    case "TASK_STATE_AUTH_REQUIRED": return pc.yellow(label);
    default: return pc.cyan(label);
  }
}

function bytesOfBase64(raw: string): number {
  const clean = raw.replace(/=+$/, "");
  return Math.floor((clean.length * 3) / 4);
}

/** One part as text: text as is, data as JSON, files as a one-line description. */
export function partText(part: Part): string {
  if (part.text !== undefined) return part.text;
  if (part.data !== undefined) return JSON.stringify(part.data, null, 2);
  const what = [part.filename, part.mediaType].filter(Boolean).join(", ");
  if (part.raw !== undefined) return `[file${what ? ` ${what}` : ""}, ${bytesOfBase64(part.raw)} bytes]`;
  if (part.url !== undefined) return `[file${what ? ` ${what}` : ""}: ${part.url}]`;
  return "";
}

/** Text parts run on (streamed chunks are pieces of one text); other parts go on lines of their own. */
export function partsText(parts: Part[] | undefined): string {
  let out = "";
  let previousWasText = false;
  for (const part of parts ?? []) {
    const isText = part.text !== undefined;
    if (out !== "" && !(isText && previousWasText) && !out.endsWith("\n")) out += "\n";
    out += partText(part);
    previousWasText = isText;
  }
  return out;
}

export function messageText(message: Message | undefined): string {
  return partsText(message?.parts);
}

/** Artifacts, each under a heading when there are several or it has a name. */
export function artifactsText(artifacts: Artifact[] | undefined): string {
  const list = artifacts ?? [];
  return list.map((artifact) => {
    const body = partsText(artifact.parts);
    if (list.length === 1 && !artifact.name) return body;
    return `${pc.bold(`── ${artifact.name ?? artifact.artifactId} ──`)}\n${body}`;
  }).join("\n");
}

/** What `send` and `watch` print on stdout at the end: the artifacts, then the agent's last words. */
export function resultText(task: Task | undefined, message: Message | undefined): string {
  if (message && !task) return messageText(message);
  if (!task) return "";
  return [artifactsText(task.artifacts), messageText(task.status.message)].filter((s) => s !== "").join("\n");
}

export function taskDetails(task: Task): string {
  const lines = [
    `${pc.bold("Task")}       ${task.id}`,
    `${pc.bold("Context")}    ${task.contextId ?? ""}`,
    `${pc.bold("State")}      ${colorState(task.status.state)}${task.status.timestamp ? pc.dim(`  ${task.status.timestamp}`) : ""}`,
  ];
  const status = messageText(task.status.message);
  if (status) lines.push(`${pc.bold("Message")}    ${status}`);
  if (task.history?.length) {
    lines.push(pc.bold("History"));
    for (const message of task.history) lines.push(`  ${message.role === "ROLE_USER" ? "user " : "agent"}  ${messageText(message).replace(/\n/g, "\n         ")}`);
  }
  if (task.artifacts?.length) lines.push(pc.bold("Artifacts"), artifactsText(task.artifacts));
  return lines.join("\n");
}

export function cardDetails(card: AgentCard, chosen: { url: string; protocolBinding: string } | undefined): string {
  const yes = (v: boolean | undefined) => (v ? pc.green("yes") : pc.dim("no"));
  const lines = [
    `${pc.bold(card.name)}  ${pc.dim(`v${card.version}`)}`,
    card.description,
    "",
    pc.bold("Interfaces"),
    ...card.supportedInterfaces.map((i) => {
      const mark = chosen && i.url === chosen.url && i.protocolBinding === chosen.protocolBinding ? pc.green("*") : " ";
      return ` ${mark} ${i.protocolBinding.padEnd(10)} ${i.protocolVersion.padEnd(4)} ${i.url}${i.tenant ? `  tenant=${i.tenant}` : ""}`;
    }),
    `${pc.bold("Capabilities")}  streaming ${yes(card.capabilities.streaming)}, push ${yes(card.capabilities.pushNotifications)}, extended card ${yes(card.capabilities.extendedAgentCard)}`,
    `${pc.bold("Modes")}  in ${card.defaultInputModes.join(", ")}; out ${card.defaultOutputModes.join(", ")}`,
  ];
  const schemes = Object.entries(card.securitySchemes ?? {});
  if (schemes.length) {
    lines.push(pc.bold("Security"));
    for (const [name, scheme] of schemes) {
      const [kind, detail] = Object.entries(scheme).find(([, v]) => v !== undefined) ?? ["?", {}];
      lines.push(`  ${name}: ${kind.replace(/SecurityScheme$/, "")} ${JSON.stringify(detail)}`);
    }
  }
  lines.push(pc.bold("Skills"));
  for (const skill of card.skills) {
    lines.push(`  ${pc.bold(skill.name)} ${pc.dim(`(${skill.id})`)} ${skill.description}${skill.tags.length ? pc.dim(`  [${skill.tags.join(", ")}]`) : ""}`);
  }
  return lines.join("\n");
}

const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export function taskTable(tasks: Task[]): string {
  const table = new Table({
    head: ["TASK", "CONTEXT", "STATE", "UPDATED", "MESSAGE"],
    style: { head: process.stdout.isTTY ? ["bold"] : [], border: process.stdout.isTTY ? ["gray"] : [] },
  });
  for (const task of tasks) {
    table.push([task.id, task.contextId ?? "", colorState(task.status.state), task.status.timestamp ?? "", oneLine(messageText(task.status.message), 40)]);
  }
  return table.toString();
}

export function pushTable(configs: TaskPushNotificationConfig[]): string {
  const table = new Table({ head: ["ID", "TASK", "URL", "AUTH"], style: { head: process.stdout.isTTY ? ["bold"] : [], border: [] } });
  for (const config of configs) table.push([config.id ?? "", config.taskId ?? "", config.url, config.authentication?.scheme ?? ""]);
  return table.toString();
}
