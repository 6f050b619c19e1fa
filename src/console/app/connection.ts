/**
 * The credentials form and the client it makes: a bearer token and an API key typed in by the person,
 * kept in this page's memory only (never stored, gone on reload), an optional tenant and binding.
 */
import { A2AClient, apiKey, bearer, type Binding, type ClientOptions, type CredentialProvider, type Fetch } from "../../client/index";
import { h } from "./dom";

export interface Credentials {
  bearer: string;
  apiKey: string;
  tenant: string;
  binding: Binding | "";
}

export class ConnectionForm {
  /** The current credentials (memory only). */
  credentials: Credentials = { bearer: "", apiKey: "", tenant: "", binding: "" };
  readonly element: HTMLElement;
  readonly #bearer = h("input", { id: "cred-bearer", type: "password", autocomplete: "off", spellcheck: "false", placeholder: "token (without “Bearer ”)" });
  readonly #apiKey = h("input", { id: "cred-api-key", type: "password", autocomplete: "off", spellcheck: "false", placeholder: "key" });
  readonly #tenant = h("input", { id: "cred-tenant", type: "text", autocomplete: "off", spellcheck: "false", placeholder: "(the card's)" });
  readonly #binding = h("select", { id: "cred-binding" }, h("option", { value: "" }, "the card's first"), h("option", { value: "JSONRPC" }, "JSON-RPC"), h("option", { value: "HTTP+JSON" }, "HTTP+JSON"));

  constructor(onApply: () => void) {
    this.element = h("details", { class: "credentials" },
      h("summary", null, "Credentials"),
      h("form", { autocomplete: "off", onsubmit: (event) => {
        event.preventDefault();
        this.credentials = { bearer: this.#bearer.value.trim(), apiKey: this.#apiKey.value.trim(), tenant: this.#tenant.value.trim(), binding: this.#binding.value as Binding | "" };
        (this.element as HTMLDetailsElement).open = false;
        onApply();
      } },
        h("label", null, "Bearer token", this.#bearer),
        h("label", null, "API key", this.#apiKey),
        h("label", null, "Tenant", this.#tenant),
        h("label", null, "Binding", this.#binding),
        h("p", { class: "muted" }, "Kept in this page's memory only: nothing is stored, a reload forgets it. The API key goes where the card's API-key scheme says."),
        h("button", { class: "primary", type: "submit", id: "cred-apply" }, "Connect")));
  }

  /** The strings to mask in the raw view. */
  secrets(): string[] {
    return [this.credentials.bearer, this.credentials.apiKey].filter(Boolean);
  }

  /** A client for the agent that served this page, with the credentials as they are now. */
  async connect(fetch: Fetch): Promise<A2AClient> {
    const { credentials } = this;
    const providers: CredentialProvider[] = [];
    if (credentials.bearer) providers.push(bearer(credentials.bearer));
    if (credentials.apiKey) providers.push(apiKey(credentials.apiKey));
    const options: ClientOptions = { fetch, credentials: providers };
    if (credentials.tenant) options.tenant = credentials.tenant;
    if (credentials.binding) options.bindings = [credentials.binding];
    return A2AClient.connect(location.origin, options);
  }

  /** Who the console talks as, in a few words. */
  describe(): string {
    const { credentials } = this;
    const as = [credentials.bearer && "bearer token", credentials.apiKey && "API key"].filter(Boolean).join(" + ");
    return as ? `with ${as}` : "anonymous";
  }
}
