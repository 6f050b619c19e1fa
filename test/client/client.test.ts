/**
 * The client against the real local server (wrangler dev running the test agent): discovery, all eleven
 * operations over both bindings with identical results, typed errors, tenants, credentials, streams
 * resumed after cuts, polling when the card says no streaming, and conversations.
 */
import { webcrypto } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  A2AClient, A2AClientError, A2AError, A2AHttpError, A2AStreamError, apiKey, bearer, userMessage,
  type Binding, type ClientOptions, type Message, type StreamResponse, type Task,
} from "../../src/client/index";
import { startServer, type RunningServer } from "../e2e/server";
import { cutStreams, recording, rewriteCard, uid, type SeenRequest } from "./helpers";

let server: RunningServer;

async function signingKey(): Promise<string> {
  const { privateKey } = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = await webcrypto.subtle.exportKey("jwk", privateKey);
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid: "client-test", alg: "ES256" });
}

beforeAll(async () => {
  server = await startServer({ config: "test/wrangler.test.toml", vars: { PUSH_SIGNING_JWK: await signingKey() } });
});

afterAll(async () => {
  await server?.stop();
});

const BINDINGS: Binding[] = ["JSONRPC", "HTTP+JSON"];
const FAST_RESUME = { initialDelayMs: 10, maxDelayMs: 200, maxRetries: 5 };

const connect = (binding: Binding, options: ClientOptions = {}) => A2AClient.connect(server.url, { bindings: [binding], ...options });
const message = (prefix: string, text = "hello", ids: { taskId?: string; contextId?: string } = {}): Message => ({ ...userMessage(text, ids), messageId: uid(prefix) });
const asTask = (response: { task: Task } | { message: Message }): Task => {
  expect(response).toHaveProperty("task");
  return (response as { task: Task }).task;
};
const text = (parts: { text?: string }[] | undefined) => (parts ?? []).map((p) => p.text ?? "").join("");

async function caught(promise: Promise<unknown>): Promise<A2AClientError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(A2AClientError);
  return error as A2AClientError;
}

describe("discovery", () => {
  it("reads the card from the well-known path or a card URL, picks an interface, sends A2A-Version everywhere", async () => {
    const seen: SeenRequest[] = [];
    const client = await A2AClient.connect(server.url, { fetch: recording(seen) });
    expect(client.card.name).toBe("a2a-edge test agent");
    expect(client.binding).toBe("JSONRPC"); // the card's first interface
    expect(client.streaming).toBe(true);
    await client.sendMessage({ message: message("tck-complete-task") });
    expect(seen[0]!.url.pathname).toBe("/.well-known/agent-card.json");
    expect(seen.map((r) => r.headers.get("a2a-version"))).toEqual(["1.0", "1.0"]);

    const rest = await A2AClient.connect(`${server.url}/.well-known/agent-card.json`, { bindings: ["HTTP+JSON", "JSONRPC"] });
    expect(rest.binding).toBe("HTTP+JSON");
    expect(rest.interface.url).toBe(server.url);
  });

  it("prefers the extended card when asked and offered, and keeps the public one when it is refused", async () => {
    const offered = rewriteCard((card) => (card.capabilities.extendedAgentCard = true));
    const refused = await A2AClient.connect(server.url, { fetch: offered, preferExtendedCard: true });
    expect(refused.card.name).toBe("a2a-edge test agent"); // this agent answers UnsupportedOperation
    const extended: ClientOptions["fetch"] = async (input, init) => {
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      if (body?.method !== "GetExtendedAgentCard") return offered(input, init);
      const card = { ...refused.card, name: "extended", skills: [...refused.card.skills, { id: "x", name: "x", description: "x", tags: ["x"] }] };
      return Response.json({ jsonrpc: "2.0", id: body.id, result: card });
    };
    const client = await A2AClient.connect(server.url, { fetch: extended, preferExtendedCard: true, credentials: bearer("t") });
    expect(client.card.name).toBe("extended");
    expect(client.card.skills).toHaveLength(2);
  });

  it("refuses a card with no interface it can speak", async () => {
    const fetch = rewriteCard((card) => {
      // gRPC is not spoken; 0.3 is spoken over JSON-RPC only.
      card.supportedInterfaces = [{ url: server.url, protocolBinding: "GRPC", protocolVersion: "1.0" }, { url: server.url, protocolBinding: "HTTP+JSON", protocolVersion: "0.3" }];
    });
    const error = await caught(A2AClient.connect(server.url, { fetch }));
    expect(error.type).toBe("VersionNotSupported");
    expect(error.message).toContain("GRPC 1.0, HTTP+JSON 0.3");
  });
});

