/** zod schemas of the A2A v1.0 data objects (reference §2.2–§2.5); the types are inferred from them. */
import * as z from "zod";
import { bytes, exactlyOne, message, protoEnum, requiredString, struct, timestamp } from "./proto-json";
import { ROLES, TASK_STATES } from "./states";

export const TaskStateSchema = protoEnum(TASK_STATES);
export const RoleSchema = protoEnum(ROLES);

/** Part: a oneof of text | raw | url | data, with shared metadata, filename and mediaType. */
export const PartSchema = message({
  text: z.string().optional(),
  raw: bytes.optional(),
  url: z.string().optional(),
  data: z.unknown().optional(),
  metadata: struct.optional(),
  filename: z.string().optional(),
  mediaType: z.string().optional(),
}).superRefine(exactlyOne(["text", "raw", "url", "data"], "a part"));
export type Part = z.infer<typeof PartSchema>;

export const MessageSchema = message({
  messageId: requiredString,
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  role: RoleSchema.refine((r) => r !== "ROLE_UNSPECIFIED", { message: "must be ROLE_USER or ROLE_AGENT" }),
  parts: z.array(PartSchema).min(1, { message: "needs at least one part" }),
  metadata: struct.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const TaskStatusSchema = message({
  state: TaskStateSchema,
  message: MessageSchema.optional(),
  timestamp: timestamp.optional(),
});
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export const ArtifactSchema = message({
  artifactId: requiredString,
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(PartSchema).min(1, { message: "needs at least one part" }),
  metadata: struct.optional(),
  extensions: z.array(z.string()).optional(),
});
export type Artifact = z.infer<typeof ArtifactSchema>;

export const TaskSchema = message({
  id: requiredString,
  contextId: z.string().optional(),
  status: TaskStatusSchema,
  artifacts: z.array(ArtifactSchema).optional(),
  history: z.array(MessageSchema).optional(),
  metadata: struct.optional(),
});
export type Task = z.infer<typeof TaskSchema>;

export const TaskStatusUpdateEventSchema = message({
  taskId: requiredString,
  contextId: z.string(),
  status: TaskStatusSchema,
  metadata: struct.optional(),
});
export type TaskStatusUpdateEvent = z.infer<typeof TaskStatusUpdateEventSchema>;

export const TaskArtifactUpdateEventSchema = message({
  taskId: requiredString,
  contextId: z.string(),
  artifact: ArtifactSchema,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
  metadata: struct.optional(),
});
export type TaskArtifactUpdateEvent = z.infer<typeof TaskArtifactUpdateEventSchema>;

/** One item of a stream, a push body: exactly one of task | message | statusUpdate | artifactUpdate. */
export const StreamResponseSchema = message({
  task: TaskSchema.optional(),
  message: MessageSchema.optional(),
  statusUpdate: TaskStatusUpdateEventSchema.optional(),
  artifactUpdate: TaskArtifactUpdateEventSchema.optional(),
}).superRefine(exactlyOne(["task", "message", "statusUpdate", "artifactUpdate"], "a stream response"));

/** The wire union, written so that TypeScript narrows on the member name. */
export type StreamResponse =
  | { task: Task }
  | { message: Message }
  | { statusUpdate: TaskStatusUpdateEvent }
  | { artifactUpdate: TaskArtifactUpdateEvent };

export const AuthenticationInfoSchema = message({
  scheme: requiredString,
  credentials: z.string().optional(),
});
export type AuthenticationInfo = z.infer<typeof AuthenticationInfoSchema>;

export const TaskPushNotificationConfigSchema = message({
  tenant: z.string().optional(),
  id: z.string().optional(),
  taskId: z.string().optional(),
  url: requiredString,
  token: z.string().optional(),
  authentication: AuthenticationInfoSchema.optional(),
});
export type TaskPushNotificationConfig = z.infer<typeof TaskPushNotificationConfigSchema>;
