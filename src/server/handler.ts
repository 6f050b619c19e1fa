/**
 * The eleven A2A operations, transport-neutral and in one place: validation, ids, blocking vs
 * returnImmediately, capability gates, tenants and caller scoping. Bindings only translate wire formats.
 */
import { DEFAULT_LIMITS, type AgentDefinition, type Limits, type Principal } from "../agent/types";
import { envNumber, pushEnabled, type A2AEnv } from "../env";
import { checkWebhookUrl, UnsafeUrlError } from "../push/url-guard";
import { lifetimes } from "../task/lifetimes";
import { withHistoryLength } from "../task/reducer";
import { callerMeets } from "./auth";
import { buildCard, declaresExtendedCard, signedIfConfigured } from "./card";
import { cachedFinishedTask, rememberIfFinished } from "./finished-tasks";
import {
  A2AError, CancelTaskRequestSchema, DeleteTaskPushNotificationConfigRequestSchema, GetExtendedAgentCardRequestSchema,
  GetTaskPushNotificationConfigRequestSchema, GetTaskRequestSchema, ListTaskPushDeliveriesRequestSchema,
  ListTaskPushNotificationConfigsRequestSchema, ListTasksRequestSchema, parseParams, SendMessageRequestSchema,
  SubscribeToTaskRequestSchema, TaskPushNotificationConfigSchema,
  type Framing, type ListTaskPushNotificationConfigsResponse, type ListTasksResponse, type SendMessageResponse, type Task,
  type AgentCard, type SendMessageRequest, type TaskPushNotificationConfig,
} from "../protocol/index";
import type { IndexQuery } from "../task/index-object";
import { indexStub, taskStub } from "../task/names";
import type { PushVersion } from "../task/push-store";
import type { Outcome } from "../task/task-object";

export interface CallContext {
  env: A2AEnv;
  definition: AgentDefinition;
  caller: Principal;
  /** The agent's public URL (PUBLIC_BASE_URL, else the request's origin). */
  baseUrl: string;
  /** The REST path's tenant; it wins over a tenant in the body (reference §4.11). */
  pathTenant?: string;
  /** Declared extensions the client activated, and required ones it did not ask for. */
  extensions: { active: string[]; missingRequired: string[] };
  /** The protocol version push configs made by this call are registered in (0.3 gets 0.3 payloads). */
  pushVersion?: PushVersion;
  /** What the request's audit line says; the bindings fill it in as they learn it. */
  audit: { operation?: string; outcome?: string; taskId?: string; tenant?: string };
}

/** Tenant names that would collide with the HTTP+JSON routes (reference §9 #21). */
const RESERVED_TENANTS = new Set(["tasks", "message", "extendedAgentCard", "v1", ".well-known", "pushNotificationConfigs", "console", "healthz"]);

function tenantOf(cx: CallContext, requested: string | undefined): string {
  const tenant = cx.pathTenant ?? requested ?? "";
  if (RESERVED_TENANTS.has(tenant) || tenant.includes("/") || tenant.includes(":") || tenant.length > 128) {
    throw new A2AError("InvalidParams", `"${tenant.slice(0, 40)}" cannot be a tenant: it is reserved or malformed`, undefined, [{ field: "tenant", description: "reserved or malformed" }]);
  }
  return tenant;
}

/** Called by both bindings before dispatch: a required extension the client did not request is refused. */
export function checkExtensions(cx: CallContext): void {
  const missing = cx.extensions.missingRequired;
  if (missing.length) {
    throw new A2AError("ExtensionSupportRequired", `This agent requires the extension ${missing.join(", ")}; request it with the A2A-Extensions header`, { extensions: missing.join(",") });
  }
}

function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw A2AError.fromData(outcome.error);
}

function requireStreaming(cx: CallContext): void {
  if (cx.definition.card.capabilities?.streaming === false) {
    throw new A2AError("UnsupportedOperation", "This agent does not support streaming (capabilities.streaming is false)");
  }
}

function limitsOf(cx: CallContext): Limits {
  return { ...DEFAULT_LIMITS, ...cx.definition.options?.limits };
}

/** The size limits of one incoming message, each with its own clear refusal. */
function checkMessageLimits(limits: Limits, request: SendMessageRequest): void {
  const { message } = request;
  const refuse = (field: string, description: string) => {
    throw new A2AError("InvalidParams", `Invalid parameters: ${field} ${description}`, { limit: description }, [{ field, description }]);
  };
  if (message.parts.length > limits.partsPerMessage) refuse("message.parts", `has more than ${limits.partsPerMessage} parts`);
  message.parts.forEach((part, i) => {
    if (part.text !== undefined && part.text.length > limits.textLength) refuse(`message.parts.${i}.text`, `is longer than ${limits.textLength} characters`);
  });
  if (message.metadata || request.metadata) {
    const bytes = JSON.stringify(message.metadata ?? {}).length + JSON.stringify(request.metadata ?? {}).length;
    if (bytes > limits.metadataBytes) refuse("metadata", `is larger than ${limits.metadataBytes} bytes`);
  }
}

