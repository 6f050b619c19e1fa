/**
 * What can go wrong when talking to an agent, as three distinct kinds:
 * - `A2AClientError` (an `A2AError`): the agent refused the request with an A2A error — code, reason and
 *   HTTP status as the agent sent them. A FAILED task is not an error: it is data.
 * - `A2AHttpError`: an HTTP failure that carries no A2A error (a proxy's 502 page, a 401 without a body).
 * - `A2AStreamError`: a stream was cut and could not be resumed within the retry limit.
 * Network failures from `fetch` itself (TypeError) pass through unchanged.
 */
import { A2AError, ERRORS, type A2AErrorType, type FieldViolation } from "../protocol/errors";

export interface A2AClientErrorInit {
  type: A2AErrorType;
  message: string;
  /** The JSON-RPC code; over HTTP+JSON, the code the error table gives the reason. */
  code: number;
  /** `ErrorInfo.reason`, e.g. `TASK_NOT_FOUND`: the most precise key to branch on. */
  reason: string;
  /** The HTTP status of the response that carried the error (200 for JSON-RPC errors). */
  httpStatus: number;
  metadata?: Record<string, string>;
  violations?: FieldViolation[];
  /** The error's `details` / `data` array, as received. */
  details?: unknown[];
}

/** An A2A error the agent answered with. `type` is our name for it (`"Internal"` when the agent's code is unknown to us). */
export class A2AClientError extends A2AError {
  readonly code: number;
  readonly reason: string;
  readonly httpStatus: number;
  readonly details: unknown[];

  constructor(init: A2AClientErrorInit) {
    super(init.type, init.message, init.metadata, init.violations);
    this.name = "A2AClientError";
    this.code = init.code;
    this.reason = init.reason;
    this.httpStatus = init.httpStatus;
    this.details = init.details ?? [];
  }
}

/** An HTTP answer that is not an A2A answer. */
export class A2AHttpError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string, url: string) {
    super(`HTTP ${status}${statusText ? ` ${statusText}` : ""} from ${url}${body ? `: ${body.slice(0, 200)}` : ""}`);
    this.name = "A2AHttpError";
    this.status = status;
    this.body = body;
  }
}

/** A stream that ended before its task settled and could not be resumed. */
export class A2AStreamError extends Error {
  readonly taskId: string | undefined;
  readonly lastEventId: string | undefined;

  constructor(message: string, taskId: string | undefined, lastEventId: string | undefined, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "A2AStreamError";
    this.taskId = taskId;
    this.lastEventId = lastEventId;
  }
}

const BY_REASON = new Map<string, A2AErrorType>();
const BY_CODE = new Map<number, A2AErrorType>();
for (const [type, spec] of Object.entries(ERRORS) as [A2AErrorType, (typeof ERRORS)[A2AErrorType]][]) {
  if (!BY_REASON.has(spec.reason)) BY_REASON.set(spec.reason, type);
  if (!BY_CODE.has(spec.code)) BY_CODE.set(spec.code, type);
}

interface Details {
  reason?: string;
  metadata?: Record<string, string>;
  violations?: FieldViolation[];
}

function readDetails(details: unknown): Details {
  const out: Details = {};
  if (!Array.isArray(details)) return out;
  for (const item of details) {
    if (item === null || typeof item !== "object") continue;
    const detail = item as Record<string, unknown>;
    const kind = typeof detail["@type"] === "string" ? detail["@type"] : "";
    if (kind.endsWith("google.rpc.ErrorInfo") || (kind === "" && typeof detail.reason === "string")) {
      if (typeof detail.reason === "string" && out.reason === undefined) out.reason = detail.reason;
      if (detail.metadata && typeof detail.metadata === "object") {
        out.metadata = Object.fromEntries(Object.entries(detail.metadata as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
      }
    } else if (kind.endsWith("google.rpc.BadRequest") && Array.isArray(detail.fieldViolations)) {
      out.violations = (detail.fieldViolations as Record<string, unknown>[]).map((v) => ({
        field: String(v.field ?? ""),
        description: String(v.description ?? ""),
      }));
    }
  }
  return out;
}

/** A JSON-RPC `error` member. */
export function fromJsonRpcError(error: unknown, httpStatus: number): A2AClientError {
  const e = (error && typeof error === "object" ? error : {}) as Record<string, unknown>;
  const code = typeof e.code === "number" ? e.code : ERRORS.Internal.code;
  const details = readDetails(e.data);
  const type = (details.reason && BY_REASON.get(details.reason)) || BY_CODE.get(code) || "Internal";
  return new A2AClientError({
    type,
    code,
    reason: details.reason ?? ERRORS[type].reason,
    message: typeof e.message === "string" ? e.message : ERRORS[type].message,
    httpStatus,
    metadata: details.metadata,
    violations: details.violations,
    details: Array.isArray(e.data) ? e.data : e.data === undefined ? [] : [e.data],
  });
}

/**
 * An HTTP+JSON error body: `{"error":{code,status,message,details}}` (§11.6), or the legacy RFC 7807
 * problem+json shape. Undefined when the body is neither.
 */
export function fromRestError(body: unknown, httpStatus: number): A2AClientError | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  if (record.error && typeof record.error === "object") {
    const e = record.error as Record<string, unknown>;
    const details = readDetails(e.details);
    const type = (details.reason && BY_REASON.get(details.reason)) || byHttpStatus(httpStatus);
    return new A2AClientError({
      type,
      code: ERRORS[type].code,
      reason: details.reason ?? (typeof e.status === "string" ? e.status : ERRORS[type].reason),
      message: typeof e.message === "string" ? e.message : ERRORS[type].message,
      httpStatus,
      metadata: details.metadata,
      violations: details.violations,
      details: Array.isArray(e.details) ? e.details : [],
    });
  }
  if (typeof record.title === "string" || typeof record.detail === "string") {
    const type = byHttpStatus(httpStatus);
    const message = [record.title, record.detail].filter((s) => typeof s === "string").join(": ");
    return new A2AClientError({ type, code: ERRORS[type].code, reason: ERRORS[type].reason, message, httpStatus });
  }
  return undefined;
}

/** Without an ErrorInfo only the status is left, and several errors share 400. */
function byHttpStatus(status: number): A2AErrorType {
  if (status === 404) return "TaskNotFound";
  if (status === 413) return "PayloadTooLarge";
  if (status === 415) return "UnsupportedMediaType";
  if (status === 405) return "MethodNotAllowed";
  if (status >= 400 && status < 500) return "InvalidRequest";
  return "Internal";
}

/** A response that is neither a valid result nor an A2A error. */
export function invalidResponse(what: string, httpStatus: number): A2AClientError {
  const spec = ERRORS.InvalidAgentResponse;
  return new A2AClientError({ type: "InvalidAgentResponse", code: spec.code, reason: spec.reason, message: `Invalid agent response: ${what}`, httpStatus });
}
