/**
 * A2A 0.3 JSON shapes (the JSON-RPC binding's, reference §8) ↔ the v1.0 model, as pure functions:
 * `kind` discriminators, `{kind:"text"|"file"|"data"}` parts, lowercase roles and states, `final`,
 * nested push configs. Input from 0.3 clients is checked only as far as the translation needs; the
 * v1.0 operations validate the result precisely.
 *
 * What 0.3 cannot carry is dropped on the way out: `filename` / `mediaType` of text and data parts.
 * A data part whose value is not an object travels as `{value}` with `metadata.data_part_compat: true`,
 * as the official SDKs do, and is unwrapped again on the way in.
 */
// Only the zod-free parts of the model: the client uses these translations too.
import { A2AError } from "../protocol/errors";
import type { Artifact, Message, Part, StreamResponse, Task, TaskPushNotificationConfig, TaskStatus } from "../protocol/objects";
import { closesStream, isTerminal, type TaskState } from "../protocol/states";

export type Json = Record<string, unknown>;

/** When a 0.3 `status-update` carries `final: true`: where a send stream ends, or only at terminal states. */
export type FinalRule = "send" | "subscribe";

const DATA_PART_COMPAT_FLAG = "data_part_compat";

const STATES_V03: Record<TaskState, string> = {
  TASK_STATE_UNSPECIFIED: "unknown",
  TASK_STATE_SUBMITTED: "submitted",
  TASK_STATE_WORKING: "working",
  TASK_STATE_COMPLETED: "completed",
  TASK_STATE_FAILED: "failed",
  TASK_STATE_CANCELED: "canceled",
  TASK_STATE_INPUT_REQUIRED: "input-required",
  TASK_STATE_REJECTED: "rejected",
  TASK_STATE_AUTH_REQUIRED: "auth-required",
};
const STATES_V1 = Object.fromEntries(Object.entries(STATES_V03).map(([v1, v03]) => [v03, v1])) as Record<string, TaskState>;

export const stateToV03 = (state: TaskState): string => STATES_V03[state] ?? "unknown";
export const stateFromV03 = (state: unknown): TaskState => STATES_V1[String(state)] ?? "TASK_STATE_UNSPECIFIED";

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function invalid(field: string, description: string): A2AError {
  return new A2AError("InvalidParams", `Invalid parameters: ${field} ${description}`, undefined, [{ field, description }]);
}

/** Copies the optional members that are set. */
function withOptional<T extends Json>(target: T, source: Json, keys: readonly string[]): T {
  for (const key of keys) if (source[key] !== undefined && source[key] !== null) (target as Json)[key] = source[key];
  return target;
}

// ---- parts and messages ------------------------------------------------------------------------

export function partToV03(part: Part): Json {
  const out: Json = {};
  if (part.text !== undefined) Object.assign(out, { kind: "text", text: part.text });
  else if (part.raw !== undefined || part.url !== undefined) {
    const file: Json = part.raw !== undefined ? { bytes: part.raw } : { uri: part.url };
    if (part.filename) file.name = part.filename;
    if (part.mediaType) file.mimeType = part.mediaType;
    Object.assign(out, { kind: "file", file });
  } else if (isObject(part.data)) Object.assign(out, { kind: "data", data: part.data });
  else {
    // 0.3 data parts hold objects only: other values are wrapped, and flagged so they unwrap again.
    return { kind: "data", data: { value: part.data ?? null }, metadata: { ...(part.metadata ?? {}), [DATA_PART_COMPAT_FLAG]: true } };
  }
  if (part.metadata) out.metadata = part.metadata;
  return out;
}

export function partFromV03(part: unknown, field: string): Json {
  if (!isObject(part)) throw invalid(field, "must be an object");
  const metadata = isObject(part.metadata) ? { ...part.metadata } : undefined;
  const out: Json = {};
  switch (part.kind) {
    case "text":
      out.text = part.text;
      break;
    case "file": {
      const file = part.file;
      if (!isObject(file)) throw invalid(`${field}.file`, "is required");
      if (file.bytes !== undefined) out.raw = file.bytes;
      else if (file.uri !== undefined) out.url = file.uri;
      else throw invalid(`${field}.file`, "must set bytes or uri");
      if (typeof file.name === "string" && file.name) out.filename = file.name;
      if (typeof file.mimeType === "string" && file.mimeType) out.mediaType = file.mimeType;
      break;
    }
    case "data":
      out.data = part.data;
      if (metadata?.[DATA_PART_COMPAT_FLAG] === true) {
        if (isObject(part.data) && "value" in part.data) out.data = part.data.value;
        delete metadata[DATA_PART_COMPAT_FLAG];
      }
      break;
    default:
      throw invalid(`${field}.kind`, 'must be "text", "file" or "data"');
  }
  if (metadata && Object.keys(metadata).length) out.metadata = metadata;
  return out;
}

