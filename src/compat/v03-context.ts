/**
 * What both 0.3 bindings share: the version check, the call context a 0.3 request runs with, and the
 * few operations whose 0.3 form differs in more than shape (push config defaults, unpaged lists).
 */
import { A2AError, type TaskPushNotificationConfig } from "../protocol/index";
import * as ops from "../server/handler";
import type { CallContext } from "../server/handler";
import { requestedVersion } from "../server/http";
import type { Json } from "./v03-shapes";

/** A 0.3 request names no A2A-Version, or a 0.x one. */
export function isV03Request(request: Request, url: URL): boolean {
  const version = requestedVersion(request, url);
  return version === undefined || /^v?0\./.test(version);
}

/** 0.3 has no tenants: a 0.3 request acts in the tenant the card declares, if any (else the default one). */
export function v03Context(cx: CallContext): CallContext {
  const tenant = cx.definition.card.tenant;
  return tenant && cx.pathTenant === undefined ? { ...cx, pathTenant: tenant } : cx;
}

/**
 * The context for a call that may register push configs: they are stored as 0.3 configs, so their
 * notifications carry the 0.3 payload (the Task).
 */
export function v03PushContext(cx: CallContext): CallContext {
  return { ...cx, pushVersion: "0.3" };
}

/** Answers the 0.3 extension header as well as the 1.0 one. */
export function withExtensionsHeader(response: Response, cx: CallContext): Response {
  if (cx.extensions.active.length) response.headers.set("x-a2a-extensions", cx.extensions.active.join(", "));
  return response;
}

/** 0.3 SDKs used the task id as a config's id when the client gave none. */
export function createPushConfigV03(cx: CallContext, flat: Json): Promise<TaskPushNotificationConfig> {
  return ops.createPushConfig(v03PushContext(cx), { ...flat, id: flat.id || flat.taskId });
}

/** Without a config id, 0.3 meant the config whose id is the task id, else the task's only config. */
export async function getPushConfigV03(cx: CallContext, taskId: unknown, configId: unknown): Promise<TaskPushNotificationConfig> {
  if (configId) return ops.getPushConfig(cx, { taskId, id: configId });
  try {
    return await ops.getPushConfig(cx, { taskId, id: taskId });
  } catch (error) {
    if (!(error instanceof A2AError) || error.type !== "TaskNotFound") throw error;
    const [first] = await listPushConfigsV03(cx, taskId);
    if (!first) throw error;
    return first;
  }
}

/** 0.3 lists are not paged: every config of the task. */
export async function listPushConfigsV03(cx: CallContext, taskId: unknown): Promise<TaskPushNotificationConfig[]> {
  const configs: TaskPushNotificationConfig[] = [];
  let pageToken: string | undefined;
  do {
    const page = await ops.listPushConfigs(cx, { taskId, pageSize: 100, ...(pageToken ? { pageToken } : {}) });
    configs.push(...page.configs);
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  return configs;
}