/** Replaces ids and timestamps by placeholders numbered in order of appearance, so two runs compare equal. */
function normalize(value: unknown): unknown {
  const names = new Map<string, string>();
  const walk = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    if (typeof v === "string" && key && /(^id$|Id$|timestamp|^token$|nextPageToken)/.test(key) && v !== "") {
      if (!names.has(v)) names.set(v, `<${key}#${names.size}>`);
      return names.get(v);
    }
    return v;
  };
  return walk(value);
}

/** One scenario over one binding; every result and error, in order. */
async function scenario(binding: Binding): Promise<unknown[]> {
  const client = await connect(binding, { resume: FAST_RESUME });
  const log: unknown[] = [];
  const record = async (name: string, run: () => Promise<unknown>) => {
    try {
      log.push({ [name]: (await run()) ?? "ok" });
    } catch (error) {
      if (!(error instanceof A2AClientError)) throw error;
      log.push({ [name]: { error: { type: error.type, code: error.code, reason: error.reason } } });
    }
  };
  const contextId = crypto.randomUUID();
  const sent = asTask(await client.sendMessage({ message: message("tck-complete-task", "hello", { contextId }) }));
  log.push({ sent });
  await record("reply", () => client.sendMessage({ message: message("tck-message-response", "hi", { contextId }) }));
  await record("data", () => client.sendMessage({ message: message("tck-artifact-data", "hi", { contextId }) }));
  await record("failed", () => client.sendMessage({ message: message("test-throw", "hi", { contextId }) }));
  await record("get", () => client.getTask({ id: sent.id, historyLength: 1 }));
  const events: StreamResponse[] = [];
  const stream = client.sendStreamingMessage({ message: message("tck-stream-artifact-chunked", "hi", { contextId }) });
  for await (const event of stream) events.push(event);
  log.push({ events, streamed: stream.task });
  await record("list", () => client.listTasks({ contextId, includeArtifacts: true, historyLength: 1 }));
  await record("page", () => client.listTasks({ contextId, pageSize: 1 }));
  const slow = asTask(await client.sendMessage({ message: message("test-slow", "5000", { contextId }), configuration: { returnImmediately: true } }));
  const watched = client.subscribeToTask({ id: slow.id });
  const firstWatched = await watched[Symbol.asyncIterator]().next();
  log.push({ subscribeFirst: firstWatched.value });
  await record("cancel", () => client.cancelTask({ id: slow.id }));
  await record("cancelAgain", () => client.cancelTask({ id: slow.id }));
  const created = await client.createTaskPushNotificationConfig({ taskId: sent.id, url: "https://example.com/hook", token: "t0k" });
  log.push({ pushCreate: created });
  await record("pushGet", () => client.getTaskPushNotificationConfig({ taskId: sent.id, id: created.id! }));
  await record("pushList", () => client.listTaskPushNotificationConfigs({ taskId: sent.id }));
  await record("pushDelete", () => client.deleteTaskPushNotificationConfig({ taskId: sent.id, id: created.id! }));
  await record("pushListAfter", () => client.listTaskPushNotificationConfigs({ taskId: sent.id }));
  await record("pushGetMissing", () => client.getTaskPushNotificationConfig({ taskId: sent.id, id: "nope" }));
  await record("pushDeleteMissing", () => client.deleteTaskPushNotificationConfig({ taskId: sent.id, id: "nope" }));
  await record("extendedCard", () => client.getExtendedAgentCard());
  // Errors.
  await record("notFound", () => client.getTask({ id: "no-such-task" }));
  await record("notCancelable", () => client.cancelTask({ id: sent.id }));
  await record("terminalSend", () => client.sendMessage({ message: message("tck-complete-task", "again", { taskId: sent.id }) }));
  await record("badPageSize", () => client.listTasks({ pageSize: 500 }));
  await record("subscribeTerminal", async () => {
    for await (const _ of client.subscribeToTask({ id: sent.id })) { /* refused before the first event */ }
  });
  return log;
}

