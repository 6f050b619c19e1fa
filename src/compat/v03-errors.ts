/**
 * Errors for 0.3 callers (reference §8.1 #6): plain JSON-RPC errors `{code, message}` with the 0.3
 * codes -32001…-32007 and the standard ones; 0.3 has no ExtensionSupportRequired (-32008) or
 * VersionNotSupported (-32009), which become -32600 and -32004. Over HTTP+JSON the same object is the
 * whole body, with the HTTP status of the v1.0 table (what the 0.3 SDK clients parse).
 */
import { A2AError, ERRORS, type A2AErrorType } from "../protocol/index";
import { jsonResponse } from "../server/http";

export interface V03Error {
  code: number;
  message: string;
}

const CODE_OVERRIDES: Partial<Record<A2AErrorType, number>> = {
  ExtensionSupportRequired: -32600,
  VersionNotSupported: -32004,
};

export function toV03Error(error: A2AError): V03Error {
  return { code: CODE_OVERRIDES[error.type] ?? error.spec.code, message: error.message };
}

export function asA2AError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  console.error("unexpected error:", error);
  return new A2AError("Internal");
}

/** A 0.3 HTTP+JSON error answer: the HTTP status of the error table, `{code, message}` as the body. */
export function v03RestError(error: A2AError): Response {
  return jsonResponse(toV03Error(error), error.spec.http);
}

const BY_REASON = new Map<string, A2AErrorType>(Object.entries(ERRORS).map(([type, spec]) => [spec.reason, type as A2AErrorType]));

/**
 * The error a v1.0 `event: error` frame carries (JSON-RPC `{error:{code,message,data}}` or HTTP+JSON
 * `{error:{code,status,message,details}}`), recognized by its ErrorInfo reason, else by its code.
 */
export function errorOfV1Payload(payload: unknown): A2AError {
  const error = (payload as { error?: { code?: unknown; message?: unknown; data?: unknown; details?: unknown } } | null)?.error;
  if (!error) return new A2AError("Internal");
  const infos = (Array.isArray(error.details) ? error.details : Array.isArray(error.data) ? error.data : []) as { reason?: unknown }[];
  const reason = infos.find((info) => typeof info?.reason === "string")?.reason as string | undefined;
  const message = typeof error.message === "string" ? error.message : undefined;
  const type = (reason ? BY_REASON.get(reason) : undefined)
    ?? (Object.entries(ERRORS).find(([, spec]) => spec.code === error.code)?.[0] as A2AErrorType | undefined)
    ?? "Internal";
  return new A2AError(type, message);
}
