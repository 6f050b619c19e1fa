/** zod schemas of the operation requests and responses (reference §1, §2.6–§2.9). */
import * as z from "zod";
import { bool, int32, message, requiredString, struct, timestamp } from "./proto-json";
import { MessageSchema, TaskPushNotificationConfigSchema, TaskStateSchema } from "./objects";
import type { Message, Task, TaskPushNotificationConfig } from "./objects";

const historyLength = int32.refine((n) => n >= 0, { message: "must not be negative" });

export const SendMessageConfigurationSchema = message({
  acceptedOutputModes: z.array(z.string()).optional(),
  taskPushNotificationConfig: TaskPushNotificationConfigSchema.optional(),
  /** The RC / §5.5 name of the inline push config (reference §9 #3). */
  pushNotificationConfig: TaskPushNotificationConfigSchema.optional(),
  historyLength: historyLength.optional(),
  returnImmediately: bool.optional(),
  /** 0.3 / RC: the opposite sense of returnImmediately (reference §9 #4). */
  blocking: bool.optional(),
});
export type SendMessageConfiguration = z.infer<typeof SendMessageConfigurationSchema>;

export const SendMessageRequestSchema = message({
  tenant: z.string().optional(),
  message: MessageSchema,
  configuration: SendMessageConfigurationSchema.optional(),
  metadata: struct.optional(),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequestSchema>;

export const GetTaskRequestSchema = message({
  tenant: z.string().optional(),
  id: requiredString,
  historyLength: historyLength.optional(),
});
export type GetTaskRequest = z.infer<typeof GetTaskRequestSchema>;

export const ListTasksRequestSchema = message({
  tenant: z.string().optional(),
  contextId: z.string().optional(),
  status: TaskStateSchema.optional(),
  pageSize: int32.refine((n) => n >= 1 && n <= 100, { message: "must be between 1 and 100" }).optional(),
  pageToken: z.string().optional(),
  historyLength: historyLength.optional(),
  statusTimestampAfter: timestamp.optional(),
  includeArtifacts: bool.optional(),
});
export type ListTasksRequest = z.infer<typeof ListTasksRequestSchema>;

export interface ListTasksResponse {
  tasks: Task[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

export const CancelTaskRequestSchema = message({
  tenant: z.string().optional(),
  id: requiredString,
  metadata: struct.optional(),
});
export type CancelTaskRequest = z.infer<typeof CancelTaskRequestSchema>;

export const SubscribeToTaskRequestSchema = message({
  tenant: z.string().optional(),
  id: requiredString,
});
export type SubscribeToTaskRequest = z.infer<typeof SubscribeToTaskRequestSchema>;

/** Create takes the flat config itself (reference §1.1 #4), with a required taskId. */
export const CreateTaskPushNotificationConfigRequestSchema = TaskPushNotificationConfigSchema;

export const GetTaskPushNotificationConfigRequestSchema = message({
  tenant: z.string().optional(),
  taskId: requiredString,
  id: requiredString,
});
export type GetTaskPushNotificationConfigRequest = z.infer<typeof GetTaskPushNotificationConfigRequestSchema>;

export const DeleteTaskPushNotificationConfigRequestSchema = GetTaskPushNotificationConfigRequestSchema;

export const ListTaskPushNotificationConfigsRequestSchema = message({
  tenant: z.string().optional(),
  taskId: requiredString,
  pageSize: int32.refine((n) => n >= 1 && n <= 100, { message: "must be between 1 and 100" }).optional(),
  pageToken: z.string().optional(),
});
export type ListTaskPushNotificationConfigsRequest = z.infer<typeof ListTaskPushNotificationConfigsRequestSchema>;

/** a2a-edge extension: the delivery log of a task's push notifications. */
export const ListTaskPushDeliveriesRequestSchema = message({
  tenant: z.string().optional(),
  taskId: requiredString,
  configId: z.string().optional(),
});

export interface ListTaskPushNotificationConfigsResponse {
  configs: TaskPushNotificationConfig[];
  nextPageToken: string;
}

export const GetExtendedAgentCardRequestSchema = message({
  tenant: z.string().optional(),
});

/** SendMessage's result: exactly one of task | message. */
export type SendMessageResponse = { task: Task } | { message: Message };