describe("both bindings", () => {
  it("give identical results and errors for the same operations", async () => {
    const [jsonrpc, rest] = [await scenario("JSONRPC"), await scenario("HTTP+JSON")];
    expect(normalize(rest)).toEqual(normalize(jsonrpc));
    if (process.env.SHOW_SCENARIO) console.log(JSON.stringify(normalize(jsonrpc), null, 1));

    // And the results are the right ones (spot checks on one run).
    const get = <T>(log: unknown[], name: string) => (log.find((e) => name in (e as object)) as Record<string, T>)[name]!;
    expect(get<Task>(jsonrpc, "sent").status.state).toBe("TASK_STATE_COMPLETED");
    expect(text(get<Task>(jsonrpc, "sent").status.message?.parts)).toBe("Hello from TCK");
    expect(get<{ message: Message }>(jsonrpc, "reply").message.role).toBe("ROLE_AGENT");
    expect(get<{ task: Task }>(jsonrpc, "data").task.artifacts?.[0]?.parts[0]?.data).toEqual({ key: "value", count: 42 });
    // A failed task is data, not an error.
    expect(get<{ task: Task }>(jsonrpc, "failed").task.status.state).toBe("TASK_STATE_FAILED");
    expect(get<Task>(jsonrpc, "get").history).toHaveLength(1);
    const streamed = get<Task>(jsonrpc, "streamed");
    expect(streamed.status.state).toBe("TASK_STATE_COMPLETED");
    expect(text(streamed.artifacts?.[0]?.parts)).toBe("chunk-1 chunk-2");
    const list = get<{ tasks: Task[]; totalSize: number; nextPageToken: string }>(jsonrpc, "list");
    expect(list.totalSize).toBe(4); // sent, data, failed, streamed (the reply made no task)
    expect(list.tasks.map((t) => t.status.state)).toContain("TASK_STATE_FAILED");
    expect(get<{ nextPageToken: string }>(jsonrpc, "page").nextPageToken).not.toBe("");
    expect(get<StreamResponse & { task: Task }>(jsonrpc, "subscribeFirst").task.status.state).toBe("TASK_STATE_WORKING");
    expect(get<Task>(jsonrpc, "cancel").status.state).toBe("TASK_STATE_CANCELED");
    expect(get<Task>(jsonrpc, "cancelAgain").status.state).toBe("TASK_STATE_CANCELED");
    expect(get<{ id: string; url: string }>(jsonrpc, "pushGet")).toEqual(get(jsonrpc, "pushCreate"));
    expect(get<{ configs: unknown[] }>(jsonrpc, "pushList").configs).toEqual([get(jsonrpc, "pushCreate")]);
    expect(get(jsonrpc, "pushDelete")).toBe("ok");
    expect(get<{ configs: unknown[] }>(jsonrpc, "pushListAfter").configs).toEqual([]);
    expect(get(jsonrpc, "pushDeleteMissing")).toBe("ok");
    for (const [name, type] of [
      ["notFound", "TaskNotFound"], ["notCancelable", "TaskNotCancelable"], ["terminalSend", "UnsupportedOperation"],
      ["badPageSize", "InvalidParams"], ["subscribeTerminal", "UnsupportedOperation"], ["extendedCard", "UnsupportedOperation"],
      ["pushGetMissing", "TaskNotFound"],
    ] as const) {
      expect(get<{ error: { type: string } }>(jsonrpc, name).error.type, name).toBe(type);
    }
  });

  for (const binding of BINDINGS) {
    it(`${binding}: errors are typed A2AErrors with code, reason and HTTP status`, async () => {
      const client = await connect(binding);
      const notFound = await caught(client.getTask({ id: "missing" }));
      expect(notFound).toBeInstanceOf(A2AError);
      expect(notFound).toMatchObject({ type: "TaskNotFound", code: -32001, reason: "TASK_NOT_FOUND", httpStatus: binding === "JSONRPC" ? 200 : 404 });
      expect(notFound.spec.http).toBe(404);
      const invalid = await caught(client.listTasks({ pageSize: 0 }));
      expect(invalid).toMatchObject({ type: "InvalidParams", code: -32602, reason: "INVALID_PARAMS" });
      expect(invalid.violations?.[0]?.field).toBe("pageSize");

      // The version header is the client's promise: a proxy that downgrades it gets VersionNotSupported.
      const downgrade: ClientOptions["fetch"] = (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("a2a-version", "0.3");
        return fetch(input, { ...init, headers });
      };
      const old = await caught((await connect(binding, { fetch: downgrade })).getTask({ id: "x" }));
      expect(old).toMatchObject({ type: "VersionNotSupported", code: -32009, reason: "VERSION_NOT_SUPPORTED", httpStatus: binding === "JSONRPC" ? 200 : 400 });
    });
  }
});

