/**
 * Who may register and unregister: `Authorization: Bearer <REGISTRY_ADMIN_TOKEN>` (a secret), or — when
 * REGISTRY_JWT_AUDIENCE and keys are configured — a JWT with the scope REGISTRY_JWT_SCOPE
 * (default `registry:write`), verified by the agents' own card-driven Authenticator. Finding is public.
 */
import type { JSONWebKeySet } from "jose";
import type { JwtVerification, Principal } from "../agent/types";
import type { A2AEnv } from "../env";
import { A2AError } from "../protocol/index";
import { Authenticator, CHALLENGE } from "../server/auth";
import type { RegistryEnv } from "./env";

const SCHEME = "registryWriter";
const REALM = `Bearer realm="a2a-registry"`;

function jwtConfigured(env: RegistryEnv): boolean {
  return Boolean(env.REGISTRY_JWT_AUDIENCE && (env.REGISTRY_JWKS_URL || env.REGISTRY_JWKS));
}

function jwtVerification(env: RegistryEnv): JwtVerification {
  const options: JwtVerification = { audience: env.REGISTRY_JWT_AUDIENCE ?? "" };
  if (env.REGISTRY_JWKS) options.keys = JSON.parse(env.REGISTRY_JWKS) as JSONWebKeySet;
  else if (env.REGISTRY_JWKS_URL) options.jwksUrl = env.REGISTRY_JWKS_URL;
  if (env.REGISTRY_JWT_ISSUER) options.issuer = env.REGISTRY_JWT_ISSUER;
  return options;
}

/** One Authenticator per scope, built like an agent's from a card that declares one Bearer scheme. */
const authenticators = new Map<string, Authenticator>();
function jwtAuthenticator(scope: string): Authenticator {
  let auth = authenticators.get(scope);
  if (!auth) {
    auth = new Authenticator({
      card: {
        name: "registry writers", description: "Who may register agents", version: "1", skills: [],
        securitySchemes: { [SCHEME]: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } } },
        securityRequirements: [{ schemes: { [SCHEME]: { list: [scope] } } }],
      },
      execute: () => {},
      auth: { [SCHEME]: { jwt: (env: A2AEnv) => jwtVerification(env as RegistryEnv) } },
    });
    authenticators.set(scope, auth);
  }
  return auth;
}

/** The writer, or Unauthenticated (401) / PermissionDenied (403) carrying its WWW-Authenticate challenge. */
export async function authenticateWriter(request: Request, env: RegistryEnv): Promise<Principal> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  const adminToken = env.REGISTRY_ADMIN_TOKEN;
  if (!adminToken && !jwtConfigured(env)) {
    throw challenge(new A2AError("PermissionDenied", "Registration is closed: the registry has no REGISTRY_ADMIN_TOKEN (and no JWT writers) configured"), REALM);
  }
  if (token === undefined) {
    throw challenge(new A2AError("Unauthenticated", "Authentication required: send Authorization: Bearer <registry admin token>"), REALM);
  }
  if (adminToken && (await sameSecret(token, adminToken))) return { id: "admin", scheme: "adminToken" };
  if (jwtConfigured(env)) return jwtAuthenticator(env.REGISTRY_JWT_SCOPE ?? "registry:write").authenticate(request, env);
  throw challenge(new A2AError("Unauthenticated", "Authentication failed: the token is not accepted"), `${REALM}, error="invalid_token"`);
}

function challenge(error: A2AError, value: string): A2AError {
  (error as A2AError & { [CHALLENGE]?: string })[CHALLENGE] = value;
  return error;
}

/** Compares digests, so the time taken says nothing about where the strings differ. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([given, expected].map(async (s) => new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(s)))));
  let difference = 0;
  for (let i = 0; i < a!.length; i++) difference |= a![i]! ^ b![i]!;
  return difference === 0;
}