const MESSAGE_OPTIONAL = ["contextId", "taskId", "metadata", "extensions", "referenceTaskIds"] as const;

export function messageToV03(message: Message): Json {
  const out: Json = { kind: "message", messageId: message.messageId, role: message.role === "ROLE_USER" ? "user" : "agent", parts: message.parts.map(partToV03) };
  return withOptional(out, message, MESSAGE_OPTIONAL);
}

/** A 0.3 message as v1.0 JSON (validated later by the operation). */
export function messageFromV03(message: unknown, field = "message"): Json {
  if (!isObject(message)) throw invalid(field, "is required");
  const role = message.role === "user" ? "ROLE_USER" : message.role === "agent" ? "ROLE_AGENT" : undefined;
  if (!role) throw invalid(`${field}.role`, 'must be "user" or "agent"');
  if (!Array.isArray(message.parts)) throw invalid(`${field}.parts`, "must be an array");
  const out: Json = { messageId: message.messageId, role, parts: message.parts.map((p, i) => partFromV03(p, `${field}.parts.${i}`)) };
  return withOptional(out, message, MESSAGE_OPTIONAL);
}

// ---- tasks, artifacts and events ----------------------------------------------------------------

export function artifactToV03(artifact: Artifact): Json {
  const out: Json = { artifactId: artifact.artifactId, parts: artifact.parts.map(partToV03) };
  return withOptional(out, artifact, ["name", "description", "metadata", "extensions"]);
}

export function artifactFromV03(artifact: Json): Json {
  const parts = Array.isArray(artifact.parts) ? artifact.parts : [];
  const out: Json = { artifactId: artifact.artifactId, parts: parts.map((p, i) => partFromV03(p, `artifact.parts.${i}`)) };
  return withOptional(out, artifact, ["name", "description", "metadata", "extensions"]);
}

export function statusToV03(status: TaskStatus): Json {
  const out: Json = { state: stateToV03(status.state) };
  if (status.message) out.message = messageToV03(status.message);
  if (status.timestamp) out.timestamp = status.timestamp;
  return out;
}

export function statusFromV03(status: Json): Json {
  const out: Json = { state: stateFromV03(status.state) };
  if (isObject(status.message)) out.message = messageFromV03(status.message, "status.message");
  if (status.timestamp) out.timestamp = status.timestamp;
  return out;
}

export function taskToV03(task: Task): Json {
  const out: Json = { kind: "task", id: task.id, contextId: task.contextId ?? "", status: statusToV03(task.status) };
  if (task.history?.length) out.history = task.history.map(messageToV03);
  if (task.artifacts?.length) out.artifacts = task.artifacts.map(artifactToV03);
  if (task.metadata) out.metadata = task.metadata;
  return out;
}

export function taskFromV03(task: Json): Json {
  const out: Json = { id: task.id, contextId: task.contextId, status: statusFromV03(isObject(task.status) ? task.status : {}) };
  if (Array.isArray(task.history)) out.history = task.history.map((m, i) => messageFromV03(m, `history.${i}`));
  if (Array.isArray(task.artifacts)) out.artifacts = task.artifacts.map((a) => artifactFromV03(a as Json));
  if (task.metadata) out.metadata = task.metadata;
  return out;
}

/** `final` marks the event after which the server closes this stream. */
export function isFinal(state: TaskState, rule: FinalRule): boolean {
  return rule === "send" ? closesStream(state) : isTerminal(state);
}

/** One v1.0 stream item or SendMessage result as the bare 0.3 object with its `kind`. */
export function streamResponseToV03(event: StreamResponse, rule: FinalRule): Json {
  if ("task" in event) return taskToV03(event.task);
  if ("message" in event) return messageToV03(event.message);
  if ("statusUpdate" in event) {
    const update = event.statusUpdate;
    const out: Json = {
      kind: "status-update", taskId: update.taskId, contextId: update.contextId,
      status: statusToV03(update.status), final: isFinal(update.status.state, rule),
    };
    if (update.metadata) out.metadata = update.metadata;
    return out;
  }
  const update = event.artifactUpdate;
  const out: Json = { kind: "artifact-update", taskId: update.taskId, contextId: update.contextId, artifact: artifactToV03(update.artifact) };
  return withOptional(out, update, ["append", "lastChunk", "metadata"]);
}