describe("tenants", () => {
  it("puts the tenant in every request (params.tenant, /{tenant}/ prefix) and keeps tenants apart", async () => {
    const seen: SeenRequest[] = [];
    const tenant = `t${Date.now()}`;
    const viaRest = await connect("HTTP+JSON", { tenant, fetch: recording(seen) });
    const task = asTask(await viaRest.sendMessage({ message: message("tck-complete-task") }));
    await viaRest.getTask({ id: task.id });
    expect(seen.filter((r) => !r.url.pathname.includes("agent-card")).map((r) => r.url.pathname)).toEqual([`/${tenant}/message:send`, `/${tenant}/tasks/${task.id}`]);

    const viaRpc = await connect("JSONRPC", { tenant, fetch: recording(seen) });
    expect((await viaRpc.getTask({ id: task.id })).id).toBe(task.id);
    expect(JSON.parse(seen.at(-1)!.body!).params.tenant).toBe(tenant);
    expect((await caught((await connect("JSONRPC")).getTask({ id: task.id }))).type).toBe("TaskNotFound");
  });

  it("copies the chosen interface's tenant from the card", async () => {
    const seen: SeenRequest[] = [];
    const fetch = recording(seen, rewriteCard((card) => {
      for (const i of card.supportedInterfaces) i.tenant = "from-card";
    }));
    const client = await connect("HTTP+JSON", { fetch });
    expect(client.tenant).toBe("from-card");
    await client.listTasks();
    expect(seen.at(-1)!.url.pathname).toBe("/from-card/tasks");
  });
});

