/**
 * A real HTTP webhook receiver on loopback for push tests. Each path has a behaviour: `/ok/...` answers
 * 200, `/flaky/N/...` answers 503 to its first N requests then 200, `/down/...` always 503,
 * `/gone/...` 404, `/redirect/...` a 302 to a private address. Every request is recorded.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedNotification {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Webhook {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  received: ReceivedNotification[];
  /** Requests to paths starting with `prefix`. */
  on(prefix: string): ReceivedNotification[];
  /** Waits until `count` requests reached paths starting with `prefix`. */
  waitFor(prefix: string, count: number, timeoutMs?: number): Promise<ReceivedNotification[]>;
  close(): Promise<void>;
}

export async function startWebhook(): Promise<Webhook> {
  const received: ReceivedNotification[] = [];
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const seen = (hits.get(path) ?? 0) + 1;
      hits.set(path, seen);
      const flaky = /^\/flaky\/(\d+)\//.exec(path);
      if (flaky) return void response.writeHead(seen <= Number(flaky[1]) ? 503 : 200).end();
      if (path.startsWith("/down/")) return void response.writeHead(503).end("down");
      if (path.startsWith("/gone/")) return void response.writeHead(404).end("no such hook");
      if (path.startsWith("/redirect/")) return void response.writeHead(302, { location: "http://10.0.0.1/steal" }).end();
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const on = (prefix: string) => received.filter((r) => r.path.startsWith(prefix));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on,
    async waitFor(prefix, count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (on(prefix).length < count) {
        if (Date.now() > deadline) throw new Error(`webhook ${prefix}: ${on(prefix).length} of ${count} requests after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return on(prefix);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
