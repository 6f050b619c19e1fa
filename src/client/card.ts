/**
 * Discovery: the Agent Card from `/.well-known/agent-card.json` (or a card URL given as is), and the
 * choice of the interface to talk to: the first `supportedInterfaces` entry this client speaks, in the
 * card's order (the agent's preference) or in the caller's, when it gives one.
 */
import type { AgentCard, AgentInterface } from "../protocol/card";
import { A2AClientError, A2AHttpError, fromRestError, invalidResponse } from "./errors";
import { isJson, PROTOCOL_VERSION, readJson, type HttpSession } from "./http";

export const WELL_KNOWN_CARD_PATH = "/.well-known/agent-card.json";

/** The older protocol version this client can also speak (JSON-RPC only). */
export const V03 = "0.3";

/** Major.Minor of an interface's protocol version. */
export function interfaceVersion(i: AgentInterface): string {
  return majorMinor(i.protocolVersion);
}

/** The bindings this client speaks. */
export type Binding = "JSONRPC" | "HTTP+JSON";
export const BINDINGS: readonly Binding[] = ["JSONRPC", "HTTP+JSON"];

/**
 * A card URL is used as given (a path ending in `.json`, or under `/.well-known/`); any other URL is the
 * agent's address, whose card is at the origin's well-known path.
 */
export function cardUrlFor(url: string | URL): URL {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith(".json") || parsed.pathname.includes("/.well-known/")) return parsed;
  return new URL(WELL_KNOWN_CARD_PATH, parsed);
}

export async function fetchAgentCard(session: HttpSession, url: string | URL, signal?: AbortSignal): Promise<AgentCard> {
  const cardUrl = cardUrlFor(url);
  const request: Parameters<HttpSession["send"]>[0] = { method: "GET", url: cardUrl, headers: { accept: "application/json" } };
  if (signal) request.signal = signal;
  const response = await session.send(request);
  if (!response.ok) {
    const body = isJson(response) ? await readJson(response).catch(() => undefined) : await response.text().catch(() => "");
    throw fromRestError(body, response.status) ?? new A2AHttpError(response.status, response.statusText, typeof body === "string" ? body : "", cardUrl.toString());
  }
  const card = await readJson(response);
  checkCard(card, response.status);
  return card;
}

/** Enough of a card to talk to the agent; the rest is the agent's business. */
export function checkCard(card: unknown, httpStatus = 200): asserts card is AgentCard {
  if (card === null || typeof card !== "object") throw invalidResponse("the Agent Card is not a JSON object", httpStatus);
  const c = card as Record<string, unknown>;
  if (typeof c.name !== "string") throw invalidResponse("the Agent Card has no name", httpStatus);
  if (!Array.isArray(c.supportedInterfaces)) {
    if (typeof c.url !== "string") throw invalidResponse("the Agent Card has no supportedInterfaces", httpStatus);
    // A 0.3 card: its url / preferredTransport / additionalInterfaces, read as 0.3 interfaces.
    const extra = Array.isArray(c.additionalInterfaces) ? (c.additionalInterfaces as { url?: unknown; transport?: unknown }[]) : [];
    c.supportedInterfaces = [
      { url: c.url, protocolBinding: typeof c.preferredTransport === "string" ? c.preferredTransport : "JSONRPC", protocolVersion: "0.3" },
      ...extra.filter((i) => typeof i.url === "string" && typeof i.transport === "string").map((i) => ({ url: i.url, protocolBinding: i.transport, protocolVersion: "0.3" })),
    ];
  }
  c.capabilities ??= {};
}

/** Major.Minor of a version string; `1.0.1` is 1.0. */
function majorMinor(version: string | undefined): string {
  const match = /^v?(\d+)(?:\.(\d+))?/.exec(version ?? "");
  return match ? `${match[1]}.${match[2] ?? "0"}` : "";
}

/**
 * The interface to use: among the entries with a binding and protocol version this client speaks, the
 * first in the card's order, or in `preference` order when given. Version 1.0 comes first; an agent that
 * offers only 0.3 is spoken to over 0.3 JSON-RPC.
 */
export function selectInterface(card: AgentCard, preference?: readonly Binding[]): AgentInterface & { protocolBinding: Binding } {
  const speaks = (i: AgentInterface, version: string): i is AgentInterface & { protocolBinding: Binding } =>
    (BINDINGS as readonly string[]).includes(i.protocolBinding) && majorMinor(i.protocolVersion) === version;
  let usable = card.supportedInterfaces.filter((i) => speaks(i, PROTOCOL_VERSION));
  if (!usable.length) usable = card.supportedInterfaces.filter((i): i is AgentInterface & { protocolBinding: Binding } => i.protocolBinding === "JSONRPC" && speaks(i, V03));
  const order = preference?.length ? preference : undefined;
  const chosen = order
    ? order.map((binding) => usable.find((i) => i.protocolBinding === binding)).find((i) => i !== undefined)
    : usable[0];
  if (!chosen) {
    const offered = card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`).join(", ") || "none";
    const wanted = (order ?? BINDINGS).map((b) => `${b} ${PROTOCOL_VERSION}`).join(" or ");
    throw new A2AClientError({
      type: "VersionNotSupported",
      code: -32009,
      reason: "VERSION_NOT_SUPPORTED",
      message: `The agent offers no interface this client can use (offered: ${offered}; wanted: ${wanted})`,
      httpStatus: 0,
    });
  }
  return chosen;
}
