/** The protocol model: ProtoJSON rules of reference §3 and the error table of §5. */
import { describe, expect, it } from "vitest";
import {
  A2AError, AgentCardSchema, ERRORS, MessageSchema, PartSchema, SendMessageRequestSchema, StreamResponseSchema,
  TaskSchema, toJsonRpcError, toRestError, type A2AErrorType,
} from "../../src/protocol/index";

describe("ProtoJSON parsing", () => {
  const task = {
    id: "t1",
    contextId: "c1",
    status: { state: "TASK_STATE_WORKING", timestamp: "2026-01-01T00:00:00.000Z", message: { messageId: "m2", role: "ROLE_AGENT", parts: [{ text: "hi" }] } },
    history: [{ messageId: "m1", role: "ROLE_USER", parts: [{ raw: "dGNr", filename: "a.txt", mediaType: "text/plain" }, { url: "https://x/y" }, { data: [1, "two", null] }], metadata: { snake_key: 1 } }],
    artifacts: [{ artifactId: "a1", name: "n", parts: [{ data: { k: 1 } }], extensions: ["urn:x"] }],
    metadata: { any: { nested: true } },
  };

  it("round-trips every object unchanged", () => {
    expect(TaskSchema.parse(task)).toEqual(task);
    for (const event of [{ task }, { message: task.history[0] }, { statusUpdate: { taskId: "t1", contextId: "c1", status: task.status } }, { artifactUpdate: { taskId: "t1", contextId: "c1", artifact: task.artifacts[0], append: true, lastChunk: true } }]) {
      expect(StreamResponseSchema.parse(event)).toEqual(event);
    }
    expect(JSON.parse(JSON.stringify(TaskSchema.parse(task)))).toEqual(task);
  });

  it("accepts snake_case names and enum numbers, and keeps Struct contents as they are", () => {
    const parsed = MessageSchema.parse({ message_id: "m", role: 2, parts: [{ text: "x", media_type: "text/plain" }], context_id: "c", reference_task_ids: ["t"], metadata: { keep_me: 1 } });
    expect(parsed).toEqual({ messageId: "m", role: "ROLE_AGENT", parts: [{ text: "x", mediaType: "text/plain" }], contextId: "c", referenceTaskIds: ["t"], metadata: { keep_me: 1 } });
    expect(SendMessageRequestSchema.parse({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] }, configuration: { history_length: "3", return_immediately: true } }).configuration)
      .toEqual({ historyLength: 3, returnImmediately: true });
  });

  it("drops unknown fields", () => {
    expect(MessageSchema.parse({ messageId: "m", role: "ROLE_USER", parts: [{ text: "x", kind: "text" }], kind: "message", tckUnknownField: 1 }))
      .toEqual({ messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] });
  });

  it("enforces oneof: exactly one member", () => {
    expect(PartSchema.safeParse({ text: "a", url: "b" }).success).toBe(false);
    expect(PartSchema.safeParse({ mediaType: "text/plain" }).success).toBe(false);
    expect(PartSchema.safeParse({ data: null }).success).toBe(true); // google.protobuf.Value may be null
    expect(StreamResponseSchema.safeParse({ task, message: task.history[0] }).success).toBe(false);
    expect(StreamResponseSchema.safeParse({}).success).toBe(false);
  });

  it("rejects missing REQUIRED fields, wrong types and 0.3 shapes", () => {
    const bad: unknown[] = [
      { role: "ROLE_USER", parts: [{ text: "x" }] },                      // no messageId
      { messageId: "m", role: "ROLE_USER", parts: [] },                   // no parts
      { messageId: "m", role: "ROLE_UNSPECIFIED", parts: [{ text: "x" }] },
      { messageId: "m", role: "user", parts: [{ kind: "text", text: "x" }] }, // 0.3 role
      { messageId: 5, role: "ROLE_USER", parts: [{ text: "x" }] },
      { messageId: "m", role: "ROLE_USER", parts: [{ raw: "not base64!" }] },
    ];
    for (const input of bad) expect(MessageSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
    expect(TaskSchema.safeParse({ ...task, status: { state: "completed" } }).success).toBe(false);
    expect(TaskSchema.safeParse({ ...task, status: { state: "TASK_STATE_WORKING", timestamp: "yesterday" } }).success).toBe(false);
  });

  it("accepts timestamps with offsets on input", () => {
    expect(TaskSchema.safeParse({ ...task, status: { state: "TASK_STATE_WORKING", timestamp: "2026-01-01T01:00:00+01:00" } }).success).toBe(true);
  });

  it("validates Agent Cards: wrapper security schemes, oneof flows, skills with tags", () => {
    const card = {
      name: "n", description: "d", version: "1", capabilities: {}, defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
      supportedInterfaces: [{ url: "https://a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      skills: [{ id: "s", name: "s", description: "s", tags: ["t"] }],
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } }, oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: "https://t", scopes: {} } } } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    };
    expect(AgentCardSchema.parse(card)).toEqual(card);
    expect(AgentCardSchema.safeParse({ ...card, skills: [{ id: "s", name: "s", description: "s", tags: [] }] }).success).toBe(false);
    expect(AgentCardSchema.safeParse({ ...card, securitySchemes: { x: { type: "http", scheme: "bearer" } } }).success).toBe(false);
    expect(AgentCardSchema.safeParse({ ...card, securitySchemes: { x: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: "t", scopes: {} }, password: { tokenUrl: "t", scopes: {} } } } } } }).success).toBe(false);
  });
});

