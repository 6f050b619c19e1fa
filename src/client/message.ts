/** Building user messages. */
import type { Message, Part } from "../protocol/objects";

/** A user message with a fresh messageId, from text or parts. */
export function userMessage(content: string | Part[], ids: { taskId?: string; contextId?: string; metadata?: Record<string, unknown> } = {}): Message {
  const message: Message = {
    messageId: crypto.randomUUID(),
    role: "ROLE_USER",
    parts: typeof content === "string" ? [{ text: content }] : content,
  };
  if (ids.taskId) message.taskId = ids.taskId;
  if (ids.contextId) message.contextId = ids.contextId;
  if (ids.metadata) message.metadata = ids.metadata;
  return message;
}