describe("credentials", () => {
  /** A gate in front of the agent: 401 unless the request carries the expected header value. */
  const gate = (header: string, expected: string, seen: SeenRequest[]): ClientOptions["fetch"] => recording(seen, async (input, init) => {
    const value = new Headers(init?.headers).get(header) ?? new URL(String(input)).searchParams.get(header);
    if (!new URL(String(input)).pathname.endsWith("agent-card.json") && value !== expected) {
      return new Response("unauthorized", { status: 401, headers: { "www-authenticate": "Bearer" } });
    }
    return fetch(input, init);
  });

  it("bearer: a 401 triggers one refresh of the token and one retry", async () => {
    const seen: SeenRequest[] = [];
    const refreshes: boolean[] = [];
    const token = bearer(({ refresh }) => {
      refreshes.push(refresh);
      return refresh ? "fresh" : "stale";
    });
    const client = await connect("JSONRPC", { credentials: token, fetch: gate("authorization", "Bearer fresh", seen) });
    await client.sendMessage({ message: message("tck-complete-task") });
    await client.listTasks();
    const calls = seen.filter((r) => r.rpc);
    expect(calls.map((r) => r.headers.get("authorization"))).toEqual(["Bearer stale", "Bearer fresh", "Bearer fresh"]);
    expect(refreshes).toEqual([false, true]);
  });

  it("bearer: a fixed token that is refused is an HTTP error, without a retry loop", async () => {
    const seen: SeenRequest[] = [];
    const client = await connect("HTTP+JSON", { credentials: bearer("wrong"), fetch: gate("authorization", "Bearer right", seen) });
    const error = await client.getTask({ id: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AHttpError);
    expect((error as A2AHttpError).status).toBe(401);
    expect(seen.filter((r) => r.url.pathname.startsWith("/tasks"))).toHaveLength(1);
  });

  it("API key: placed where the card's apiKeySecurityScheme says", async () => {
    for (const location of ["header", "query"] as const) {
      const seen: SeenRequest[] = [];
      const fetch = rewriteCard((card) => {
        card.securitySchemes = { key: { apiKeySecurityScheme: { location, name: "x-agent-key" } } };
        card.securityRequirements = [{ schemes: { key: { list: [] } } }];
      }, gate("x-agent-key", "k-123", seen));
      const client = await connect("HTTP+JSON", { credentials: apiKey("k-123"), fetch });
      expect((await client.listTasks()).tasks).toBeInstanceOf(Array);
      const call = seen.at(-1)!;
      if (location === "header") expect(call.headers.get("x-agent-key")).toBe("k-123");
      else expect(call.url.searchParams.get("x-agent-key")).toBe("k-123");
    }
  });
});

describe("streams resume after a cut", () => {
  const CHUNKS = 30;
  const expectedText = Array.from({ length: CHUNKS }, (_, i) => `c${i};`).join("");

  for (const binding of BINDINGS) {
    for (const mode of ["error", "close"] as const) {
      it(`${binding}, connection ${mode === "error" ? "reset" : "closed cleanly"} every 7 events: no lost and no duplicated event`, async () => {
        const seen: SeenRequest[] = [];
        const cutter = cutStreams({ afterEvents: 7, mode, partial: true }, recording(seen));
        const client = await connect(binding, { fetch: cutter, resume: FAST_RESUME });
        const stream = client.sendStreamingMessage({ message: message("test-chunks", String(CHUNKS)) });
        const ids: number[] = [];
        const events: StreamResponse[] = [];
        for await (const event of stream) {
          ids.push(Number(stream.lastEventId));
          events.push(event);
        }
        // Snapshot, WORKING, 30 chunks, COMPLETED: events 1..33, each once, in order.
        expect(ids).toEqual(Array.from({ length: CHUNKS + 3 }, (_, i) => i + 1));
        expect(cutter.cuts).toBeGreaterThanOrEqual(4);
        expect(stream.reconnects).toBe(cutter.cuts);
        expect(stream.state).toBe("TASK_STATE_COMPLETED");
        expect(text(stream.task!.artifacts![0]!.parts)).toBe(expectedText);
        const fromServer = await client.getTask({ id: stream.taskId! });
        expect(stream.task!.artifacts).toEqual(fromServer.artifacts);
        expect(stream.task!.status).toEqual(fromServer.status);

        // Each resubscription asked for the events after the last one delivered.
        const resubscribes = seen.filter((r) => r.rpc === "SubscribeToTask" || r.url.pathname.endsWith(":subscribe"));
        expect(resubscribes).toHaveLength(cutter.cuts);
        expect(resubscribes.map((r) => r.headers.get("last-event-id"))).toEqual(resubscribes.map((_, i) => String(7 * (i + 1))));
      });
    }
  }

  it("resumes a task that finished while disconnected: the stored events are replayed, then the stream ends", async () => {
    const cutter = cutStreams({ afterEvents: 3, mode: "error", maxCuts: 1 });
    const client = await connect("HTTP+JSON", { fetch: cutter, resume: { initialDelayMs: 600, maxRetries: 2 } });
    const stream = client.sendStreamingMessage({ message: message("test-chunks", "5") });
    const result = await stream.result();
    expect(stream.reconnects).toBe(1);
    expect((result as Task).status.state).toBe("TASK_STATE_COMPLETED");
    expect(text(stream.task!.artifacts![0]!.parts)).toBe("c0;c1;c2;c3;c4;");
    expect(stream.lastEventId).toBe("8");
  });

  it("subscribeToTask resumes too, and a stream that cannot be resumed ends in an A2AStreamError", async () => {
    const client = await connect("JSONRPC", { resume: FAST_RESUME });
    const slow = asTask(await client.sendMessage({ message: message("test-slow", "800"), configuration: { returnImmediately: true } }));
    const watcher = await connect("JSONRPC", { fetch: cutStreams({ afterEvents: 1, mode: "close" }), resume: FAST_RESUME });
    const watched = watcher.subscribeToTask({ id: slow.id });
    expect(((await watched.result()) as Task).status.state).toBe("TASK_STATE_COMPLETED");
    expect(watched.reconnects).toBeGreaterThanOrEqual(1);

    // Every reconnection fails: the client gives up after maxRetries, saying where it was.
    const doomed = asTask(await client.sendMessage({ message: message("test-slow", "5000"), configuration: { returnImmediately: true } }));
    let streams = 0;
    const flaky: ClientOptions["fetch"] = async (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (body.includes("SubscribeToTask") && streams++ > 0) throw new TypeError("fetch failed");
      return cutStreams({ afterEvents: 1, mode: "error" })(input, init);
    };
    const failing = await connect("JSONRPC", { fetch: flaky, resume: { initialDelayMs: 5, maxRetries: 3 } });
    const error = await failing.subscribeToTask({ id: doomed.id }).result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AStreamError);
    expect(error).toMatchObject({ taskId: doomed.id, lastEventId: expect.any(String) });
    expect(String((error as Error).message)).toContain("after 3 attempts");
    await client.cancelTask({ id: doomed.id });
  });
});

