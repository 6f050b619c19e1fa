/** HTTP plumbing shared by both bindings: bounded body reading, the A2A-Version check, JSON responses. */
import { A2AError } from "../protocol/index";

export const SUPPORTED_VERSION = "1.0";
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

const decoder = new TextDecoder();

/**
 * Reads and parses a JSON body without ever holding more than `maxBytes`: the declared length is
 * checked first, and a body without one is counted while it streams. An empty body is `undefined`.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) throw new A2AError("PayloadTooLarge", `Request body exceeds ${maxBytes} bytes`, { limit: String(maxBytes) });
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new A2AError("PayloadTooLarge", `Request body exceeds ${maxBytes} bytes`, { limit: String(maxBytes) });
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  const text = chunks.length === 1 ? decoder.decode(chunks[0]) : decoder.decode(concat(chunks, size));
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new A2AError("JSONParse");
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** JSON media types: application/json, application/a2a+json and any other `+json`. */
export function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** The `A2A-Version` the client asked for (header, else query), or undefined when it named none (= 0.3). */
export function requestedVersion(request: Request, url: URL): string | undefined {
  const raw = request.headers.get("a2a-version") ?? url.searchParams.get("A2A-Version") ?? url.searchParams.get("a2a-version");
  const value = raw?.trim();
  return value ? value : undefined;
}

/**
 * `A2A-Version` from the header or the query, compared as Major.Minor. A missing version means 0.3
 * (spec §3.6.2), which this interface does not serve.
 */
export function checkVersion(request: Request, url: URL): void {
  const value = requestedVersion(request, url) ?? "";
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.\d+)*$/.exec(value);
  const requested = value === "" ? "0.3" : value;
  if (!match || match[1] !== "1" || (match[2] ?? "0") !== "0") {
    throw new A2AError(
      "VersionNotSupported",
      value === ""
        ? "Missing A2A-Version means protocol 0.3, which this agent does not serve; send A2A-Version: 1.0"
        : `A2A-Version ${value} is not supported; this agent serves ${SUPPORTED_VERSION}`,
      { requestedVersion: requested, supportedVersions: SUPPORTED_VERSION },
    );
  }
}

/** HTTP+JSON answers in application/a2a+json only when the client asks for it (see README). */
export function restMediaType(request: Request): string {
  return (request.headers.get("accept") ?? "").toLowerCase().includes("application/a2a+json") ? "application/a2a+json" : "application/json";
}

export function jsonResponse(body: unknown, status: number, mediaType = "application/json", headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set("content-type", mediaType);
  return response;
}