/**
 * Per-skill security: when a message names the skill it is for (`metadata.skillId`, an a2a-edge
 * convention) and that skill declares its own securityRequirements, the caller must meet one of them too.
 */
function checkSkillRequirements(cx: CallContext, request: SendMessageRequest): void {
  const skillId = request.message.metadata?.skillId ?? request.metadata?.skillId;
  if (typeof skillId !== "string") return;
  const skill = cx.definition.card.skills.find((s) => s.id === skillId);
  if (!skill) throw new A2AError("InvalidParams", `Invalid parameters: metadata.skillId names no skill of this agent (${skillId.slice(0, 60)})`, undefined, [{ field: "message.metadata.skillId", description: "names no skill" }]);
  if (skill.securityRequirements?.length && !callerMeets(cx.caller, skill.securityRequirements)) {
    throw new A2AError("PermissionDenied", `Permission denied: the skill ${skill.id} needs other credentials or scopes`, { skillId: skill.id });
  }
}

function parseSend(cx: CallContext, params: unknown) {
  const request = parseParams(SendMessageRequestSchema, params);
  checkMessageLimits(limitsOf(cx), request);
  checkSkillRequirements(cx, request);
  const configuration = request.configuration;
  const inline = configuration?.taskPushNotificationConfig ?? configuration?.pushNotificationConfig;
  const givenTaskId = request.message.taskId;
  return {
    request,
    tenant: tenantOf(cx, request.tenant),
    taskId: givenTaskId || crypto.randomUUID(),
    isNew: !givenTaskId,
    immediate: configuration?.returnImmediately === true || configuration?.blocking === false,
    pushConfig: inline ? checkedPushConfig(cx, inline, "configuration.taskPushNotificationConfig.") : undefined,
  };
}

function sendInput(cx: CallContext, send: ReturnType<typeof parseSend>) {
  return {
    taskId: send.taskId, isNew: send.isNew, request: send.request, tenant: send.tenant, caller: cx.caller,
    agentUrl: cx.baseUrl, pushVersion: cx.pushVersion ?? "1.0", extensions: cx.extensions.active, ...(send.pushConfig ? { pushConfig: send.pushConfig } : {}),
  };
}

/** A caller may have only so many tasks that are not terminal; the index knows how many. */
async function checkActiveTasks(cx: CallContext, send: ReturnType<typeof parseSend>): Promise<void> {
  if (!send.isNew) return;
  const limit = limitsOf(cx).activeTasksPerCaller;
  const active = await indexStub(cx.env, send.tenant, cx.caller.id).activeCount(limit);
  if (active >= limit) {
    throw new A2AError("LimitExceeded", `You have ${limit} tasks in progress, the most allowed; wait for some to finish or cancel them`, { limit: String(limit) });
  }
}

export async function sendMessage(cx: CallContext, params: unknown): Promise<SendMessageResponse> {
  const send = parseSend(cx, params);
  await checkActiveTasks(cx, send);
  return unwrap(await taskStub(cx.env, send.tenant, send.taskId).sendMessage(sendInput(cx, send), send.immediate ? "immediate" : "blocking"));
}

export async function sendStreamingMessage(cx: CallContext, params: unknown, framing: Framing): Promise<ReadableStream<Uint8Array>> {
  requireStreaming(cx);
  const send = parseSend(cx, params);
  await checkActiveTasks(cx, send);
  return unwrap(await taskStub(cx.env, send.tenant, send.taskId).sendStreamingMessage(sendInput(cx, send), framing));
}

export async function getTask(cx: CallContext, params: unknown): Promise<Task> {
  const request = parseParams(GetTaskRequestSchema, params);
  const tenant = tenantOf(cx, request.tenant);
  const cached = cachedFinishedTask(tenant, cx.caller.id, request.id, lifetimes(cx.env, cx.definition.options).retentionMs);
  if (cached) return withHistoryLength(cached, request.historyLength);
  const task = unwrap(await taskStub(cx.env, tenant, request.id).getTask({ taskId: request.id, tenant, caller: cx.caller }, request.historyLength)) as Task;
  // Only a full read (all history) can answer later reads of any length.
  if (request.historyLength === undefined) rememberIfFinished(tenant, cx.caller.id, task);
  return task;
}

export async function cancelTask(cx: CallContext, params: unknown): Promise<Task> {
  const request = parseParams(CancelTaskRequestSchema, params);
  const tenant = tenantOf(cx, request.tenant);
  return unwrap(await taskStub(cx.env, tenant, request.id).cancelTask({ taskId: request.id, tenant, caller: cx.caller }));
}

