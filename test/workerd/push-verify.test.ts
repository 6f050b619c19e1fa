/** Receiver-side verification of our push signatures, and the URL guard's finer rules. */
import { env } from "cloudflare:workers";
import { generateKeyPair, exportJWK, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { loadSigner, sha256, signNotification, SIGNATURE_HEADER } from "../../src/push/signing";
import { checkWebhookUrl, checkWebhookUrlResolved, isPrivateAddress } from "../../src/push/url-guard";
import { PushVerificationError, verifyPushNotification, type SeenStore } from "../../src/push/verify";

const HOOK = "https://hooks.example.com/a2a";
const body = JSON.stringify({ statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } });

async function notification(overrides: { body?: string; audience?: string; jti?: string } = {}) {
  const signer = await loadSigner(env as any)!;
  const jwt = await signNotification(signer, {
    issuer: "https://agent.example.com", audience: overrides.audience ?? HOOK, taskId: "t1", seq: 7,
    jti: overrides.jti ?? crypto.randomUUID(), bodySha256: await sha256(body),
  });
  return { signer, request: new Request(HOOK, { method: "POST", body: overrides.body ?? body, headers: { [SIGNATURE_HEADER]: jwt } }) };
}

function memoryStore(): SeenStore {
  const seen = new Set<string>();
  return { has: (jti) => seen.has(jti), add: (jti) => void seen.add(jti) };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof PushVerificationError) return error.code;
    throw error;
  }
}

describe("verifyPushNotification", () => {
  it("accepts a valid notification and returns the event, task and seq", async () => {
    const { signer, request } = await notification();
    const verified = await verifyPushNotification(request, { jwks: signer.jwks, audience: HOOK, issuer: "https://agent.example.com" });
    expect(verified.event).toEqual(JSON.parse(body));
    expect(verified.taskId).toBe("t1");
    expect(verified.seq).toBe(7);
  });

  it("refuses each kind of bad notification with its own code", async () => {
    const { signer } = await notification();
    const jwks = signer.jwks;
    expect(await codeOf(verifyPushNotification(new Request(HOOK, { method: "POST", body }), { jwks, audience: HOOK }))).toBe("missing-signature");
    expect(await codeOf(verifyPushNotification((await notification({ body: body.replace("COMPLETED", "FAILED") })).request, { jwks, audience: HOOK }))).toBe("body-mismatch");
    expect(await codeOf(verifyPushNotification((await notification({ audience: "https://other.example.com/hook" })).request, { jwks, audience: HOOK }))).toBe("wrong-audience");
    expect(await codeOf(verifyPushNotification((await notification()).request, { jwks, audience: HOOK, issuer: "https://someone-else.example.com" }))).toBe("wrong-issuer");

    const other = await generateKeyPair("ES256");
    const otherJwks = { keys: [{ ...(await exportJWK(other.publicKey)), kid: "other", alg: "ES256" }] };
    expect(await codeOf(verifyPushNotification((await notification()).request, { jwks: otherJwks, audience: HOOK }))).toBe("unknown-key");
    const forged = await new SignJWT({ taskId: "t1", seq: 7, bodySha256: await sha256(body) })
      .setProtectedHeader({ alg: "ES256", kid: signer.kid }).setAudience(HOOK).setIssuedAt().setExpirationTime("5m").setJti("x").sign(other.privateKey);
    expect(await codeOf(verifyPushNotification(new Request(HOOK, { method: "POST", body, headers: { [SIGNATURE_HEADER]: forged } }), { jwks, audience: HOOK }))).toBe("bad-signature");

    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ taskId: "t1", seq: 7, bodySha256: await sha256(body) })
      .setProtectedHeader({ alg: "ES256", kid: signer.kid }).setAudience(HOOK).setIssuedAt(now - 900).setExpirationTime(now - 600).setJti("y").sign(signer.key);
    expect(await codeOf(verifyPushNotification(new Request(HOOK, { method: "POST", body, headers: { [SIGNATURE_HEADER]: expired } }), { jwks, audience: HOOK }))).toBe("expired");

    const seen = memoryStore();
    const first = await notification({ jti: "same-notification" });
    const again = await notification({ jti: "same-notification" });
    expect(await codeOf(verifyPushNotification(first.request, { jwks, audience: HOOK, seen }))).toBe("ok");
    expect(await codeOf(verifyPushNotification(again.request, { jwks, audience: HOOK, seen }))).toBe("replayed");

    expect(await codeOf(verifyPushNotification((await notification()).request, { jwks, audience: HOOK, expectTask: (id) => id === "t2" }))).toBe("unexpected-task");
  });
});

describe("the webhook URL guard", () => {
  it("allows loopback http only in the insecure (development) mode, and never private addresses", () => {
    expect(checkWebhookUrl("http://127.0.0.1:9999/hook", { allowInsecure: true }).port).toBe("9999");
    expect(checkWebhookUrl("http://localhost:9999/hook", { allowInsecure: true }).hostname).toBe("localhost");
    expect(() => checkWebhookUrl("http://10.0.0.1/hook", { allowInsecure: true })).toThrow(/https|IP/);
    expect(() => checkWebhookUrl("http://127.0.0.1/hook")).toThrow(/https/);
    expect(checkWebhookUrl("https://hooks.example.com/a?b=c").href).toBe("https://hooks.example.com/a?b=c");
  });

  it("refuses names that resolve to non-public addresses", async () => {
    const resolve = async (host: string) => (host === "rebind.example.com" ? ["93.184.216.34", "10.0.0.5"] : ["93.184.216.34"]);
    await expect(checkWebhookUrlResolved("https://rebind.example.com/x", { resolve })).rejects.toThrow(/non-public address \(10\.0\.0\.5\)/);
    await expect(checkWebhookUrlResolved("https://fine.example.com/x", { resolve })).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ["127.0.0.1", true], ["10.9.8.7", true], ["172.16.0.1", true], ["172.32.0.1", false], ["192.168.0.1", true],
    ["169.254.169.254", true], ["100.64.0.1", true], ["0.0.0.0", true], ["8.8.8.8", false],
    ["::1", true], ["fd12::1", true], ["fe80::1", true], ["::ffff:127.0.0.1", true], ["2606:4700::1111", false],
  ])("%s is private: %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe("key rotation", () => {
  it("publishes the previous key next to the current one, and signs with the current one", async () => {
    const current = JSON.parse((env as any).PUSH_SIGNING_JWK);
    const old = await generateKeyPair("ES256", { extractable: true });
    const previous = JSON.stringify({ ...(await exportJWK(old.privateKey)), kid: "old-key", alg: "ES256" });
    const signer = await loadSigner({ PUSH_SIGNING_JWK: JSON.stringify(current), PUSH_SIGNING_JWK_PREVIOUS: previous })!;
    expect(signer.kid).toBe(current.kid);
    expect(signer.jwks.keys.map((k) => k.kid)).toEqual([current.kid, "old-key"]);
    expect(signer.jwks.keys.every((k) => k.d === undefined)).toBe(true);
  });
});
