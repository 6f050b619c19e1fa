/**
 * The web console in a real browser: headless Chromium (Debian's `chromium`) driven by playwright-core
 * loads the console from the demo agent on `wrangler dev` and uses it like a person would. Screenshots
 * land in test-results/ (console-*.png).
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Browser, Page, Request as PwRequest } from "playwright-core";
import { startServer, type RunningServer } from "../e2e/server";
import { launchChromium, screenshot } from "./chromium";
import { richStream } from "./fixtures";

const WORDS = "the console shows this text growing chunk by chunk as the agent streams it back";

describe("the web console in Chromium", () => {
  let browser: Browser;
  let server: RunningServer;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium(); // first: without Chromium this fails at once, saying how to install it
    server = await startServer({ config: "wrangler.toml", vars: { A2A_CONSOLE: "true", AUDIT_LOG: "off" } });
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    page.setDefaultTimeout(30_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/`);
    await page.locator("#agent-name", { hasText: "a2a-edge demo agent" }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const failShot = (name: string) => onTestFailed(async () => void (await screenshot(page, `console-failed-${name}`).catch(() => {})));
  const tab = (name: "chat" | "tasks" | "card" | "raw") => page.click(`#tabs button[data-tab=${name}]`);
  const lastTurn = () => page.locator(".transcript > .turn").last();
  /** Sends a message from the chat box; resolves once its turn is on the page. */
  const say = async (text: string) => {
    const turns = page.locator(".transcript > .turn");
    const before = await turns.count();
    await page.fill("#chat-input", text);
    await page.press("#chat-input", "Enter");
    await turns.nth(before).waitFor();
  };
  /** Waits until the newest turn is in this state. */
  const settled = (state: string) => expect.poll(() => lastTurn().getAttribute("data-state"), { timeout: 30_000 }).toBe(state);

  it("serves a page with its own script and style only, and shows the Agent Card", async () => {
    failShot("card");
    const response = await fetch(`${server.url}/`);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    await tab("card");
    const card = page.locator(".card-view");
    await expect.poll(() => card.locator(".skill h4").allTextContents()).toEqual(["Echo echo", "Greet greet", "Long task long"]);
    expect(await card.locator(".signature").getAttribute("data-signed")).toBe("false");
    expect(await card.textContent()).toContain("No security schemes");
    const interfaces = await card.locator("table").first().locator("tbody tr").allTextContents();
    expect(interfaces.join("\n")).toMatch(/JSONRPC.*in use/);
    expect(interfaces.join("\n")).toContain("HTTP+JSON");
    await screenshot(page, "console-card");
    // A skill's example goes to the chat box.
    await card.locator("button.example", { hasText: "greet" }).click();
    expect(await page.inputValue("#chat-input")).toBe("greet");
    await page.fill("#chat-input", "");
  });

  it("streams the echo: the artifact's text grows chunk by chunk, then the task completes", async () => {
    failShot("stream");
    await tab("chat");
    // Record every length the artifact's text had, as the DOM changed.
    await page.evaluate(() => {
      const seen: number[] = ((window as unknown as { lengths: number[] }).lengths = []);
      new MutationObserver(() => {
        const turns = document.querySelectorAll(".transcript > .turn");
        const text = turns[turns.length - 1]?.querySelector(".artifact .part-text")?.textContent;
        if (text && seen[seen.length - 1] !== text.length) seen.push(text.length);
      }).observe(document.querySelector(".transcript")!, { subtree: true, childList: true, characterData: true });
    });
    await say(WORDS);
    await lastTurn().locator(".artifact.live").waitFor(); // still streaming: the cursor shows
    await settled("completed");
    const lengths = await page.evaluate(() => (window as unknown as { lengths: number[] }).lengths);
    expect(lengths.length).toBeGreaterThan(5);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(lengths.at(-1)).toBe(WORDS.length);
    expect(await lastTurn().locator(".artifact .part-text").textContent()).toBe(WORDS);
    const states = await lastTurn().locator(".status .badge").allTextContents();
    expect(states).toEqual(["submitted", "working", "completed"]);
    expect(await lastTurn().locator(".artifact.live").count()).toBe(0);
    await screenshot(page, "console-stream");
  });

  it("answers an INPUT_REQUIRED question in the same conversation, continuing the same task", async () => {
    failShot("input-required");
    await say("greet");
    await settled("input_required");
    const prompt = page.locator(".prompt");
    await prompt.waitFor({ state: "visible" });
    expect(await prompt.textContent()).toContain("What is your name?");
    const askingTask = await lastTurn().locator(".turn-head code").first().getAttribute("title");
    const context = await lastTurn().locator(".turn-head code").nth(1).getAttribute("title");
    await say("Ada");
    await page.locator(".transcript > .turn", { hasText: "Nice to meet you, Ada!" }).waitFor();
    await settled("completed");
    expect(await lastTurn().locator(".turn-head").textContent()).toContain("continuing task");
    expect(await lastTurn().locator(".turn-head code").first().getAttribute("title")).toBe(askingTask);
    expect(await lastTurn().locator(".turn-head code").nth(1).getAttribute("title")).toBe(context);
    expect(await prompt.isHidden()).toBe(true);
    await screenshot(page, "console-input-required");
  });

  it("cancels a long task while it runs", async () => {
    failShot("cancel");
    await say("long 60");
    await lastTurn().locator(".status", { hasText: "Step 2 of 60" }).waitFor();
    expect(await page.isDisabled("#chat-send")).toBe(true); // one turn at a time
    await lastTurn().locator("button.cancel").click();
    await settled("canceled");
    expect(await lastTurn().locator(".status .badge").last().textContent()).toBe("canceled");
    expect(await lastTurn().locator("button.cancel").isHidden()).toBe(true);
    expect(await page.isDisabled("#chat-send")).toBe(false);
    await screenshot(page, "console-cancel");
  });

  it("lists tasks with state, context and time, filters them, and opens one with history, artifacts and event log", async () => {
    failShot("tasks");
    await tab("tasks");
    const rows = page.locator(".task-list tbody tr");
    // The list may trail the tasks' own state by a moment: refresh until the canceled task shows.
    await expect.poll(async () => {
      await page.click("#tasks-refresh");
      return rows.locator("[data-state=canceled]").count();
    }).toBeGreaterThanOrEqual(1);
    expect(await rows.count()).toBeGreaterThanOrEqual(3); // the echo, the greeting (one task, two turns), the long one
    await page.selectOption("#filter-state", "TASK_STATE_COMPLETED");
    await expect.poll(async () => [...new Set(await rows.locator(".badge").evaluateAll((els) => els.map((e) => e.getAttribute("data-state"))))]).toEqual(["completed"]);
    // The echo task: its history, its streamed artifact, and every stored event.
    await page.fill("#filter-text", "Done echoing");
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().click();
    const detail = page.locator(".task-detail");
    await detail.locator(".event-log li", { hasText: "status · completed" }).waitFor();
    expect(await detail.locator(".bubble.user").first().textContent()).toContain(WORDS);
    expect(await detail.locator(".artifact .part-text").textContent()).toBe(WORDS);
    const events = await detail.locator(".event-log li").allTextContents();
    expect(events[0]).toMatch(/^#1 .*task · submitted/);
    expect(events.filter((e) => e.includes("artifact echo")).length).toBeGreaterThan(5);
    await screenshot(page, "console-task-detail");
    await page.fill("#filter-text", "");
    await page.selectOption("#filter-state", "");
  });

  it("follows a running task live from the list, and cancels it there", async () => {
    failShot("follow");
    // Started outside the console (the same anonymous caller), so the console only follows it.
    const started = await fetch(`${server.url}/message:send`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "long 40" }] }, configuration: { returnImmediately: true } }),
    });
    const { task } = (await started.json()) as { task: { id: string } };
    await page.click("#tasks-refresh");
    const row = page.locator(`.task-list tbody tr[data-task-id="${task.id}"]`);
    await row.click();
    const detail = page.locator(".task-detail");
    await detail.locator(".live-indicator").waitFor({ state: "visible" });
    // Events that happen after opening arrive by themselves, in order after the replayed ones.
    const before = await detail.locator(".event-log li").count();
    await expect.poll(() => detail.locator(".event-log li").count(), { timeout: 15_000 }).toBeGreaterThan(before + 1);
    const seqs = await detail.locator(".event-log li").evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-seq"))));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    await screenshot(page, "console-follow");
    await detail.locator("button", { hasText: "Cancel task" }).click();
    await detail.locator(".event-log li", { hasText: "status · canceled" }).waitFor();
    await detail.locator(".live-indicator").waitFor({ state: "hidden" });
    await expect.poll(() => page.locator(".task-detail").getAttribute("data-state")).toBe("canceled");
  });

  it("sends a file with the message, and shows data as JSON, images inline and files as downloads", async () => {
    failShot("parts");
    await tab("chat");
    let sent: Record<string, any> | undefined;
    // The demo agent only echoes text: this one answer is canned, to show every kind of part.
    await page.route(`${server.url}/`, async (route) => {
      const body = route.request().postDataJSON() as Record<string, any> | null;
      if (route.request().method() !== "POST" || body?.method !== "SendStreamingMessage") return route.continue();
      sent = body;
      await route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body: richStream(body.id, "task-rich", "context-rich") });
    });
    try {
      await page.setInputFiles("#chat-files", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("my notes") });
      expect(await page.textContent(".file-list")).toContain("notes.txt");
      await say("please chart these");
      await settled("completed");
    } finally {
      await page.unroute(`${server.url}/`);
    }
    expect(sent?.params.message.parts).toEqual([
      { text: "please chart these" },
      { raw: Buffer.from("my notes").toString("base64"), filename: "notes.txt", mediaType: "text/plain" },
    ]);
    // The person's own message shows the file it carried.
    expect(await page.locator(".transcript .bubble.user").last().locator("a.file-link").textContent()).toContain("notes.txt");
    const turn = lastTurn();
    expect(JSON.parse((await turn.locator(".part-data").textContent())!)).toEqual({ total: 3, items: ["alpha", "beta"], ok: true });
    const image = turn.locator(".part-image img");
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    const file = turn.locator(".part-file a.file-link");
    expect(await file.getAttribute("download")).toBe("table.csv");
    const download = await Promise.all([page.waitForEvent("download"), file.click()]).then(([d]) => d);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe("a,b\n1,2\n");
    await screenshot(page, "console-parts");
  });

  it("sends typed-in credentials, masks them in the raw view, which shows every request and SSE event as JSON", async () => {
    failShot("raw");
    const secret = `s3cret-${crypto.randomUUID()}`;
    const authorizations: string[] = [];
    const onRequest = (request: PwRequest) => {
      const value = request.headers()["authorization"];
      if (value) authorizations.push(value);
    };
    page.on("request", onRequest);
    await page.click(".credentials summary");
    await page.fill("#cred-bearer", secret);
    await page.click("#cred-apply");
    await page.locator("#connection", { hasText: "with bearer token" }).waitFor();
    await say("hello raw view");
    await settled("completed");
    page.off("request", onRequest);
    expect(authorizations).toContain(`Bearer ${secret}`);

    await tab("raw");
    const list = page.locator(".raw-list");
    await page.fill("#raw-filter", "SendStreamingMessage");
    const request = list.locator("li.raw-request:visible").last();
    await request.locator("summary").click();
    const requestJson = JSON.parse((await request.locator("pre").textContent())!);
    expect(requestJson.headers.authorization).toBe("Bearer •••");
    expect(requestJson.body).toMatchObject({ jsonrpc: "2.0", method: "SendStreamingMessage", params: { message: { parts: [{ text: "hello raw view" }] } } });
    await page.fill("#raw-filter", "");
    const exchange = await request.getAttribute("data-exchange");
    const events = list.locator(`li.raw-event[data-exchange="${exchange}"]`);
    expect(await events.count()).toBeGreaterThan(3);
    await events.last().locator("summary").click();
    const last = JSON.parse((await events.last().locator("pre").textContent())!);
    expect(last.data.result.statusUpdate.status.state).toBe("TASK_STATE_COMPLETED");
    expect(await list.locator(`li.raw-end[data-exchange="${exchange}"]`).textContent()).toContain("closed by the agent");
    expect(await page.locator("body").textContent()).not.toContain(secret);
    await screenshot(page, "console-raw");
    expect(pageErrors).toEqual([]);
  });
});
