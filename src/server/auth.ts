/**
 * Card-driven authentication: what the card declares in `securitySchemes` / `securityRequirements` is
 * what is enforced — one definition, no second place to forget. Requirements are alternatives (any one
 * may be met); the schemes inside one requirement must all pass. JWTs are verified with jose (algorithms
 * pinned, iss/aud/exp/nbf with a small skew), scopes come from `scope` / `scp`, API keys map to callers.
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import type { AgentDefinition, AuthConfig, JwtVerification, Principal } from "../agent/types";
import { ANONYMOUS } from "../agent/types";
import type { A2AEnv } from "../env";
import { A2AError, type SecurityRequirement, type SecurityScheme } from "../protocol/index";

const DEFAULT_ALGORITHMS = ["RS256", "PS256", "ES256", "ES384", "EdDSA", "Ed25519"];

interface Failure {
  /** "missing": no credential for the scheme; "invalid": a credential that failed; "scope": valid but lacking scopes. */
  kind: "missing" | "invalid" | "scope";
  scheme: string;
  detail: string;
}

export class Authenticator {
  readonly #schemes: Record<string, SecurityScheme>;
  readonly #requirements: SecurityRequirement[];
  readonly #config: AuthConfig;

  constructor(definition: AgentDefinition) {
    this.#schemes = definition.card.securitySchemes ?? {};
    this.#requirements = definition.card.securityRequirements ?? [];
    this.#config = definition.auth ?? {};
    for (const requirement of this.#requirements) {
      for (const name of Object.keys(requirement.schemes)) {
        const scheme = this.#schemes[name];
        if (!scheme) throw new Error(`securityRequirements names "${name}", which securitySchemes does not declare`);
        if (scheme.mtlsSecurityScheme) throw new Error(`scheme "${name}": mutual TLS is not supported on Workers by a2a-edge`);
        if (!this.#config[name]) throw new Error(`scheme "${name}" needs a verifier in the agent's auth config`);
      }
    }
  }

  /** True when the card asks for credentials at all. */
  get required(): boolean {
    return this.#requirements.length > 0;
  }

  /** The caller, or an A2AError (Unauthenticated 401 / PermissionDenied 403) with its challenge. */
  async authenticate(request: Request, env: A2AEnv): Promise<Principal> {
    if (!this.required) return ANONYMOUS;
    const failures: Failure[] = [];
    for (const requirement of this.#requirements) {
      let principal: Principal | undefined;
      let met = true;
      for (const [name, scopes] of Object.entries(requirement.schemes)) {
        const outcome = await this.#check(name, scopes.list ?? [], request, env);
        if ("failure" in outcome) {
          failures.push(outcome.failure);
          met = false;
          break;
        }
        principal ??= outcome.principal;
      }
      if (met && principal) return principal;
    }
    throw this.#refusal(failures);
  }

  async #check(name: string, scopes: string[], request: Request, env: A2AEnv): Promise<{ principal: Principal } | { failure: Failure }> {
    const scheme = this.#schemes[name]!;
    const config = this.#config[name]!;
    if ("apiKeys" in config) {
      const declared = scheme.apiKeySecurityScheme!;
      const key = apiKeyOf(request, declared.location, declared.name);
      if (!key) return { failure: { kind: "missing", scheme: name, detail: `no API key in ${declared.location} "${declared.name}"` } };
      const caller = config.apiKeys(env)?.[key];
      if (!caller) return { failure: { kind: "invalid", scheme: name, detail: "unknown API key" } };
      return { principal: { id: caller, scheme: name } };
    }
    const token = bearerOf(request);
    if (token === undefined) return { failure: { kind: "missing", scheme: name, detail: "no bearer token" } };
    const options = typeof config.jwt === "function" ? config.jwt(env) : config.jwt;
    let claims: JWTPayload;
    try {
      const { keys, issuer } = await keySource(scheme, options);
      ({ payload: claims } = await jwtVerify(token, keys, {
        algorithms: options.algorithms ?? DEFAULT_ALGORITHMS,
        audience: options.audience,
        ...(issuer ? { issuer } : {}),
        clockTolerance: options.clockToleranceSeconds ?? 30,
        requiredClaims: ["exp"],
      }));
    } catch (error) {
      return { failure: { kind: "invalid", scheme: name, detail: describeJoseError(error) } };
    }
    const granted = scopesOf(claims);
    const missing = scopes.filter((scope) => !granted.has(scope));
    if (missing.length) return { failure: { kind: "scope", scheme: name, detail: `missing scope ${missing.join(" ")}` } };
    const id = (options.callerId ?? ((c: JWTPayload) => c.sub))(claims);
    if (!id) return { failure: { kind: "invalid", scheme: name, detail: "the token names no caller (sub)" } };
    return { principal: { id, scheme: name, claims } };
  }

