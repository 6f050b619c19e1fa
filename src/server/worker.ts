/**
 * The Worker's fetch handler: one router for the Agent Card, the JSON-RPC endpoint and the HTTP+JSON
 * routes, with CORS on every answer. Whatever happens, the answer is an A2A error, never a crash.
 */
import { cors, Router, type IRequest } from "itty-router";
import { ANONYMOUS, type AgentDefinition } from "../agent/types";
import { handleJsonRpc } from "../bindings/jsonrpc";
import { registerRestRoutes, restError, type RouteArgs } from "../bindings/rest";
import { registerRestV03Routes } from "../compat/v03";
import { envNumber, pushEnabled, type A2AEnv } from "../env";
import { JWKS_PATH, loadSigner } from "../push/signing";
import { A2AError, toJsonRpcError } from "../protocol/index";
import { audit } from "../audit";
import { consoleEnabled, isConsoleRequest, serveConsole } from "../console/route";
import { Authenticator, challengeOf } from "./auth";
import { health, HEALTH_PATH } from "./health";
import { CardEndpoint } from "./card";
import type { CallContext } from "./handler";
import { DEFAULT_MAX_BODY_BYTES, jsonResponse } from "./http";

export const AGENT_CARD_PATH = "/.well-known/agent-card.json";
export const JSONRPC_PATH = "/";

export interface AgentWorker {
  fetch(request: Request, env: A2AEnv, ctx?: ExecutionContext): Promise<Response>;
}

const CORS_ALLOW_HEADERS = ["content-type", "authorization", "a2a-version", "a2a-extensions", "last-event-id", "x-api-key", "if-none-match"];
const CORS_EXPOSE_HEADERS = "etag, last-modified, cache-control, a2a-version, a2a-extensions, retry-after, www-authenticate";

