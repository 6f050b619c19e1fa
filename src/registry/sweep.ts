/**
 * The health sweep (cron trigger): re-fetches the card of every entry that is due with If-None-Match,
 * at most `sweepConcurrency` at a time, each fetch with its own timeout, and no new fetch after the
 * sweep's time budget — so one slow or dead agent costs one slot for one timeout, never the sweep.
 * Results are written in batches; the registry object applies the backoff and the unhealthy rule.
 */
import type { JSONWebKeySet } from "jose";
import { registrySettings, registryStub, type RegistryEnv, type RegistrySettings } from "./env";
import { CardFetchError, checkJwks, fetchCard, fetchJwks, sweepResolver, type Resolver } from "./fetch-card";
import type { CheckResult, DueEntry } from "./object";
import { checkSignature } from "./signature";

export interface SweepReport {
  /** Entries that were due. */
  due: number;
  checked: number;
  ok: number;
  failed: number;
  /** Due entries left for the next sweep because the time budget ran out. */
  deferred: number;
  durationMs: number;
}

const FLUSH_EVERY = 50;

export async function sweep(env: RegistryEnv): Promise<SweepReport> {
  const started = Date.now();
  const settings = registrySettings(env);
  const stub = registryStub(env);
  const policy = { unhealthyAfter: settings.unhealthyAfter, backoffBaseMs: settings.backoffBaseMs, backoffMaxMs: settings.backoffMaxMs };
  const due = await stub.due(started, settings.sweepLimit);
  const resolve = sweepResolver(settings);
  const report: SweepReport = { due: due.length, checked: 0, ok: 0, failed: 0, deferred: 0, durationMs: 0 };
  let pending: CheckResult[] = [];
  const flush = async () => {
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    await stub.recordChecks(batch, policy);
  };

  await forEachLimited(due, settings.sweepConcurrency, async (entry) => {
    if (Date.now() - started > settings.sweepBudgetMs) {
      report.deferred++;
      return;
    }
    const result = await checkEntry(entry, settings, resolve);
    report.checked++;
    if (result.ok) report.ok++;
    else report.failed++;
    pending.push(result);
    if (pending.length >= FLUSH_EVERY) await flush();
  });
  await flush();
  report.durationMs = Date.now() - started;
  console.log(JSON.stringify({ registry: "sweep", ...report }));
  return report;
}

/** One check: 304 or a valid card is healthy; anything else is a failure with its reason. */
export async function checkEntry(entry: DueEntry, settings: RegistrySettings, resolve: Resolver | undefined): Promise<CheckResult> {
  try {
    const outcome = await fetchCard(entry.cardUrl, settings, { ...(entry.etag ? { etag: entry.etag } : {}), ...(resolve ? { resolve } : {}) });
    if (outcome.kind === "not-modified") return { id: entry.id, ok: true, latencyMs: outcome.latencyMs };
    let keys: JSONWebKeySet | undefined;
    if (entry.jwks) keys = checkJwks(JSON.parse(entry.jwks));
    else if (entry.jwksUrl) keys = await fetchJwks(entry.jwksUrl, settings, resolve);
    const signature = await checkSignature(outcome.raw, keys);
    return { id: entry.id, ok: true, latencyMs: outcome.latencyMs, changed: { card: outcome.card, etag: outcome.etag, signature } };
  } catch (error) {
    const reason = error instanceof CardFetchError ? error.message : `unexpected: ${error instanceof Error ? error.message : String(error)}`;
    return { id: entry.id, ok: false, error: reason };
  }
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function forEachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