  #refusal(failures: Failure[]): A2AError {
    const scope = failures.find((f) => f.kind === "scope");
    const invalid = failures.find((f) => f.kind === "invalid");
    if (scope && !invalid) {
      const error = new A2AError("PermissionDenied", `Permission denied: ${scope.detail}`, { scheme: scope.scheme });
      return withChallenge(error, `Bearer error="insufficient_scope", error_description="${scope.detail}"`);
    }
    const reason = invalid ?? failures[0];
    const error = new A2AError("Unauthenticated", reason ? `Authentication failed: ${reason.detail}` : "Authentication required", reason ? { scheme: reason.scheme } : undefined);
    const challenges = [...new Set(this.#requirements.flatMap((r) => Object.keys(r.schemes)))].map((name) => this.#challenge(name, invalid?.scheme === name));
    return withChallenge(error, challenges.join(", "));
  }

  #challenge(name: string, invalid: boolean): string {
    const scheme = this.#schemes[name]!;
    if (scheme.apiKeySecurityScheme) return `ApiKey realm="a2a", ${scheme.apiKeySecurityScheme.location}="${scheme.apiKeySecurityScheme.name}"`;
    return invalid ? `Bearer realm="a2a", error="invalid_token"` : `Bearer realm="a2a"`;
  }
}

/** The WWW-Authenticate value travels with the error to the response. */
export const CHALLENGE = Symbol("challenge");
function withChallenge(error: A2AError, challenge: string): A2AError {
  (error as A2AError & { [CHALLENGE]?: string })[CHALLENGE] = challenge;
  return error;
}
export function challengeOf(error: A2AError): string | undefined {
  return (error as A2AError & { [CHALLENGE]?: string })[CHALLENGE];
}

/**
 * Whether an authenticated caller meets one of a skill's own requirements: a scheme of the requirement
 * authenticated it, and its token grants the scopes listed (an empty list needs none).
 */
export function callerMeets(caller: Principal, requirements: SecurityRequirement[]): boolean {
  const granted = caller.claims ? scopesOf(caller.claims as JWTPayload) : new Set<string>();
  return requirements.some((requirement) =>
    Object.entries(requirement.schemes).every(([name, scopes]) => caller.scheme === name && (scopes.list ?? []).every((s) => granted.has(s))));
}

function bearerOf(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

function apiKeyOf(request: Request, location: "query" | "header" | "cookie", name: string): string | undefined {
  if (location === "header") return request.headers.get(name)?.trim() || undefined;
  if (location === "query") return new URL(request.url).searchParams.get(name) || undefined;
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("=")) || undefined;
  }
  return undefined;
}

function scopesOf(claims: JWTPayload): Set<string> {
  const raw = claims.scope ?? claims.scp;
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(" ") : [];
  return new Set(list.filter((s): s is string => typeof s === "string" && s !== ""));
}

// Per isolate: remote key sets (jose caches and rate-limits refetches) and OpenID discovery documents.
const remoteKeySets = new Map<string, JWTVerifyGetKey>();
const discovery = new Map<string, { at: number; value: Promise<{ jwksUri: string; issuer: string }> }>();
const DISCOVERY_TTL_MS = 10 * 60_000;

function remoteKeys(url: string): JWTVerifyGetKey {
  let set = remoteKeySets.get(url);
  if (!set) remoteKeySets.set(url, (set = createRemoteJWKSet(new URL(url), { timeoutDuration: 3000 })));
  return set;
}

async function keySource(scheme: SecurityScheme, options: JwtVerification): Promise<{ keys: JWTVerifyGetKey; issuer?: string | string[] }> {
  if (options.keys) return { keys: createLocalJWKSet(options.keys), ...(options.issuer ? { issuer: options.issuer } : {}) };
  if (options.jwksUrl) return { keys: remoteKeys(options.jwksUrl), ...(options.issuer ? { issuer: options.issuer } : {}) };
  const oidc = scheme.openIdConnectSecurityScheme;
  if (!oidc) throw new Error("no keys configured for this scheme (jwksUrl or keys)");
  const found = await discover(oidc.openIdConnectUrl);
  return { keys: remoteKeys(found.jwksUri), issuer: options.issuer ?? found.issuer };
}

function discover(url: string): Promise<{ jwksUri: string; issuer: string }> {
  const cached = discovery.get(url);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.value;
  const value = (async () => {
    const response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(3000), redirect: "manual" });
    if (!response.ok) throw new Error(`OpenID discovery answered ${response.status}`);
    const document = (await response.json()) as { jwks_uri?: unknown; issuer?: unknown };
    if (typeof document.jwks_uri !== "string" || typeof document.issuer !== "string") throw new Error("OpenID discovery lacks jwks_uri or issuer");
    return { jwksUri: document.jwks_uri, issuer: document.issuer };
  })();
  value.catch(() => discovery.delete(url));
  discovery.set(url, { at: Date.now(), value });
  return value;
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) return `the token's ${error.claim} claim is not accepted`;
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof errors.JWKSNoMatchingKey) return "no known key signed the token";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "the token is malformed";
  return "the token could not be verified";
}
