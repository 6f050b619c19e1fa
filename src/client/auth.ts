/**
 * Credential providers: each puts its credentials on an outgoing request. After a 401 the client asks
 * every provider that can to `refresh()` and retries the request once.
 *
 *   bearer("token")                                   // a fixed token
 *   bearer(async ({ refresh }) => getToken(refresh))  // a token source, asked again after a 401
 *   apiKey("key")                                     // where the card's apiKeySecurityScheme says
 */
import type { AgentCard } from "../protocol/card";

/** What a provider may change: the request's headers and URL (for query-string keys). */
export interface OutgoingRequest {
  headers: Headers;
  url: URL;
}

export interface CredentialProvider {
  /** Adds credentials to the request. `card` is the agent's card once it is known. */
  apply(request: OutgoingRequest, card: AgentCard | undefined): void | Promise<void>;
  /** Called after a 401: get fresh credentials; true if a retry could now succeed. */
  refresh?(): boolean | Promise<boolean>;
}

/** A token, or a function that returns one; `refresh: true` asks it for a fresh one (after a 401). */
export type TokenSource = string | ((options: { refresh: boolean }) => string | Promise<string>);

function tokenCache(source: TokenSource) {
  let current: Promise<string> | undefined;
  return {
    get(): Promise<string> {
      if (typeof source === "string") return Promise.resolve(source);
      return (current ??= Promise.resolve(source({ refresh: false })));
    },
    async refresh(): Promise<boolean> {
      if (typeof source === "string") return false;
      const before = current ? await current.catch(() => undefined) : undefined;
      current = Promise.resolve(source({ refresh: true }));
      return (await current) !== before;
    },
  };
}

/** `Authorization: Bearer <token>`. */
export function bearer(source: TokenSource): CredentialProvider {
  const token = tokenCache(source);
  return {
    async apply(request) {
      request.headers.set("authorization", `Bearer ${await token.get()}`);
    },
    refresh: () => token.refresh(),
  };
}

export interface ApiKeyOptions {
  /** Header, query parameter or cookie name; default: the card's apiKeySecurityScheme, else `X-API-Key`. */
  name?: string;
  location?: "header" | "query" | "cookie";
  /** Which of the card's security schemes to follow, when it declares several API keys. */
  scheme?: string;
}

/** An API key placed where the card's `apiKeySecurityScheme` says (header, query or cookie). */
export function apiKey(source: TokenSource, options: ApiKeyOptions = {}): CredentialProvider {
  const key = tokenCache(source);
  return {
    async apply(request, card) {
      const declared = apiKeyScheme(card, options.scheme);
      const name = options.name ?? declared?.name ?? "X-API-Key";
      const location = options.location ?? declared?.location ?? "header";
      const value = await key.get();
      if (location === "query") request.url.searchParams.set(name, value);
      else if (location === "cookie") {
        const cookie = request.headers.get("cookie");
        request.headers.set("cookie", `${cookie ? `${cookie}; ` : ""}${name}=${encodeURIComponent(value)}`);
      } else request.headers.set(name, value);
    },
    refresh: () => key.refresh(),
  };
}

function apiKeyScheme(card: AgentCard | undefined, wanted: string | undefined) {
  const schemes = card?.securitySchemes ?? {};
  for (const [name, scheme] of Object.entries(schemes)) {
    if (wanted !== undefined && name !== wanted) continue;
    if (scheme.apiKeySecurityScheme) return scheme.apiKeySecurityScheme;
  }
  return undefined;
}

/** Fixed extra headers, e.g. `A2A-Extensions`, or a custom auth header. */
export function headers(values: Record<string, string>): CredentialProvider {
  return {
    apply(request) {
      for (const [name, value] of Object.entries(values)) request.headers.set(name, value);
    },
  };
}