/** `lastEventId` (the SSE Last-Event-ID header) resumes right after that event instead of starting with a snapshot. */
export async function subscribeToTask(cx: CallContext, params: unknown, framing: Framing, lastEventId: string | null): Promise<ReadableStream<Uint8Array>> {
  requireStreaming(cx);
  const request = parseParams(SubscribeToTaskRequestSchema, params);
  const tenant = tenantOf(cx, request.tenant);
  let afterSeq: number | undefined;
  if (lastEventId !== null && lastEventId.trim() !== "") {
    afterSeq = Number(lastEventId);
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) throw new A2AError("InvalidParams", "Last-Event-ID must be an event id this server sent");
  }
  return unwrap(await taskStub(cx.env, tenant, request.id).subscribe({ taskId: request.id, tenant, caller: cx.caller }, afterSeq, framing));
}

export async function listTasks(cx: CallContext, params: unknown): Promise<ListTasksResponse> {
  const request = parseParams(ListTasksRequestSchema, params);
  const tenant = tenantOf(cx, request.tenant);
  const pageSize = request.pageSize ?? 50;
  const query: IndexQuery = { pageSize };
  if (request.contextId !== undefined) query.contextId = request.contextId;
  if (request.status !== undefined && request.status !== "TASK_STATE_UNSPECIFIED") query.state = request.status;
  if (request.statusTimestampAfter !== undefined) query.statusTimeAfter = Date.parse(request.statusTimestampAfter);
  if (request.pageToken) query.after = decodePageToken(request.pageToken);
  const page = await indexStub(cx.env, tenant, cx.caller.id).list(query);

  const historyLength = request.historyLength ?? 0;
  const includeArtifacts = request.includeArtifacts === true;
  const fullTasks = includeArtifacts || historyLength > 0;
  const tasks = await Promise.all(page.entries.map(async (entry) => {
    const head = JSON.parse(entry.headJson) as Task;
    // History and artifacts live with each task. A task the index shows running is asked too: only its
    // object knows whether its run died in a restart (it then fails it), so the list never shows it stuck.
    if (!fullTasks && !isActive(head)) return head;
    const outcome = await taskStub(cx.env, tenant, entry.taskId).getTask({ taskId: entry.taskId, tenant, caller: cx.caller }, historyLength);
    const task = ("value" in outcome ? outcome.value : head) as Task;
    if (includeArtifacts) task.artifacts ??= [];
    else delete task.artifacts;
    return task;
  }));
  return { tasks, nextPageToken: page.next ? encodePageToken(page.next) : "", pageSize, totalSize: page.totalSize };
}

function isActive(task: Task): boolean {
  return task.status.state === "TASK_STATE_SUBMITTED" || task.status.state === "TASK_STATE_WORKING";
}