describe("the error table", () => {
  const A2A: [A2AErrorType, number, number, string][] = [
    ["TaskNotFound", -32001, 404, "TASK_NOT_FOUND"],
    ["TaskNotCancelable", -32002, 400, "TASK_NOT_CANCELABLE"],
    ["PushNotificationNotSupported", -32003, 400, "PUSH_NOTIFICATION_NOT_SUPPORTED"],
    ["UnsupportedOperation", -32004, 400, "UNSUPPORTED_OPERATION"],
    ["ContentTypeNotSupported", -32005, 400, "CONTENT_TYPE_NOT_SUPPORTED"],
    ["InvalidAgentResponse", -32006, 500, "INVALID_AGENT_RESPONSE"],
    ["ExtendedAgentCardNotConfigured", -32007, 400, "EXTENDED_AGENT_CARD_NOT_CONFIGURED"],
    ["ExtensionSupportRequired", -32008, 400, "EXTENSION_SUPPORT_REQUIRED"],
    ["VersionNotSupported", -32009, 400, "VERSION_NOT_SUPPORTED"],
    ["JSONParse", -32700, 400, "PARSE_ERROR"],
    ["InvalidRequest", -32600, 400, "INVALID_REQUEST"],
    ["MethodNotFound", -32601, 404, "METHOD_NOT_FOUND"],
    ["InvalidParams", -32602, 400, "INVALID_PARAMS"],
    ["Internal", -32603, 500, "INTERNAL_ERROR"],
  ];

  it.each(A2A)("%s maps to JSON-RPC %i, HTTP %i, reason %s", (type, code, http, reason) => {
    const error = new A2AError(type, undefined, { taskId: "t1" });
    const rpc = toJsonRpcError(error);
    expect(Object.keys(rpc).sort()).toEqual(["code", "data", "message"]);
    expect(rpc.code).toBe(code);
    expect(rpc.message).toBe(ERRORS[type].message);
    expect(rpc.data).toEqual([{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "a2a-protocol.org", metadata: { taskId: "t1" } }]);
    const rest = toRestError(error);
    expect(rest.error.code).toBe(http);
    expect(rest.error.status).toBe(ERRORS[type].status);
    expect(rest.error.details).toEqual(rpc.data);
  });

  it("adds BadRequest field violations for validation errors, and survives the trip across RPC as data", () => {
    const error = new A2AError("InvalidParams", "bad", undefined, [{ field: "message.parts", description: "needs at least one part" }]);
    const copy = A2AError.fromData(structuredClone(error.toData()));
    expect(toJsonRpcError(copy).data[1]).toEqual({ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "message.parts", description: "needs at least one part" }] });
    expect(copy.message).toBe("bad");
  });
});
