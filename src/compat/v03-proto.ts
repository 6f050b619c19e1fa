/**
 * A2A 0.3 HTTP+JSON bodies ↔ the v1.0 model. The 0.3 REST binding did not use the JSON-RPC shapes:
 * its bodies were ProtoJSON of the 0.3 proto (reference §8; what @a2a-js/sdk's and a2a-python's 0.3
 * REST transports send and expect):
 * - Message parts are in `content`; parts are `{text}`, `{file:{fileWithUri|fileWithBytes, mimeType}}`
 *   and `{data:{data:{…}}}`, without metadata; no `kind` anywhere.
 * - Enums are `TASK_STATE_*` (with `TASK_STATE_CANCELLED`) and `ROLE_*`.
 * - The send configuration is `{acceptedOutputModes, pushNotification, historyLength, blocking}`; as
 *   proto3 JSON omits `false`, a configuration without `blocking` means "return at once".
 * - Push configs are `{name: "tasks/{t}/pushNotificationConfigs/{c}", pushNotificationConfig:{…}}`.
 */
import {
  A2AError,
  type Artifact, type Message, type Part, type StreamResponse, type Task, type TaskPushNotificationConfig, type TaskState,
  type TaskStatus,
} from "../protocol/index";
import { isFinal, pushConfigBodyFromV03, pushConfigBodyToV03, type FinalRule, type Json } from "./v03-shapes";

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** A field in camelCase, else its snake_case twin (ProtoJSON parsers accept both). */
function field(source: Json, camel: string): unknown {
  return source[camel] ?? source[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

function invalid(name: string, description: string): A2AError {
  return new A2AError("InvalidParams", `Invalid parameters: ${name} ${description}`, undefined, [{ field: name, description }]);
}

const stateToProto = (state: TaskState): string => (state === "TASK_STATE_CANCELED" ? "TASK_STATE_CANCELLED" : state);
const stateFromProto = (state: unknown): string => (state === "TASK_STATE_CANCELLED" || state === 5 ? "TASK_STATE_CANCELED" : String(state));

// ---- parts and messages ------------------------------------------------------------------------

export function partToProto(part: Part): Json {
  if (part.text !== undefined) return { text: part.text };
  if (part.raw !== undefined || part.url !== undefined) {
    const file: Json = part.raw !== undefined ? { fileWithBytes: part.raw } : { fileWithUri: part.url };
    if (part.mediaType) file.mimeType = part.mediaType;
    if (part.filename) file.name = part.filename;
    return { file };
  }
  // The proto DataPart holds a Struct: other JSON values are wrapped.
  return { data: { data: isObject(part.data) ? part.data : { value: part.data ?? null } } };
}

export function partFromProto(part: unknown, name: string): Json {
  if (!isObject(part)) throw invalid(name, "must be an object");
  if (part.text !== undefined) return { text: part.text };
  if (isObject(part.file)) {
    const file = part.file;
    const out: Json = {};
    const bytes = field(file, "fileWithBytes");
    const uri = field(file, "fileWithUri");
    if (bytes !== undefined) out.raw = bytes;
    else if (uri !== undefined) out.url = uri;
    else throw invalid(`${name}.file`, "must set fileWithUri or fileWithBytes");
    const mimeType = field(file, "mimeType");
    if (typeof mimeType === "string" && mimeType) out.mediaType = mimeType;
    if (typeof file.name === "string" && file.name) out.filename = file.name;
    return out;
  }
  if (isObject(part.data)) return { data: part.data.data ?? {} };
  throw invalid(name, "must set text, file or data");
}

export function messageToProto(message: Message): Json {
  const out: Json = { messageId: message.messageId, role: message.role, content: message.parts.map(partToProto) };
  if (message.contextId) out.contextId = message.contextId;
  if (message.taskId) out.taskId = message.taskId;
  if (message.metadata) out.metadata = message.metadata;
  if (message.extensions?.length) out.extensions = message.extensions;
  return out;
}

export function messageFromProto(message: unknown, name = "message"): Json {
  if (!isObject(message)) throw invalid(name, "is required");
  const content = message.content ?? message.parts;
  if (!Array.isArray(content)) throw invalid(`${name}.content`, "must be an array");
  const role = message.role === 1 ? "ROLE_USER" : message.role === 2 ? "ROLE_AGENT" : message.role;
  const out: Json = { messageId: field(message, "messageId"), role, parts: content.map((p, i) => partFromProto(p, `${name}.content.${i}`)) };
  const contextId = field(message, "contextId");
  const taskId = field(message, "taskId");
  if (contextId) out.contextId = contextId;
  if (taskId) out.taskId = taskId;
  if (message.metadata !== undefined) out.metadata = message.metadata;
  if (Array.isArray(message.extensions) && message.extensions.length) out.extensions = message.extensions;
  return out;
}

// ---- tasks, artifacts and events ----------------------------------------------------------------

export function artifactToProto(artifact: Artifact): Json {
  const out: Json = { artifactId: artifact.artifactId, parts: artifact.parts.map(partToProto) };
  if (artifact.name) out.name = artifact.name;
  if (artifact.description) out.description = artifact.description;
  if (artifact.metadata) out.metadata = artifact.metadata;
  if (artifact.extensions?.length) out.extensions = artifact.extensions;
  return out;
}

export function statusToProto(status: TaskStatus): Json {
  const out: Json = { state: stateToProto(status.state) };
  if (status.message) out.message = messageToProto(status.message);
  if (status.timestamp) out.timestamp = status.timestamp;
  return out;
}

export function taskToProto(task: Task): Json {
  const out: Json = { id: task.id, contextId: task.contextId ?? "", status: statusToProto(task.status) };
  if (task.artifacts?.length) out.artifacts = task.artifacts.map(artifactToProto);
  if (task.history?.length) out.history = task.history.map(messageToProto);
  if (task.metadata) out.metadata = task.metadata;
  return out;
}

/** A 0.3 proto Task as v1.0 JSON (for tests and symmetric use). */
export function taskFromProto(task: Json): Json {
  const status = isObject(task.status) ? task.status : {};
  const statusMessage = status.message ?? status.update;
  const out: Json = {
    id: task.id, contextId: field(task, "contextId"),
    status: { state: stateFromProto(status.state), ...(isObject(statusMessage) ? { message: messageFromProto(statusMessage, "status.message") } : {}), ...(status.timestamp ? { timestamp: status.timestamp } : {}) },
  };
  if (Array.isArray(task.artifacts)) {
    out.artifacts = task.artifacts.map((a: Json) => {
      const artifact: Json = { artifactId: field(a, "artifactId"), parts: (Array.isArray(a.parts) ? a.parts : []).map((p, i) => partFromProto(p, `artifact.parts.${i}`)) };
      for (const key of ["name", "description", "metadata", "extensions"]) if (a[key] !== undefined) artifact[key] = a[key];
      return artifact;
    });
  }
  if (Array.isArray(task.history)) out.history = task.history.map((m, i) => messageFromProto(m, `history.${i}`));
  if (task.metadata !== undefined) out.metadata = task.metadata;
  return out;
}

/** A stream item as the 0.3 proto StreamResponse: `{task}|{message}|{statusUpdate}|{artifactUpdate}`. */
export function streamResponseToProto(event: StreamResponse, rule: FinalRule): Json {
  if ("task" in event) return { task: taskToProto(event.task) };
  if ("message" in event) return { message: messageToProto(event.message) };
  if ("statusUpdate" in event) {
    const u = event.statusUpdate;
    const update: Json = { taskId: u.taskId, contextId: u.contextId, status: statusToProto(u.status) };
    if (isFinal(u.status.state, rule)) update.final = true;
    if (u.metadata) update.metadata = u.metadata;
    return { statusUpdate: update };
  }
  const u = event.artifactUpdate;
  const update: Json = { taskId: u.taskId, contextId: u.contextId, artifact: artifactToProto(u.artifact) };
  if (u.append) update.append = true;
  if (u.lastChunk) update.lastChunk = true;
  if (u.metadata) update.metadata = u.metadata;
  return { artifactUpdate: update };
}

/** The SendMessage result: the proto SendMessageResponse `{task}` or `{message}`. */
export function sendResultToProto(result: { task: Task } | { message: Message }): Json {
  return "task" in result ? { task: taskToProto(result.task) } : { message: messageToProto(result.message) };
}

// ---- requests and push configs -------------------------------------------------------------------

/** The 0.3 proto SendMessageRequest body as a v1.0 SendMessageRequest. */
export function sendRequestFromProto(body: Json): Json {
  const out: Json = { message: messageFromProto(body.message ?? body.request) };
  if (body.metadata !== undefined) out.metadata = body.metadata;
  const config = body.configuration;
  if (isObject(config)) {
    const v1: Json = {};
    const modes = field(config, "acceptedOutputModes");
    const historyLength = field(config, "historyLength");
    const push = field(config, "pushNotification");
    if (Array.isArray(modes) && modes.length) v1.acceptedOutputModes = modes;
    if (historyLength !== undefined) v1.historyLength = historyLength;
    // proto3 JSON leaves out `blocking: false`, so its absence means "return at once".
    if (config.blocking !== true) v1.returnImmediately = true;
    if (isObject(push)) v1.taskPushNotificationConfig = pushConfigBodyFromV03(push, "configuration.pushNotification");
    out.configuration = v1;
  }
  return out;
}

export function pushConfigToProto(config: TaskPushNotificationConfig): Json {
  return { name: `tasks/${config.taskId ?? ""}/pushNotificationConfigs/${config.id ?? ""}`, pushNotificationConfig: pushConfigBodyToV03(config) };
}

/** The body of `POST /v1/tasks/{id}/pushNotificationConfigs`: the proto TaskPushNotificationConfig. */
export function pushConfigFromProto(body: Json, taskId: string): Json {
  const inner = field(body, "pushNotificationConfig") ?? (isObject(body.config) ? field(body.config, "pushNotificationConfig") : undefined) ?? (body.url !== undefined ? body : undefined);
  return { ...pushConfigBodyFromV03(inner, "pushNotificationConfig"), taskId };
}