function encodePageToken(cursor: { time: number; taskId: string }): string {
  return btoa(JSON.stringify([cursor.time, cursor.taskId])).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodePageToken(token: string): { time: number; taskId: string } {
  try {
    const [time, taskId] = JSON.parse(atob(token.replace(/-/g, "+").replace(/_/g, "/"))) as unknown[];
    if (typeof time === "number" && typeof taskId === "string") return { time, taskId };
  } catch {
    // fall through to the error below
  }
  throw new A2AError("InvalidParams", "pageToken is not a token this server issued", undefined, [{ field: "pageToken", description: "invalid" }]);
}

// ---- push notification configs ---------------------------------------------------------------

function requirePush(cx: CallContext): void {
  if (!pushEnabled(cx.env)) throw new A2AError("PushNotificationNotSupported", "This agent does not send push notifications");
}

/** A config from a client: push must be on, the URL must pass the SSRF guard, and it gets an id. */
function checkedPushConfig(cx: CallContext, config: TaskPushNotificationConfig, field: string): TaskPushNotificationConfig {
  requirePush(cx);
  try {
    checkWebhookUrl(config.url, { allowInsecure: cx.env.ALLOW_INSECURE_WEBHOOKS === "true" });
  } catch (error) {
    if (!(error instanceof UnsafeUrlError)) throw error;
    const description = `the webhook url ${error.message}`;
    throw new A2AError("InvalidParams", `Invalid parameters: ${field}url: ${description}`, undefined, [{ field: `${field}url`, description }]);
  }
  return { ...config, id: config.id || crypto.randomUUID() };
}

/** Accepts the flat v1.0 config and the nested RC / 0.3 forms (`{taskId, pushNotificationConfig|config: {...}}`). */
function flattenPushConfig(params: unknown): unknown {
  if (params === null || typeof params !== "object") return params;
  const outer = params as Record<string, unknown>;
  const inner = outer.pushNotificationConfig ?? outer.push_notification_config ?? outer.config;
  if (inner === null || typeof inner !== "object") return params;
  const nested = { ...(inner as Record<string, unknown>) };
  const auth = nested.authentication as { schemes?: unknown; scheme?: unknown } | undefined;
  if (auth && auth.scheme === undefined && Array.isArray(auth.schemes)) nested.authentication = { ...auth, scheme: auth.schemes[0] };
  return { ...nested, taskId: outer.taskId ?? outer.task_id, tenant: outer.tenant, id: nested.id ?? outer.configId ?? outer.config_id };
}

function maxConfigs(cx: CallContext): number {
  return envNumber(cx.env.MAX_PUSH_CONFIGS_PER_TASK, cx.definition.options?.maxPushConfigsPerTask ?? 10);
}

export async function createPushConfig(cx: CallContext, params: unknown): Promise<TaskPushNotificationConfig> {
  requirePush(cx);
  const request = parseParams(TaskPushNotificationConfigSchema, flattenPushConfig(params));
  if (!request.taskId) throw new A2AError("InvalidParams", "Invalid parameters: taskId is required", undefined, [{ field: "taskId", description: "is required" }]);
  const tenant = tenantOf(cx, request.tenant);
  const config = checkedPushConfig(cx, request, "");
  const access = { taskId: request.taskId, tenant, caller: cx.caller };
  return unwrap(await taskStub(cx.env, tenant, request.taskId).createPushConfig(access, config, cx.baseUrl, maxConfigs(cx), cx.pushVersion ?? "1.0"));
}

export async function getPushConfig(cx: CallContext, params: unknown): Promise<TaskPushNotificationConfig> {
  requirePush(cx);
  const request = parseParams(GetTaskPushNotificationConfigRequestSchema, params);
  const tenant = tenantOf(cx, request.tenant);
  return unwrap(await taskStub(cx.env, tenant, request.taskId).getPushConfig({ taskId: request.taskId, tenant, caller: cx.caller }, request.id));
}

export async function listPushConfigs(cx: CallContext, params: unknown): Promise<ListTaskPushNotificationConfigsResponse> {
  requirePush(cx);
  const request = parseParams(ListTaskPushNotificationConfigsRequestSchema, params);
  const tenant = tenantOf(cx, request.tenant);
  const pageSize = request.pageSize ?? 50;
  const offset = request.pageToken ? decodeOffset(request.pageToken) : 0;
  const page = unwrap(await taskStub(cx.env, tenant, request.taskId).listPushConfigs({ taskId: request.taskId, tenant, caller: cx.caller }, offset, pageSize));
  return { configs: page.configs, nextPageToken: page.more ? btoa(String(offset + pageSize)) : "" };
}

export async function deletePushConfig(cx: CallContext, params: unknown): Promise<Record<string, never>> {
  requirePush(cx);
  const request = parseParams(DeleteTaskPushNotificationConfigRequestSchema, params);
  const tenant = tenantOf(cx, request.tenant);
  unwrap(await taskStub(cx.env, tenant, request.taskId).deletePushConfig({ taskId: request.taskId, tenant, caller: cx.caller }, request.id));
  return {};
}

/** a2a-edge extension: the delivery log of a task's notifications (one row per event and config). */
export async function listPushDeliveries(cx: CallContext, params: unknown) {
  requirePush(cx);
  const request = parseParams(ListTaskPushDeliveriesRequestSchema, params);
  const tenant = tenantOf(cx, request.tenant);
  const deliveries = unwrap(await taskStub(cx.env, tenant, request.taskId).pushDeliveries({ taskId: request.taskId, tenant, caller: cx.caller }, request.configId));
  return { deliveries };
}

function decodeOffset(token: string): number {
  let offset = NaN;
  try {
    offset = Number(atob(token));
  } catch {
    // fall through
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new A2AError("InvalidParams", "pageToken is not a token this server issued", undefined, [{ field: "pageToken", description: "invalid" }]);
  }
  return offset;
}

export async function getExtendedAgentCard(cx: CallContext, params: unknown): Promise<AgentCard> {
  parseParams(GetExtendedAgentCardRequestSchema, params);
  const { definition } = cx;
  if (!declaresExtendedCard(definition)) {
    throw new A2AError("UnsupportedOperation", "This agent has no extended agent card (capabilities.extendedAgentCard is false)");
  }
  if (!definition.extendedCard) throw new A2AError("ExtendedAgentCardNotConfigured");
  const extra = typeof definition.extendedCard === "function" ? await definition.extendedCard(cx.caller, cx.env) : definition.extendedCard;
  const card = buildCard({ ...definition, card: { ...definition.card, ...extra } }, cx.baseUrl, pushEnabled(cx.env));
  return signedIfConfigured(card, cx.env);
}