describe("errors inside a stream", () => {
  for (const binding of BINDINGS) {
    it(`${binding}: an \`event: error\` ends the stream with the agent's error, without resubscribing`, async () => {
      const card = {
        name: "stand-in", description: "d", version: "1", capabilities: { streaming: true },
        supportedInterfaces: [{ url: "https://stand-in.invalid", protocolBinding: binding, protocolVersion: "1.0" }],
        defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: [{ id: "s", name: "s", description: "s", tags: ["t"] }],
      };
      const task = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } };
      const error = { code: -32603, message: "the agent broke", data: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "INTERNAL_ERROR", domain: "a2a-protocol.org" }] };
      const rest = { error: { code: 500, status: "INTERNAL", message: "the agent broke", details: error.data } };
      let requests = 0;
      const fetch: ClientOptions["fetch"] = async () => {
        requests++;
        const wrap = (result: unknown) => JSON.stringify(binding === "JSONRPC" ? { jsonrpc: "2.0", id: 1, result } : result);
        const body = `id: 1\ndata: ${wrap({ task })}\n\nevent: error\ndata: ${JSON.stringify(binding === "JSONRPC" ? { jsonrpc: "2.0", id: 1, error } : rest)}\n\n`;
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      };
      const stream = A2AClient.fromCard(card as never, { fetch, resume: FAST_RESUME }).sendStreamingMessage({ message: message("x") });
      const seen: StreamResponse[] = [];
      const thrown = await (async () => {
        for await (const event of stream) seen.push(event);
      })().catch((e: unknown) => e);
      expect(seen).toEqual([{ task }]);
      expect(thrown).toBeInstanceOf(A2AClientError);
      expect(thrown).toMatchObject({ type: "Internal", reason: "INTERNAL_ERROR", message: "the agent broke" });
      expect(requests).toBe(1);
    });
  }
});

describe("polling when the card says the agent does not stream", () => {
  for (const binding of BINDINGS) {
    it(`${binding}: sendStreamingMessage and subscribeToTask poll GetTask with backoff`, async () => {
      const seen: SeenRequest[] = [];
      const fetch = recording(seen, rewriteCard((card) => (card.capabilities.streaming = false)));
      const client = await connect(binding, { fetch, polling: { initialDelayMs: 50, maxDelayMs: 200 } });
      expect(client.streaming).toBe(false);
      const stream = client.sendStreamingMessage({ message: message("test-chunks", "8") });
      const events: StreamResponse[] = [];
      for await (const event of stream) events.push(event);
      expect(events.every((e) => "task" in e)).toBe(true);
      expect(events.length).toBeGreaterThanOrEqual(2);
      expect(stream.state).toBe("TASK_STATE_COMPLETED");
      expect(text(stream.task!.artifacts![0]!.parts)).toBe("c0;c1;c2;c3;c4;c5;c6;c7;");

      const operations = seen.filter((r) => !r.url.pathname.endsWith("agent-card.json"))
        .map((r) => r.rpc ?? `${r.method} ${r.url.pathname.replace(/\/tasks\/[^/:]+/, "/tasks/ID")}`);
      expect(operations.some((o) => /Stream|subscribe/i.test(o))).toBe(false);
      expect(operations[0]).toMatch(/SendMessage|message:send/);
      const send = JSON.parse(seen.find((r) => r.body?.includes("test-chunks"))!.body!);
      expect((send.params ?? send).configuration.returnImmediately).toBe(true);
      expect(operations.slice(1).every((o) => o === "GetTask" || o === "GET /tasks/ID")).toBe(true);

      const slow = asTask(await client.sendMessage({ message: message("test-slow", "600"), configuration: { returnImmediately: true } }));
      const followed = client.subscribeToTask({ id: slow.id });
      expect(((await followed.result()) as Task).status.state).toBe("TASK_STATE_COMPLETED");
    });
  }
});

