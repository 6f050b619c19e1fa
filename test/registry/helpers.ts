/**
 * Helpers for the registry tests: a card server (a tiny Node HTTP server on loopback that serves Agent
 * Cards we control — valid, invalid, slow, changed — with ETags and 304s, recording every request), a
 * reverse proxy that can go down and come back on the same port (an agent that stops and returns), the
 * cron trigger, and the registry's admin calls.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { RunningServer } from "../e2e/server";

export const ADMIN_TOKEN = "test-registry-admin-token";
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A valid v1.0 card for an agent at `base`, with one skill. */
export function validCard(base: string, name: string, skill: { id: string; tags: string[] } = { id: "summarize", tags: ["text"] }): Record<string, unknown> {
  return {
    name,
    description: `${name}, served by the test card server.`,
    version: "1.0.0",
    supportedInterfaces: [{ url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    capabilities: { streaming: false },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: skill.id, name: skill.id, description: `The ${skill.id} skill.`, tags: skill.tags }],
  };
}

export interface CardRoute {
  /** The JSON to serve, or a raw string (e.g. not JSON). */
  body: unknown;
  etag?: string;
  /** Milliseconds before answering. */
  delayMs?: number;
  status?: number;
  headers?: Record<string, string>;
}

export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  at: number;
}

export interface CardServer {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  routes: Map<string, CardRoute>;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Serves `routes` by path; a matching If-None-Match gets 304. */
export async function startCardServer(): Promise<CardServer> {
  const routes = new Map<string, CardRoute>();
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    seen.push({ path, headers: req.headers, at: Date.now() });
    const route = routes.get(path);
    const answer = () => {
      if (res.destroyed) return;
      if (!route) return void res.writeHead(404, { "content-type": "text/plain" }).end("no such card");
      const headers: Record<string, string> = { "content-type": "application/json", ...(route.etag ? { etag: route.etag } : {}), ...route.headers };
      if (route.etag && req.headers["if-none-match"] === route.etag) return void res.writeHead(304, headers).end();
      res.writeHead(route.status ?? 200, headers).end(typeof route.body === "string" ? route.body : JSON.stringify(route.body));
    };
    if (route?.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    seen,
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** A reverse proxy on a fixed port in front of a (replaceable) upstream; `down()` closes the port, `up()` reopens it. */
export interface Proxy {
  url: string;
  target: string;
  down(): Promise<void>;
  up(): Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const proxy: Proxy = {
    url: "",
    target,
    async up() {
      server = createServer((req, res) => {
        const upstream = new URL(req.url ?? "/", proxy.target);
        const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on("error", () => res.headersSent ? res.destroy() : res.writeHead(502).end("upstream down"));
        req.pipe(forward);
      });
      server.on("connection", (socket) => {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
      proxy.url = `http://127.0.0.1:${port}`;
    },
    down() {
      return new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server) return resolve();
        server.close(() => resolve());
        server = undefined;
      });
    },
  };
  await proxy.up();
  return proxy;
}

/** Runs the registry's cron trigger once (wrangler dev serves this route locally) and waits for the sweep. */
export async function runSweep(registry: RunningServer): Promise<void> {
  const response = await fetch(`${registry.url}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/5 * * * *")}&format=json`, { signal: AbortSignal.timeout(60_000) });
  const body = (await response.json()) as { outcome?: string };
  if (body.outcome !== "ok") throw new Error(`scheduled handler: ${JSON.stringify(body)}\n${registry.log().slice(-2000)}`);
}

/** POST /agents as the admin (or with the given Authorization), returning status and body. */
export async function register(registry: RunningServer, body: unknown, authorization: string | null = `Bearer ${ADMIN_TOKEN}`): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (authorization) headers.authorization = authorization;
  const response = await fetch(`${registry.url}/agents`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json(), headers: response.headers };
}
