/** The a2a-edge client inside workerd, against the secure agent: credentials, the extended card, signatures. */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { A2AClient, A2AClientError, apiKey, CardSignatureError, headers } from "../../src/client/index";
import { BASE, REQUIRED_EXTENSION } from "./helpers";

const viaWorker = (input: RequestInfo | URL, init?: RequestInit) => (exports as unknown as { default: Fetcher }).default.fetch(new Request(input, init));
const cardKeys = () => JSON.parse((env as unknown as { TEST_CARD_JWKS: string }).TEST_CARD_JWKS);
const options = { fetch: viaWorker, credentials: [apiKey("key-alice"), headers({ "A2A-Extensions": REQUIRED_EXTENSION })] };

describe("the client in a Worker", () => {
  it("verifies the signed card and the signed extended card it prefers", async () => {
    const client = await A2AClient.connect(BASE, { ...options, verifyCard: cardKeys(), preferExtendedCard: true });
    expect(client.card.description).toBe("The extended card, as alice sees it.");
    const { task } = (await client.sendMessage({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "hi" }] } })) as any;
    expect(task.status.message.parts[0].text).toMatch(/^caller=alice/);
  });

  it("refuses a card whose signature does not verify", async () => {
    const wrong = { keys: cardKeys().keys.map((k: Record<string, string>) => ({ ...k, x: cardKeys().keys[0].y, y: cardKeys().keys[0].x })) };
    await expect(A2AClient.connect(BASE, { ...options, verifyCard: wrong })).rejects.toBeInstanceOf(CardSignatureError);
  });

  it("surfaces a refused credential as a typed error", async () => {
    const client = await A2AClient.connect(BASE, { fetch: viaWorker, credentials: [apiKey("key-mallory"), headers({ "A2A-Extensions": REQUIRED_EXTENSION })] });
    const error = await client.getTask({ id: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AClientError);
    expect(error).toMatchObject({ reason: "UNAUTHENTICATED" });
  });
});