/** A bare 0.3 result (`kind`-discriminated) as a v1.0 StreamResponse (JSON, unvalidated). */
export function streamResponseFromV03(result: Json): Json {
  switch (result.kind) {
    case "task": return { task: taskFromV03(result) };
    case "message": return { message: messageFromV03(result) };
    case "status-update": {
      const out: Json = { taskId: result.taskId, contextId: result.contextId, status: statusFromV03(isObject(result.status) ? result.status : {}) };
      return { statusUpdate: withOptional(out, result, ["metadata"]) };
    }
    case "artifact-update": {
      const out: Json = { taskId: result.taskId, contextId: result.contextId, artifact: artifactFromV03(isObject(result.artifact) ? result.artifact : {}) };
      return { artifactUpdate: withOptional(out, result, ["append", "lastChunk", "metadata"]) };
    }
    default:
      throw invalid("kind", "is not a 0.3 result kind");
  }
}

// ---- push notification configs -------------------------------------------------------------------

/** The inner 0.3 PushNotificationConfig `{id?, url, token?, authentication?: {schemes, credentials?}}`. */
export function pushConfigBodyToV03(config: TaskPushNotificationConfig): Json {
  const out: Json = { url: config.url };
  if (config.id) out.id = config.id;
  if (config.token) out.token = config.token;
  if (config.authentication) {
    const auth: Json = { schemes: config.authentication.scheme ? [config.authentication.scheme] : [] };
    if (config.authentication.credentials) auth.credentials = config.authentication.credentials;
    out.authentication = auth;
  }
  return out;
}

/** The inner 0.3 config as flat v1.0 JSON; only the first of several `schemes` survives (v1.0 has one). */
export function pushConfigBodyFromV03(config: unknown, field: string): Json {
  if (!isObject(config)) throw invalid(field, "is required");
  const out: Json = { url: config.url };
  if (config.id) out.id = config.id;
  if (config.token) out.token = config.token;
  const auth = config.authentication;
  if (isObject(auth)) {
    const scheme = Array.isArray(auth.schemes) ? auth.schemes[0] : auth.scheme;
    out.authentication = withOptional({ scheme } as Json, auth, ["credentials"]);
  }
  return out;
}

export function pushConfigToV03(config: TaskPushNotificationConfig): Json {
  return { taskId: config.taskId ?? "", pushNotificationConfig: pushConfigBodyToV03(config) };
}

export function pushConfigFromV03(params: unknown): Json {
  if (!isObject(params)) throw invalid("params", "must be an object");
  return { ...pushConfigBodyFromV03(params.pushNotificationConfig, "pushNotificationConfig"), taskId: params.taskId };
}

// ---- requests -------------------------------------------------------------------------------------

/**
 * 0.3 MessageSendParams as a v1.0 SendMessageRequest. `blocking` is kept in its 0.3 sense: absent
 * means blocking (0.3 SDKs), `false` means return at once.
 */
export function sendParamsFromV03(params: unknown): Json {
  if (!isObject(params)) throw invalid("params", "must be an object");
  const out: Json = { message: messageFromV03(params.message) };
  if (params.metadata !== undefined) out.metadata = params.metadata;
  const config = params.configuration;
  if (isObject(config)) {
    const v1: Json = withOptional({}, config, ["acceptedOutputModes", "historyLength"]);
    if (config.blocking === false) v1.returnImmediately = true;
    if (config.pushNotificationConfig != null) {
      v1.taskPushNotificationConfig = pushConfigBodyFromV03(config.pushNotificationConfig, "configuration.pushNotificationConfig");
    }
    out.configuration = v1;
  }
  return out;
}

/** v1.0 SendMessage / stream result → the bare 0.3 Task or Message. */
export function sendResultToV03(result: { task: Task } | { message: Message }): Json {
  return "task" in result ? taskToV03(result.task) : messageToV03(result.message);
}

/** The body a push config registered over 0.3 receives: the Task itself, with `kind: "task"`. */
export function pushBodyV03(task: Task): string {
  return JSON.stringify(taskToV03(task));
}
