/** The Agent Card as a page: who the agent is, how to reach it, what it can do and what it asks of callers. */
import type { AgentCard, AgentInterface } from "../../client/index";
import type { SecurityScheme } from "../../protocol/card";
import { h, jsonDetails, type Child } from "./dom";

export interface CardViewOptions {
  /** The interface the console's client uses. */
  inUse: AgentInterface;
  /** A skill example was clicked: try it in the chat. */
  onExample(text: string): void;
}

const yesNo = (value: boolean | undefined) => h("span", { class: value ? "yes" : "no" }, value ? "yes" : "no");

function section(title: string, ...children: Child[]): HTMLElement {
  return h("section", { class: "card-section" }, h("h3", null, title), ...children);
}

function table(head: string[], rows: Child[][]): HTMLElement {
  return h("table", null, h("thead", null, h("tr", null, head.map((t) => h("th", null, t)))),
    h("tbody", null, rows.map((row) => h("tr", null, row.map((cell) => h("td", null, cell))))));
}

/** The JWS protected header of a signature, decoded (alg, kid, typ…). */
function protectedHeader(encoded: string): Record<string, unknown> | undefined {
  try {
    const base64 = encoded.replaceAll("-", "+").replaceAll("_", "/");
    return JSON.parse(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4))) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function signatureStatus(card: AgentCard): HTMLElement {
  const signatures = card.signatures ?? [];
  if (!signatures.length) return h("p", { class: "signature unsigned", "data-signed": "false" }, "Not signed: the card carries no signatures.");
  return h("div", { class: "signature signed", "data-signed": "true" },
    h("p", null, `Signed: ${signatures.length} signature${signatures.length > 1 ? "s" : ""} (JWS over the canonical card). The console shows them; verify them with the agent's public keys (a2a-edge/card-signature).`),
    h("ul", null, signatures.map((s) => {
      const header = protectedHeader(s.protected);
      return h("li", null, header ? `alg ${String(header.alg ?? "?")}, kid ${String(header.kid ?? "(none)")}${header.typ ? `, typ ${String(header.typ)}` : ""}` : "unreadable protected header");
    })));
}

function schemeText(scheme: SecurityScheme): string {
  if (scheme.apiKeySecurityScheme) return `API key in ${scheme.apiKeySecurityScheme.location} "${scheme.apiKeySecurityScheme.name}"`;
  if (scheme.httpAuthSecurityScheme) return `HTTP ${scheme.httpAuthSecurityScheme.scheme}${scheme.httpAuthSecurityScheme.bearerFormat ? ` (${scheme.httpAuthSecurityScheme.bearerFormat})` : ""}`;
  if (scheme.oauth2SecurityScheme) return `OAuth 2 (${Object.keys(scheme.oauth2SecurityScheme.flows ?? {}).join(", ")})`;
  if (scheme.openIdConnectSecurityScheme) return `OpenID Connect: ${scheme.openIdConnectSecurityScheme.openIdConnectUrl}`;
  if (scheme.mtlsSecurityScheme) return "mutual TLS";
  return "unknown scheme";
}

function security(card: AgentCard): HTMLElement {
  const schemes = Object.entries(card.securitySchemes ?? {});
  const requirements = card.securityRequirements ?? [];
  if (!schemes.length) return section("Security", h("p", null, "No security schemes: every caller is anonymous."));
  return section("Security",
    table(["scheme", "kind", "description"], schemes.map(([name, scheme]) => {
      const inner = Object.values(scheme).find((v) => v && typeof v === "object") as { description?: string } | undefined;
      return [h("code", null, name), schemeText(scheme), inner?.description ?? ""];
    })),
    h("p", null, requirements.length ? "A caller meets any one of these requirements:" : "No requirements: the schemes are offered, none is demanded."),
    h("ul", null, requirements.map((r) => h("li", null, Object.entries(r.schemes).map(([name, scopes]) =>
      `${name}${scopes.list?.length ? ` [${scopes.list.join(", ")}]` : ""}`).join(" + ")))));
}

function skills(card: AgentCard, options: CardViewOptions): HTMLElement {
  return section(`Skills (${card.skills.length})`, h("div", { class: "skills" }, card.skills.map((skill) =>
    h("article", { class: "skill" },
      h("h4", null, skill.name, " ", h("code", { class: "muted" }, skill.id)),
      h("p", null, skill.description),
      h("div", { class: "tags" }, skill.tags.map((t) => h("span", { class: "tag" }, t))),
      skill.examples?.length ? h("div", { class: "examples" }, "Try: ", skill.examples.map((example) =>
        h("button", { class: "example", type: "button", title: "Send this in the chat", onclick: () => options.onExample(example) }, example))) : null,
      skill.inputModes || skill.outputModes ? h("p", { class: "muted" }, `in: ${(skill.inputModes ?? card.defaultInputModes).join(", ")} · out: ${(skill.outputModes ?? card.defaultOutputModes).join(", ")}`) : null,
    ))));
}

export function renderCard(card: AgentCard, options: CardViewOptions): HTMLElement {
  const caps = card.capabilities;
  return h("div", { class: "card-view" },
    h("header", { class: "card-head" },
      card.iconUrl ? h("img", { class: "icon", src: card.iconUrl, alt: "" }) : null,
      h("div", null,
        h("h2", null, card.name, " ", h("span", { class: "muted" }, `v${card.version}`)),
        h("p", null, card.description),
        card.provider ? h("p", { class: "muted" }, "by ", h("a", { href: card.provider.url, target: "_blank", rel: "noopener" }, card.provider.organization)) : null,
        card.documentationUrl ? h("p", null, h("a", { href: card.documentationUrl, target: "_blank", rel: "noopener" }, "Documentation")) : null)),
    section("Signature", signatureStatus(card)),
    section("Interfaces", table(["binding", "URL", "version", "tenant", ""], card.supportedInterfaces.map((i) => [
      i.protocolBinding, h("code", null, i.url), i.protocolVersion, i.tenant ?? "",
      i.url === options.inUse.url && i.protocolBinding === options.inUse.protocolBinding ? h("span", { class: "badge in-use" }, "in use") : "",
    ]))),
    section("Capabilities", table(["streaming", "push notifications", "extended card"], [[yesNo(caps.streaming), yesNo(caps.pushNotifications), yesNo(caps.extendedAgentCard)]]),
      caps.extensions?.length ? h("ul", null, caps.extensions.map((e) => h("li", null, h("code", null, e.uri ?? "?"), e.required ? " (required)" : "", e.description ? ` — ${e.description}` : ""))) : null),
    security(card),
    section("Media types", h("p", null, `in: ${card.defaultInputModes.join(", ")}`), h("p", null, `out: ${card.defaultOutputModes.join(", ")}`)),
    skills(card, options),
    section("As served", jsonDetails("the card's JSON", card)),
  );
}
