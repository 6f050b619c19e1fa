/**
 * Talking to an A2A 0.3 agent: the v1.0 operations as 0.3 JSON-RPC methods and shapes, and the answers
 * back as v1.0 — with the same pure translations the server's 0.3 layer uses, read the other way.
 * ListTasks has no 0.3 method.
 */
import {
  messageFromV03, messageToV03, pushConfigBodyToV03, pushConfigFromV03, pushConfigToV03, streamResponseFromV03,
  taskFromV03, type Json,
} from "../compat/v03-shapes";
import type { Message, TaskPushNotificationConfig } from "../protocol/objects";
import { A2AClientError } from "./errors";
import type { JsonRpcDialect } from "./jsonrpc";

const METHODS: Record<string, string> = {
  SendMessage: "message/send",
  SendStreamingMessage: "message/stream",
  GetTask: "tasks/get",
  CancelTask: "tasks/cancel",
  SubscribeToTask: "tasks/resubscribe",
  CreateTaskPushNotificationConfig: "tasks/pushNotificationConfig/set",
  GetTaskPushNotificationConfig: "tasks/pushNotificationConfig/get",
  ListTaskPushNotificationConfigs: "tasks/pushNotificationConfig/list",
  DeleteTaskPushNotificationConfig: "tasks/pushNotificationConfig/delete",
  GetExtendedAgentCard: "agent/getAuthenticatedExtendedCard",
};

function sendParams(params: Json): Json {
  const out: Json = { message: messageToV03(params.message as Message) };
  if (params.metadata !== undefined) out.metadata = params.metadata;
  const config = params.configuration as Json | undefined;
  // 0.3's `blocking` defaults to true, as v1.0's returnImmediately defaults to false.
  const v03: Json = { blocking: config?.returnImmediately !== true };
  if (config?.acceptedOutputModes !== undefined) v03.acceptedOutputModes = config.acceptedOutputModes;
  if (config?.historyLength !== undefined) v03.historyLength = config.historyLength;
  const push = (config?.taskPushNotificationConfig ?? config?.pushNotificationConfig) as TaskPushNotificationConfig | undefined;
  if (push) v03.pushNotificationConfig = pushConfigBodyToV03(push);
  out.configuration = v03;
  return out;
}

function requestParams(operation: string, params: Json): Json {
  switch (operation) {
    case "SendMessage":
    case "SendStreamingMessage":
      return sendParams(params);
    case "CreateTaskPushNotificationConfig":
      return pushConfigToV03(params as unknown as TaskPushNotificationConfig);
    case "GetTaskPushNotificationConfig":
    case "DeleteTaskPushNotificationConfig":
      return { id: params.taskId, pushNotificationConfigId: params.id };
    case "ListTaskPushNotificationConfigs":
      return { id: params.taskId };
    case "GetExtendedAgentCard":
      return {};
    default: // GetTask, CancelTask, SubscribeToTask: {id, historyLength?, metadata?} are the same in 0.3
      return params;
  }
}

export const V03_DIALECT: JsonRpcDialect = {
  version: "0.3",
  request(operation, params) {
    const method = METHODS[operation];
    if (!method) {
      throw new A2AClientError({ type: "UnsupportedOperation", code: -32004, reason: "UNSUPPORTED_OPERATION", message: `${operation} does not exist in A2A 0.3`, httpStatus: 0 });
    }
    return { method, params: requestParams(operation, params) };
  },
  result(operation, result) {
    const value = result as Json;
    switch (operation) {
      case "SendMessage":
        return value.kind === "message" ? { message: messageFromV03(value) } : { task: taskFromV03(value) };
      case "GetTask":
      case "CancelTask":
        return taskFromV03(value);
      case "CreateTaskPushNotificationConfig":
      case "GetTaskPushNotificationConfig":
        return pushConfigFromV03(value);
      case "ListTaskPushNotificationConfigs":
        return { configs: (Array.isArray(result) ? result : []).map((c) => pushConfigFromV03(c)), nextPageToken: "" };
      case "DeleteTaskPushNotificationConfig":
        return {};
      default:
        return result;
    }
  },
  event(result) {
    return streamResponseFromV03(result as Json);
  },
};
