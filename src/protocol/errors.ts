/**
 * The one error table (reference §5, v1.0.1 column): every A2A error and standard JSON-RPC error with its
 * JSON-RPC code, HTTP status, canonical status name and ErrorInfo reason, and the two wire shapes.
 */

export const ERROR_DOMAIN = "a2a-protocol.org";

interface ErrorSpec {
  readonly code: number;
  readonly http: number;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

export const ERRORS = {
  TaskNotFound: { code: -32001, http: 404, status: "NOT_FOUND", reason: "TASK_NOT_FOUND", message: "Task not found" },
  TaskNotCancelable: { code: -32002, http: 400, status: "FAILED_PRECONDITION", reason: "TASK_NOT_CANCELABLE", message: "Task cannot be canceled" },
  PushNotificationNotSupported: { code: -32003, http: 400, status: "FAILED_PRECONDITION", reason: "PUSH_NOTIFICATION_NOT_SUPPORTED", message: "Push notifications are not supported" },
  UnsupportedOperation: { code: -32004, http: 400, status: "FAILED_PRECONDITION", reason: "UNSUPPORTED_OPERATION", message: "This operation is not supported" },
  ContentTypeNotSupported: { code: -32005, http: 400, status: "INVALID_ARGUMENT", reason: "CONTENT_TYPE_NOT_SUPPORTED", message: "Incompatible content types" },
  InvalidAgentResponse: { code: -32006, http: 500, status: "INTERNAL", reason: "INVALID_AGENT_RESPONSE", message: "Invalid agent response" },
  ExtendedAgentCardNotConfigured: { code: -32007, http: 400, status: "FAILED_PRECONDITION", reason: "EXTENDED_AGENT_CARD_NOT_CONFIGURED", message: "Extended agent card is not configured" },
  ExtensionSupportRequired: { code: -32008, http: 400, status: "FAILED_PRECONDITION", reason: "EXTENSION_SUPPORT_REQUIRED", message: "A required extension was not requested" },
  VersionNotSupported: { code: -32009, http: 400, status: "FAILED_PRECONDITION", reason: "VERSION_NOT_SUPPORTED", message: "Protocol version not supported" },
  JSONParse: { code: -32700, http: 400, status: "INVALID_ARGUMENT", reason: "PARSE_ERROR", message: "Invalid JSON payload" },
  InvalidRequest: { code: -32600, http: 400, status: "INVALID_ARGUMENT", reason: "INVALID_REQUEST", message: "Request payload validation error" },
  MethodNotFound: { code: -32601, http: 404, status: "NOT_FOUND", reason: "METHOD_NOT_FOUND", message: "Method not found" },
  InvalidParams: { code: -32602, http: 400, status: "INVALID_ARGUMENT", reason: "INVALID_PARAMS", message: "Invalid parameters" },
  Internal: { code: -32603, http: 500, status: "INTERNAL", reason: "INTERNAL_ERROR", message: "Internal error" },
  // HTTP-level refusals.
  PayloadTooLarge: { code: -32600, http: 413, status: "INVALID_ARGUMENT", reason: "PAYLOAD_TOO_LARGE", message: "Request body is too large" },
  // The conformance kit expects -32005 for a JSON-RPC body that is not JSON; REST says 415.
  UnsupportedMediaType: { code: -32005, http: 415, status: "INVALID_ARGUMENT", reason: "CONTENT_TYPE_NOT_SUPPORTED", message: "Content-Type must be application/json or application/a2a+json" },
  // Authentication and authorization, answered before any dispatch (reference §4.13, §9 #27).
  Unauthenticated: { code: -32600, http: 401, status: "UNAUTHENTICATED", reason: "UNAUTHENTICATED", message: "Authentication required" },
  PermissionDenied: { code: -32600, http: 403, status: "PERMISSION_DENIED", reason: "PERMISSION_DENIED", message: "Permission denied" },
  RateLimited: { code: -32600, http: 429, status: "RESOURCE_EXHAUSTED", reason: "RATE_LIMIT_EXCEEDED", message: "Too many requests" },
  LimitExceeded: { code: -32600, http: 429, status: "RESOURCE_EXHAUSTED", reason: "LIMIT_EXCEEDED", message: "A limit was exceeded" },
  MethodNotAllowed: { code: -32601, http: 405, status: "UNIMPLEMENTED", reason: "METHOD_NOT_ALLOWED", message: "HTTP method not allowed on this path" },
} as const satisfies Record<string, ErrorSpec>;

export type A2AErrorType = keyof typeof ERRORS;

/** A field that failed validation (google.rpc.BadRequest.FieldViolation). */
export interface FieldViolation {
  field: string;
  description: string;
}

/** The plain data of an error: what crosses RPC between the Worker and the objects. */
export interface A2AErrorData {
  type: A2AErrorType;
  message?: string;
  metadata?: Record<string, string>;
  violations?: FieldViolation[];
}

export class A2AError extends Error {
  readonly type: A2AErrorType;
  readonly metadata: Record<string, string> | undefined;
  readonly violations: FieldViolation[] | undefined;

  constructor(type: A2AErrorType, message?: string, metadata?: Record<string, string>, violations?: FieldViolation[]) {
    super(message ?? ERRORS[type].message);
    this.name = "A2AError";
    this.type = type;
    this.metadata = metadata;
    this.violations = violations;
  }

  get spec(): ErrorSpec {
    return ERRORS[this.type];
  }

  toData(): A2AErrorData {
    return { type: this.type, message: this.message, metadata: this.metadata, violations: this.violations };
  }

  static fromData(data: A2AErrorData): A2AError {
    return new A2AError(data.type, data.message, data.metadata, data.violations);
  }
}

/** ErrorInfo (and BadRequest, for validation errors) in the ProtoJSON `Any` form. */
export function errorDetails(error: A2AError): Record<string, unknown>[] {
  const info: Record<string, unknown> = {
    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
    reason: error.spec.reason,
    domain: ERROR_DOMAIN,
  };
  if (error.metadata) info.metadata = error.metadata;
  const details = [info];
  if (error.violations?.length) {
    details.push({ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: error.violations });
  }
  return details;
}

/** JSON-RPC `error` member: code, message, data = the ErrorInfo array. */
export function toJsonRpcError(error: A2AError): { code: number; message: string; data: Record<string, unknown>[] } {
  return { code: error.spec.code, message: error.message, data: errorDetails(error) };
}

/** HTTP+JSON error body: {"error":{code,status,message,details}}. */
export function toRestError(error: A2AError): { error: { code: number; status: string; message: string; details: Record<string, unknown>[] } } {
  return { error: { code: error.spec.http, status: error.spec.status, message: error.message, details: errorDetails(error) } };
}
