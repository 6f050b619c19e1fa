/**
 * One HTTP request as the client sends it: `A2A-Version` on every request, the credentials of every
 * provider, after a 401 one refresh-and-retry, and after a rate-limit refusal (`Retry-After`) a wait and
 * a retry. Bodies are strings, so a retry can resend them.
 */
import type { AgentCard } from "../protocol/card";
import type { CredentialProvider } from "./auth";
import { A2AHttpError, invalidResponse } from "./errors";

export const PROTOCOL_VERSION = "1.0";

export type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface HttpOptions {
  fetch: Fetch;
  credentials: CredentialProvider[];
  /** Extra headers on every request (e.g. `A2A-Extensions`). */
  headers?: Record<string, string>;
  /** Waiting out rate limits: how many retries, and the longest `Retry-After` worth waiting for. */
  retryAfter?: RetryAfterOptions | false;
}

export interface RetryAfterOptions {
  /** Default 2. */
  maxRetries?: number;
  /** A longer Retry-After is not waited for: the refusal is returned. Default 30. */
  maxWaitSeconds?: number;
}

export interface HttpRequest {
  method: "GET" | "POST" | "DELETE";
  url: URL;
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export class HttpSession {
  readonly #options: HttpOptions;
  card: AgentCard | undefined;

  constructor(options: HttpOptions) {
    this.#options = options;
  }

  async send(request: HttpRequest): Promise<Response> {
    let response = await this.#attemptWithAuth(request);
    // A rate-limited answer says when to come back: 429 over REST, a JSON-RPC error with the header.
    const retry = this.#options.retryAfter === false ? undefined : this.#options.retryAfter ?? {};
    for (let tries = 0; retry && tries < (retry.maxRetries ?? 2); tries++) {
      const wait = retryAfterSeconds(response.headers.get("retry-after"));
      if (wait === undefined || wait > (retry.maxWaitSeconds ?? 30)) break;
      await response.body?.cancel().catch(() => {});
      await sleep(wait * 1000, request.signal);
      response = await this.#attemptWithAuth(request);
    }
    return response;
  }

  async #attemptWithAuth(request: HttpRequest): Promise<Response> {
    let response = await this.#attempt(request);
    if (response.status === 401) {
      let refreshed = false;
      for (const provider of this.#options.credentials) {
        if (provider.refresh && (await provider.refresh())) refreshed = true;
      }
      if (refreshed) {
        await response.body?.cancel().catch(() => {});
        response = await this.#attempt(request);
      }
    }
    return response;
  }

  async #attempt(request: HttpRequest): Promise<Response> {
    const headers = new Headers(this.#options.headers);
    for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value);
    // A 0.3 transport states its own version; everything else speaks 1.0.
    if (!request.headers?.["a2a-version"]) headers.set("a2a-version", PROTOCOL_VERSION);
    const url = new URL(request.url);
    for (const provider of this.#options.credentials) await provider.apply({ headers, url }, this.card);
    const init: RequestInit = { method: request.method, headers };
    if (request.body !== undefined) init.body = request.body;
    if (request.signal) init.signal = request.signal;
    return this.#options.fetch(url.toString(), init);
  }
}

/** Retry-After as seconds or an HTTP date. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });
}

/** The media type without parameters, lower-cased. */
export function mediaType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

export function isJson(response: Response): boolean {
  const type = mediaType(response);
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** Parses a JSON body; a body that is not JSON is an HTTP error (if the status says so) or an invalid answer. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    if (!response.ok) throw new A2AHttpError(response.status, response.statusText, text, response.url);
    throw invalidResponse(`the body is not JSON (${mediaType(response) || "no content type"})`, response.status);
  }
}