export function createWorker(definition: AgentDefinition): AgentWorker {
  const card = new CardEndpoint(definition);
  const auth = new Authenticator(definition);
  // The card and the JWKS are public to every origin; the API only to the origins configured.
  const { preflight, corsify } = cors({
    origin: (origin: string) => (origin && allowedOrigin(origin, currentOrigins) ? origin : undefined),
    allowMethods: ["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
    allowHeaders: CORS_ALLOW_HEADERS,
    exposeHeaders: CORS_EXPOSE_HEADERS,
    maxAge: 86400,
  });
  let currentOrigins: string[] = [];

  /** Authenticates every A2A operation before any dispatch; the card and the keys stay public. */
  const authenticate = async (request: IRequest, cx: CallContext): Promise<Response | undefined> => {
    if (request.method === "OPTIONS") return undefined;
    const { pathname } = new URL(request.url);
    if (pathname === AGENT_CARD_PATH || pathname === JWKS_PATH || pathname === HEALTH_PATH) return undefined;
    // The console's page and files are public (when it is on); the API calls it makes are not.
    if (isConsoleRequest(request as unknown as Request) && consoleEnabled(cx.env, definition)) return undefined;
    try {
      cx.caller = await auth.authenticate(request as unknown as Request, cx.env);
      return undefined;
    } catch (error) {
      if (!(error instanceof A2AError)) throw error;
      cx.audit.operation ??= "authenticate";
      cx.audit.outcome = error.spec.reason;
      const response = isJsonRpc(request as unknown as Request)
        ? jsonResponse({ jsonrpc: "2.0", id: null, error: toJsonRpcError(error) }, error.spec.http)
        : restError(request as unknown as Request, error);
      const challenge = challengeOf(error);
      if (challenge) response.headers.set("www-authenticate", challenge);
      return response;
    }
  };

  const router = Router<IRequest, RouteArgs>({
    before: [preflight, authenticate],
    catch: (error, request) => restError(request as unknown as Request, error instanceof A2AError ? error : internal(error)),
    finally: [corsify],
  });

  const cardRoute = (request: IRequest, cx: CallContext) => card.respond(request as unknown as Request, cx.baseUrl, cx.env);
  router.get(HEALTH_PATH, (_request, cx: CallContext) => health(cx.env));
  router.get(AGENT_CARD_PATH, cardRoute);
  router.head(AGENT_CARD_PATH, cardRoute);
  // The public keys that verify our push notifications' signatures.
  router.get(JWKS_PATH, async (_request, cx: CallContext) => {
    const signer = loadSigner(cx.env);
    const body = signer ? (await signer).jwks : { keys: [] };
    return new Response(JSON.stringify(body), { headers: { "content-type": "application/json", "cache-control": "public, max-age=300", "access-control-allow-origin": "*" } });
  });
  router.post(JSONRPC_PATH, (request, cx, maxBodyBytes) =>
    handleJsonRpc(request as unknown as Request, new URL(request.url), cx, maxBodyBytes));
  // The web console (GET / and its files), when enabled; otherwise these fall through like unknown routes.
  const consoleRoute = (request: IRequest, cx: CallContext) =>
    consoleEnabled(cx.env, definition) ? serveConsole(request as unknown as Request, cx.baseUrl) : undefined;
  router.get("/", consoleRoute);
  router.get("/console/:file", consoleRoute);
  registerRestV03Routes(router as never);
  registerRestRoutes(router as never);
  router.all("*", (request) => {
    const pathname = new URL(request.url).pathname;
    const otherMethod = router.routes.some(([method, pattern]) => method !== request.method && method !== "ALL" && pattern.test(pathname));
    return restError(request as unknown as Request, otherMethod
      ? new A2AError("MethodNotAllowed", `${request.method} is not allowed on ${pathname}`)
      : new A2AError("MethodNotFound", `No A2A operation at ${request.method} ${pathname}`));
  });

  return {
    async fetch(request, env) {
      const baseUrl = env.PUBLIC_BASE_URL ?? definition.options?.publicBaseUrl ?? new URL(request.url).origin;
      const started = Date.now();
      const cx: CallContext = { env, definition, caller: ANONYMOUS, baseUrl, extensions: requestedExtensions(request, definition), audit: {} };
      const maxBodyBytes = envNumber(env.MAX_BODY_BYTES, definition.options?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      currentOrigins = corsOrigins(env, definition);
      try {
        const response = ((await router.fetch(normalizeColons(request), cx, maxBodyBytes)) as Response | undefined)
          ?? restError(request, new A2AError("MethodNotFound"));
        if (response.headers.has("access-control-allow-origin") && response.status !== 204) {
          response.headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS);
        }
        if (cx.extensions.active.length) response.headers.set("a2a-extensions", cx.extensions.active.join(", "));
        auditRequest(request, response, cx, started);
        return response;
      } catch (error) {
        return restError(request, internal(error));
      }
    },
  };
}

/** One audit line per A2A request (the card, the keys and health checks are not audited). */
function auditRequest(request: Request, response: Response, cx: CallContext, started: number): void {
  const { operation, outcome, taskId, tenant } = cx.audit;
  if (!operation) return;
  audit(cx.env, { tenant: tenant ?? "", caller: cx.caller.id }, {
    event: "request", operation, binding: isJsonRpc(request) ? "jsonrpc" : "rest",
    outcome: outcome ?? (response.ok ? "ok" : `HTTP ${response.status}`), status: response.status, latencyMs: Date.now() - started,
    ...(taskId ? { taskId } : {}),
  });
}

function isJsonRpc(request: Request): boolean {
  return request.method === "POST" && /^\/+$/.test(new URL(request.url).pathname);
}

/** Allowed browser origins for the API: CORS_ORIGINS ("*" or a comma list), else options.corsOrigins, else none. */
function corsOrigins(env: A2AEnv, definition: AgentDefinition): string[] {
  if (env.CORS_ORIGINS !== undefined) return env.CORS_ORIGINS.split(",").map((o) => o.trim()).filter(Boolean);
  return definition.options?.corsOrigins ?? [];
}

function allowedOrigin(origin: string, allowed: string[]): boolean {
  return allowed.includes("*") || allowed.includes(origin);
}

/**
 * The extensions the client asked for (`A2A-Extensions`, or 0.3's `X-A2A-Extensions`) that this agent
 * declares, and the required ones it did not ask for.
 */
function requestedExtensions(request: Request, definition: AgentDefinition): CallContext["extensions"] {
  const declared = definition.card.capabilities?.extensions ?? [];
  if (!declared.length) return { active: [], missingRequired: [] };
  const header = request.headers.get("a2a-extensions") ?? request.headers.get("x-a2a-extensions") ?? "";
  const requested = new Set(header.split(",").map((uri) => uri.trim()).filter(Boolean));
  const uris = declared.filter((e) => e.uri).map((e) => ({ uri: e.uri!, required: e.required === true }));
  return {
    active: uris.filter((e) => requested.has(e.uri)).map((e) => e.uri),
    missingRequired: uris.filter((e) => e.required && !requested.has(e.uri)).map((e) => e.uri),
  };
}

/** Clients may percent-encode the colon of custom verbs (`/message%3Asend`); the router needs it plain. */
function normalizeColons(request: Request): Request {
  const { pathname } = new URL(request.url);
  return /%3a/i.test(pathname) ? new Request(request.url.replace(/%3a/gi, ":"), request) : request;
}

function internal(error: unknown): A2AError {
  console.error("unexpected error:", error);
  return new A2AError("Internal");
}
