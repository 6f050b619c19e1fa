/** The Agent Card endpoint: built from the definition, cached by ETag, CORS-enabled, no version needed. */
import { describe, expect, it } from "vitest";
import { AgentCardSchema } from "../../src/protocol/index";
import { BASE, fetchWorker } from "./helpers";

describe("GET /.well-known/agent-card.json", () => {
  it("serves a valid v1.0 card with both interfaces at absolute URLs from the request origin", async () => {
    const response = await fetchWorker("/.well-known/agent-card.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const card = (await response.json()) as any;
    expect(AgentCardSchema.parse(card)).toEqual(card);
    expect(card.supportedInterfaces).toEqual([
      { url: `${BASE}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: BASE, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    ]);
    expect(card.capabilities).toEqual({ streaming: true, pushNotifications: true, extendedAgentCard: false });
    expect(card.name).toBe("a2a-edge test agent");
  });

  it("has ETag, Last-Modified and Cache-Control, and answers 304 to a matching If-None-Match", async () => {
    const first = await fetchWorker("/.well-known/agent-card.json");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(Date.parse(first.headers.get("last-modified")!)).not.toBeNaN();
    await first.body?.cancel();
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await fetchWorker("/.well-known/agent-card.json", { headers: { "if-none-match": header } });
      expect(again.status, header).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe("");
    }
    const changed = await fetchWorker("/.well-known/agent-card.json", { headers: { "if-none-match": '"stale"' } });
    expect(changed.status).toBe(200);
    await changed.body?.cancel();
  });

  it("allows cross-origin reads and answers CORS preflights for the API", async () => {
    const card = await fetchWorker("/.well-known/agent-card.json", { headers: { origin: "https://inspector.example" } });
    expect(card.headers.get("access-control-allow-origin")).toBe("*");
    await card.body?.cancel();
    const preflight = await fetchWorker("/message:send", {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type,a2a-version" },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("a2a-version");
  });

  it("serves the JSON-RPC endpoint with and without a trailing slash", async () => {
    for (const path of ["/", "//"]) {
      const response = await fetchWorker(path, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "nope" } }), headers: { "content-type": "application/json", "a2a-version": "1.0" } });
      expect(((await response.json()) as any).error.code, path).toBe(-32001);
    }
  });
});
