/**
 * Talking to an a2a-edge agent registry (its HTTP API under /agents): find agents by skill, tag, media
 * type or free text, and — with the registry's admin token or a writer JWT — register and unregister.
 *
 * ```ts
 * const { agents } = await findAgents("https://registry.example", { skill: "translate" });
 * const client = await A2AClient.connect(agents[0].cardUrl);
 * ```
 */
import type {
  AgentEntry, AgentQuery, AgentRecord, FindAgentsResult, RegisterAgentRequest, RegisterAgentResponse,
} from "../registry/types";
import { bearer, type CredentialProvider, type TokenSource } from "./auth";
import { A2AHttpError, fromRestError } from "./errors";
import { HttpSession, isJson, readJson, type Fetch, type HttpRequest } from "./http";

export type {
  AgentEntry, AgentHealth, AgentQuery, AgentRecord, FindAgentsResult, RegisterAgentRequest, RegisterAgentResponse, SignatureStatus,
} from "../registry/types";

export interface RegistryOptions {
  /** A fetch to use instead of the global one (e.g. a Service Binding's). */
  fetch?: Fetch;
  /** A bearer token (the registry's admin token, or a writer JWT) for register and unregister. */
  token?: TokenSource;
  /** Other credential providers, applied after `token`. */
  credentials?: CredentialProvider[];
  signal?: AbortSignal;
}

const AGENTS_PATH = "/agents";

/** `registryUrl` is the registry's address (or its card's URL): the API is at its origin's /agents. */
function agentsUrl(registryUrl: string | URL, suffix = ""): URL {
  return new URL(`${AGENTS_PATH}${suffix}`, registryUrl);
}

function session(options: RegistryOptions): HttpSession {
  const credentials = [...(options.token !== undefined ? [bearer(options.token)] : []), ...(options.credentials ?? [])];
  return new HttpSession({ fetch: options.fetch ?? ((input, init) => fetch(input, init)), credentials });
}

async function call<T>(options: RegistryOptions, request: HttpRequest): Promise<T | undefined> {
  if (options.signal) request.signal = options.signal;
  const response = await session(options).send(request);
  if (response.ok) return response.status === 204 ? undefined : ((await readJson(response)) as T);
  const body = isJson(response) ? await readJson(response).catch(() => undefined) : await response.text().catch(() => "");
  throw fromRestError(body, response.status) ?? new A2AHttpError(response.status, response.statusText, typeof body === "string" ? body : "", request.url.href);
}

/**
 * Finds registered agents: every filter given must hold (skill, tag, inputMode and outputMode on the same
 * skill; `text` words anywhere in the card). Healthy agents only unless `includeUnhealthy`. A string is
 * free text. One page per call: pass `nextPageToken` back as `pageToken` for the next one.
 */
export async function findAgents(registryUrl: string | URL, query: AgentQuery | string = {}, options: RegistryOptions = {}): Promise<FindAgentsResult> {
  const url = agentsUrl(registryUrl);
  const q: AgentQuery = typeof query === "string" ? { text: query } : query;
  const params: [string, string | number | boolean | undefined][] = [
    ["skill", q.skill], ["tag", q.tag], ["inputMode", q.inputMode], ["outputMode", q.outputMode], ["q", q.text],
    ["includeUnhealthy", q.includeUnhealthy], ["verified", q.verifiedOnly], ["pageSize", q.pageSize], ["pageToken", q.pageToken],
  ];
  for (const [name, value] of params) if (value !== undefined && value !== "") url.searchParams.set(name, String(value));
  return (await call<FindAgentsResult>(options, { method: "GET", url, headers: { accept: "application/json" } }))!;
}

/** Every matching agent, page after page. */
export async function* findAllAgents(registryUrl: string | URL, query: Omit<AgentQuery, "pageToken"> = {}, options: RegistryOptions = {}): AsyncGenerator<AgentEntry> {
  let pageToken: string | undefined;
  do {
    const page = await findAgents(registryUrl, pageToken ? { ...query, pageToken } : query, options);
    yield* page.agents;
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
}

/** One entry with its full card, by id. */
export async function getRegisteredAgent(registryUrl: string | URL, id: string, options: RegistryOptions = {}): Promise<AgentRecord> {
  return (await call<AgentRecord>(options, { method: "GET", url: agentsUrl(registryUrl, `/${encodeURIComponent(id)}`), headers: { accept: "application/json" } }))!;
}

/** Registers an agent by its base URL or card URL (the registry fetches and validates the card); again to update it. */
export async function registerAgent(registryUrl: string | URL, agent: RegisterAgentRequest | string, options: RegistryOptions = {}): Promise<RegisterAgentResponse> {
  const body = JSON.stringify(typeof agent === "string" ? { url: agent } : agent);
  return (await call<RegisterAgentResponse>(options, { method: "POST", url: agentsUrl(registryUrl), body, headers: { "content-type": "application/json", accept: "application/json" } }))!;
}

/** Unregisters an agent by entry id, or by its base URL or card URL. */
export async function unregisterAgent(registryUrl: string | URL, idOrUrl: string, options: RegistryOptions = {}): Promise<void> {
  const url = idOrUrl.includes("://") ? agentsUrl(registryUrl) : agentsUrl(registryUrl, `/${encodeURIComponent(idOrUrl)}`);
  if (idOrUrl.includes("://")) url.searchParams.set("url", idOrUrl);
  await call<void>(options, { method: "DELETE", url });
}
