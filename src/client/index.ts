/**
 * a2a-edge/client: talk to any A2A v1.0 agent from Workers, browsers or Node (web-standard APIs only).
 *
 * ```ts
 * import { A2AClient, bearer, userMessage } from "a2a-edge/client";
 * const client = await A2AClient.connect("https://agent.example", { credentials: bearer(token) });
 * for await (const event of client.sendStreamingMessage({ message: userMessage("hello") })) console.log(event);
 * ```
 */
export { A2AClient, type ClientOptions, type SendParams, type StreamOptions } from "./client";
export { userMessage } from "./message";
export { Conversation, textOf, turnOf, type Turn, type TurnOptions } from "./conversation";
export { TaskStream, type PollOptions, type ResumeOptions } from "./stream";
export { apiKey, bearer, headers, type ApiKeyOptions, type CredentialProvider, type OutgoingRequest, type TokenSource } from "./auth";
export { BINDINGS, cardUrlFor, selectInterface, WELL_KNOWN_CARD_PATH, type Binding } from "./card";
export { A2AClientError, A2AHttpError, A2AStreamError } from "./errors";
export { findAgents, findAllAgents, getRegisteredAgent, registerAgent, unregisterAgent, type AgentEntry, type AgentHealth, type AgentQuery, type AgentRecord, type FindAgentsResult, type RegisterAgentRequest, type RegisterAgentResponse, type RegistryOptions, type SignatureStatus } from "./registry";
export { CardSignatureError } from "../signing/card";
export { PROTOCOL_VERSION, type Fetch, type RetryAfterOptions } from "./http";
export type { CallOptions } from "./transport";
export { A2AError, ERRORS, type A2AErrorType } from "../protocol/errors";
export { isInterrupted, isSettled, isTerminal, type TaskState } from "../protocol/states";
export type {
  AgentCard, AgentInterface, AgentSkill, Artifact, Message, Part, StreamResponse, Task, TaskArtifactUpdateEvent,
  TaskPushNotificationConfig, TaskStatus, TaskStatusUpdateEvent,
} from "../protocol/index";
export type { ListTasksRequest, ListTasksResponse, SendMessageResponse } from "../protocol/requests";
