/** A fetch that records what a client (the official SDK's, say) puts on the wire, then passes the call through. */

export interface SeenRequest {
  method: string;
  url: string;
  version: string | null;
  body: string | undefined;
}

export function recordingFetch(seen: SeenRequest[]): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, key) => headers.set(key, value));
    seen.push({
      method: init?.method ?? (input instanceof Request ? input.method : "GET"),
      url,
      version: headers.get("A2A-Version"),
      body: typeof init?.body === "string" ? init.body : undefined,
    });
    return fetch(input, init);
  };
}
