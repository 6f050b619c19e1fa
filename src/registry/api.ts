/**
 * The registry's HTTP API (docs/registry-openapi.yaml):
 *   GET    /agents        find (public): skill, tag, inputMode, outputMode, q, includeUnhealthy, verified, pageSize, pageToken
 *   GET    /agents/{id}   one entry with its full card (public)
 *   POST   /agents        register or re-register {url, jwksUrl?, jwks?} (writers only)
 *   DELETE /agents/{id}   unregister; or DELETE /agents?url=<agent or card URL> (writers only)
 * Errors are the A2A HTTP+JSON error shape, {"error":{code,status,message,details}}.
 */
import { cors, Router, type IRequest } from "itty-router";
import { A2AError, toRestError } from "../protocol/index";
import { challengeOf } from "../server/auth";
import { isJsonMediaType, jsonResponse, readJsonBody } from "../server/http";
import { authenticateWriter } from "./auth";
import { registryStub, type RegistryEnv } from "./env";
import { findAgents, queryFromParams } from "./find";
import { registerAgent, unregisterAgent } from "./register";

export const AGENTS_PATH = "/agents";
const MAX_BODY_BYTES = 64 * 1024;

/** True for the paths this API answers; everything else is the registry's own A2A agent. */
export function isRegistryPath(pathname: string): boolean {
  return pathname === AGENTS_PATH || pathname.startsWith(`${AGENTS_PATH}/`);
}

// The registry holds public data and takes bearer tokens (no cookies), so any origin may call it.
const { preflight, corsify } = cors({
  origin: "*",
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  allowHeaders: ["content-type", "authorization", "a2a-version"],
  exposeHeaders: ["location", "www-authenticate"],
  maxAge: 86400,
});

type Args = [env: RegistryEnv];

const router = Router<IRequest, Args>({
  before: [preflight],
  catch: (error) => errorResponse(error instanceof A2AError ? error : internal(error)),
  finally: [corsify],
});

router.get(AGENTS_PATH, async (request, env) => jsonResponse(await findAgents(env, queryFromParams(new URL(request.url).searchParams)), 200));

router.get(`${AGENTS_PATH}/:id`, async (request, env) => {
  const record = await registryStub(env).get(request.params.id ?? "");
  return record ? jsonResponse(record, 200) : notFound(request.params.id ?? "");
});

router.post(AGENTS_PATH, async (request, env) => {
  const writer = await authenticateWriter(request as unknown as Request, env);
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw new A2AError("UnsupportedMediaType", "Content-Type must be application/json");
  }
  const body = await readJsonBody(request as unknown as Request, MAX_BODY_BYTES);
  const result = await registerAgent(env, body, writer.id);
  const location = new URL(`${AGENTS_PATH}/${result.agent.id}`, request.url).href;
  return jsonResponse(result, result.created ? 201 : 200, "application/json", { location });
});

router.delete(AGENTS_PATH, async (request, env) => {
  await authenticateWriter(request as unknown as Request, env);
  const url = new URL(request.url).searchParams.get("url");
  if (!url) throw new A2AError("InvalidParams", "Invalid parameters: url is required (or DELETE /agents/{id})", undefined, [{ field: "url", description: "is required" }]);
  return (await unregisterAgent(env, { url })) ? new Response(null, { status: 204 }) : notFound(url);
});

router.delete(`${AGENTS_PATH}/:id`, async (request, env) => {
  await authenticateWriter(request as unknown as Request, env);
  const id = request.params.id ?? "";
  return (await unregisterAgent(env, { id })) ? new Response(null, { status: 204 }) : notFound(id);
});

router.all("*", (request) => errorResponse(new A2AError("MethodNotAllowed", `${request.method} is not allowed on ${new URL(request.url).pathname}`)));

export function handleRegistryApi(request: Request, env: RegistryEnv): Promise<Response> {
  return router.fetch(request, env) as Promise<Response>;
}

function errorResponse(error: A2AError): Response {
  const response = jsonResponse(toRestError(error), error.spec.http);
  const challenge = challengeOf(error);
  if (challenge) response.headers.set("www-authenticate", challenge);
  return response;
}

/** 404 in the same shape, with the registry's own reason. */
function notFound(what: string): Response {
  const body = toRestError(new A2AError("TaskNotFound", `No agent ${what} is registered`));
  const info = body.error.details[0];
  if (info) {
    info.reason = "AGENT_NOT_FOUND";
    info.domain = "a2a-edge.registry";
  }
  return jsonResponse(body, 404);
}

function internal(error: unknown): A2AError {
  console.error("registry: unexpected error:", error);
  return new A2AError("Internal");
}