describe("conversations", () => {
  for (const binding of BINDINGS) {
    it(`${binding}: INPUT_REQUIRED is continued with the same taskId and contextId`, async () => {
      const client = await connect(binding);
      const chat = client.conversation();
      const first = await chat.send("hello", { messageId: uid("test-converse") });
      expect(first).toMatchObject({ needsInput: true, needsAuth: false, done: false, state: "TASK_STATE_INPUT_REQUIRED", text: "turn 0: hello" });
      const taskId = first.task!.id;
      const contextId = first.task!.contextId;
      expect(chat.taskId).toBe(taskId);

      const second = await chat.send("again", { messageId: uid("test-converse") });
      expect(second.needsInput).toBe(true);
      expect(second.task!.id).toBe(taskId);
      expect(second.text).toMatch(/^turn \d+: again$/);

      // Streaming turns continue the same task too.
      const stream = chat.stream("done", { messageId: uid("test-converse") });
      await stream.result();
      expect(stream.task!.id).toBe(taskId);
      expect(chat.turn).toMatchObject({ done: true, state: "TASK_STATE_COMPLETED" });
      expect(chat.turn.text).toMatch(/^finished after \d+ turns$/);

      // After a terminal state the next message starts a new task in the same context.
      const next = await chat.send("new", { messageId: uid("tck-input-required") });
      expect(next.task!.id).not.toBe(taskId);
      expect(next.task!.contextId).toBe(contextId);
      expect(next).toMatchObject({ needsInput: true, text: "Please provide more input" });
      const answered = chat.stream("here you go", { messageId: uid("tck-complete-task") });
      const states: string[] = [];
      for await (const event of answered) if ("statusUpdate" in event) states.push(event.statusUpdate.status.state);
      expect(answered.task!.id).toBe(next.task!.id);
      expect(states.at(-1)).toBe("TASK_STATE_COMPLETED");
      expect(chat.turn.text).toBe("Hello from TCK");
    });
  }

  it("AUTH_REQUIRED is surfaced with the agent's status message, and the next message continues the task", async () => {
    // No agent of ours asks for authorization yet: a stand-in answers over JSON-RPC.
    const sent: Record<string, any>[] = [];
    const card = {
      name: "auth agent", description: "asks for authorization", version: "1", capabilities: { streaming: false },
      supportedInterfaces: [{ url: "https://auth.invalid/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"], skills: [{ id: "s", name: "s", description: "s", tags: ["t"] }],
    };
    const fetch: ClientOptions["fetch"] = async (_input, init) => {
      const call = JSON.parse(String(init!.body));
      sent.push(call);
      const state = sent.length === 1 ? "TASK_STATE_AUTH_REQUIRED" : "TASK_STATE_COMPLETED";
      const task = { id: "task-1", contextId: "ctx-1", status: { state, message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: state === "TASK_STATE_COMPLETED" ? "thanks" : "Sign in at https://auth.invalid/login" }] } } };
      return Response.json({ jsonrpc: "2.0", id: call.id, result: { task } });
    };
    const chat = A2AClient.fromCard(card as never, { fetch }).conversation();
    const turn = await chat.send("do it");
    expect(turn).toMatchObject({ needsAuth: true, needsInput: false, done: false, text: "Sign in at https://auth.invalid/login" });
    expect(sent[0]!.params.message.taskId).toBeUndefined();
    await chat.send("signed in");
    expect(sent[1]!.params.message).toMatchObject({ taskId: "task-1", contextId: "ctx-1" });
  });
});
