/**
 * The Worker's fetch handler: one router for the Agent Card, the JSON-RPC endpoint and the HTTP+JSON
 * routes, with CORS on every answer. Whatever happens, the answer is an A2A error, never a crash.
 */
import { cors, Router, type IRequest } from "itty-router";
import { ANONYMOUS, type AgentDefinition } from "../agent/types";
import { handleJsonRpc } from "../bindings/jsonrpc";
import { registerRestRoutes, restError, type RouteArgs } from "../bindings/rest";
import { envNumber, pushEnabled, type A2AEnv } from "../env";
import { JWKS_PATH, loadSigner } from "../push/signing";
import { A2AError } from "../protocol/index";
import { CardEndpoint } from "./card";
import type { CallContext } from "./handler";
import { DEFAULT_MAX_BODY_BYTES } from "./http";

export const AGENT_CARD_PATH = "/.well-known/agent-card.json";
export const JSONRPC_PATH = "/";

export interface AgentWorker {
  fetch(request: Request, env: A2AEnv, ctx?: ExecutionContext): Promise<Response>;
}

export function createWorker(definition: AgentDefinition): AgentWorker {
  const card = new CardEndpoint(definition);
  const { preflight, corsify } = cors({
    origin: "*",
    allowMethods: ["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
    allowHeaders: ["content-type", "authorization", "a2a-version", "a2a-extensions", "last-event-id", "x-api-key", "if-none-match"],
    exposeHeaders: ["etag", "last-modified", "cache-control", "a2a-version", "a2a-extensions", "retry-after", "www-authenticate"],
    maxAge: 86400,
  });
  const router = Router<IRequest, RouteArgs>({
    before: [preflight],
    catch: (error, request) => restError(request as unknown as Request, error instanceof A2AError ? error : internal(error)),
    finally: [corsify],
  });

  const cardRoute = (request: IRequest, cx: CallContext) => card.respond(request as unknown as Request, cx.baseUrl, pushEnabled(cx.env));
  router.get(AGENT_CARD_PATH, cardRoute);
  router.head(AGENT_CARD_PATH, cardRoute);
  // The public keys that verify our push notifications' signatures.
  router.get(JWKS_PATH, async (_request, cx: CallContext) => {
    const signer = loadSigner(cx.env);
    const body = signer ? (await signer).jwks : { keys: [] };
    return new Response(JSON.stringify(body), { headers: { "content-type": "application/json", "cache-control": "public, max-age=300" } });
  });
  router.post(JSONRPC_PATH, (request, cx, maxBodyBytes) =>
    handleJsonRpc(request as unknown as Request, new URL(request.url), cx, maxBodyBytes));
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
      const cx: CallContext = { env, definition, caller: ANONYMOUS, baseUrl };
      const maxBodyBytes = envNumber(env.MAX_BODY_BYTES, definition.options?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      try {
        const response = (await router.fetch(normalizeColons(request), cx, maxBodyBytes)) as Response | undefined;
        return response ?? restError(request, new A2AError("MethodNotFound"));
      } catch (error) {
        return restError(request, internal(error));
      }
    },
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
