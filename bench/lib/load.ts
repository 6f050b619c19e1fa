/**
 * One closed-loop load run with autocannon: `connections` keep one request each in flight for `seconds`.
 * Each answer is checked (`verify`), because a JSON-RPC error still comes back as HTTP 200.
 */
import autocannon from "autocannon";

export interface HttpRequestSpec {
  method: "GET" | "POST";
  path: string;
  /** `[<id>]` in the body is replaced by a fresh id per request (unique messageIds). */
  body?: string;
  /** A response body that fails this is counted as a mismatch. */
  verify?: (body: string) => boolean;
}

export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  non2xx: number;
  mismatches: number;
}

export const A2A_HEADERS = { "content-type": "application/json", "a2a-version": "1.0" };

export async function load(base: string, spec: HttpRequestSpec, opts: { connections: number; seconds?: number; amount?: number }): Promise<LoadResult> {
  const options: autocannon.Options = {
    url: base + spec.path,
    method: spec.method,
    headers: spec.body === undefined ? { "a2a-version": "1.0" } : A2A_HEADERS,
    connections: opts.connections,
    timeout: 30,
  };
  if (spec.body !== undefined) {
    options.body = spec.body;
    options.idReplacement = spec.body.includes("[<id>]");
  }
  if (spec.verify) options.verifyBody = spec.verify;
  if (opts.amount !== undefined) options.amount = opts.amount;
  else options.duration = opts.seconds ?? 5;
  const r = await autocannon(options);
  return {
    rps: r.requests.total / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors,
    non2xx: r.non2xx,
    mismatches: r.mismatches,
  };
}
