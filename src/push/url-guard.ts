/**
 * The SSRF guard for webhook URLs (reference §7.3, workers-platform §7): checked when a config is
 * created and again before every delivery. Workers cannot pin a resolved IP, so this is policy:
 * https only, no credentials in the URL, no IP literals in any spelling, no local or internal names,
 * and (when a resolver is given) no names that resolve into private ranges.
 */

export interface UrlGuardOptions {
  /**
   * Allows http and loopback hosts (localhost, 127.0.0.0/8, ::1). For local development and the
   * conformance kit only — never in production.
   */
  allowInsecure?: boolean;
  /** Resolves a host name to its addresses (e.g. DNS over HTTPS); when absent, names are not resolved. */
  resolve?: (hostname: string) => Promise<string[]>;
}

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeUrlError";
  }
}

const BLOCKED_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa", ".corp"];
const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

/** Parses and checks a webhook URL; returns it normalized or throws UnsafeUrlError saying why. */
export function checkWebhookUrl(raw: string, options: UrlGuardOptions = {}): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError("is not an absolute URL");
  }
  const loopback = isLoopbackHost(url.hostname);
  if (options.allowInsecure && loopback) {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnsafeUrlError("must use http or https");
    return url;
  }
  if (url.protocol !== "https:") throw new UnsafeUrlError(options.allowInsecure ? "must use http or https" : "must use https");
  if (url.username || url.password) throw new UnsafeUrlError("must not carry credentials");
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (ipLiteral(host) !== undefined) throw new UnsafeUrlError("must name a host, not an IP address");
  if (host === "localhost" || loopback) throw new UnsafeUrlError("must not point at this machine");
  if (!host.includes(".")) throw new UnsafeUrlError("must be a fully qualified public host name");
  if (METADATA_NAMES.has(host) || BLOCKED_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    throw new UnsafeUrlError("must not point at a local or internal name");
  }
  return url;
}

/** The full check: the static policy, then every resolved address must be public. */
export async function checkWebhookUrlResolved(raw: string, options: UrlGuardOptions = {}): Promise<URL> {
  const url = checkWebhookUrl(raw, options);
  if (!options.resolve || (options.allowInsecure && isLoopbackHost(url.hostname))) return url;
  const addresses = await options.resolve(url.hostname);
  for (const address of addresses) {
    if (isPrivateAddress(address)) throw new UnsafeUrlError(`resolves to a non-public address (${address})`);
  }
  return url;
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const ip = ipLiteral(host);
  if (ip === undefined) return false;
  return ip.kind === 4 ? ip.bytes[0] === 127 : isV6Loopback(ip.bytes);
}

type ParsedIp = { kind: 4; bytes: number[] } | { kind: 6; bytes: number[] };

/**
 * Recognizes an IP literal in any spelling WHATWG URL parsing leaves (it already normalizes decimal,
 * hex and octal IPv4 to dotted form) and in raw strings (for resolver answers).
 */
function ipLiteral(text: string): ParsedIp | undefined {
  const host = text.replace(/^\[|\]$/g, "");
  if (host.includes(":")) {
    const bytes = parseV6(host);
    return bytes ? { kind: 6, bytes } : undefined;
  }
  const parts = host.split(".");
  if (parts.length < 1 || parts.length > 4 || !parts.every((p) => /^(0x[0-9a-f]+|\d+)$/i.test(p))) return undefined;
  const numbers = parts.map((p) => (/^0x/i.test(p) ? parseInt(p, 16) : /^0\d/.test(p) ? parseInt(p, 8) : Number(p)));
  // a, a.b, a.b.c and a.b.c.d forms: the last number fills the remaining bytes.
  const bytes: number[] = [];
  for (let i = 0; i < numbers.length - 1; i++) bytes.push(numbers[i]! & 255);
  let last = numbers[numbers.length - 1]!;
  const rest: number[] = [];
  for (let i = 0; i < 4 - bytes.length; i++) { rest.unshift(last & 255); last = Math.floor(last / 256); }
  return { kind: 4, bytes: [...bytes, ...rest] };
}

function parseV6(text: string): number[] | undefined {
  let host = text.split("%")[0]!.toLowerCase();
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted) {
    const v4 = ipLiteral(dotted[1]!);
    if (!v4 || v4.kind !== 4) return undefined;
    tail = v4.bytes;
    host = host.slice(0, -dotted[1]!.length) + "0:0";
  }
  const halves = host.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const back = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - back.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...back];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const bytes = all.flatMap((g) => { const n = parseInt(g, 16); return [n >> 8, n & 255]; });
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function isV6Loopback(b: number[]): boolean {
  return b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
}

/** Loopback, private, link-local, unique-local, CGNAT, metadata and other non-public ranges. */
export function isPrivateAddress(address: string): boolean {
  const ip = ipLiteral(address);
  if (!ip) return false;
  if (ip.kind === 4) return isPrivateV4(ip.bytes);
  const b = ip.bytes;
  if (b.every((x) => x === 0) || isV6Loopback(b)) return true;
  const mappedV4 = b.slice(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255;
  if (mappedV4) return isPrivateV4(b.slice(12));
  if ((b[0]! & 0xfe) === 0xfc) return true; // fc00::/7 unique-local
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return true; // fe80::/10 link-local
  if (b[0] === 0xff) return true; // multicast
  return false;
}

function isPrivateV4([a, b]: number[]): boolean {
  if (a === undefined || b === undefined) return true;
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31)
    || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19))
    || a >= 224;
}

/** A resolver over DNS-over-HTTPS (JSON API), for production; answers for A and AAAA. */
export function dohResolver(endpoint = "https://cloudflare-dns.com/dns-query", timeoutMs = 2000) {
  return async (hostname: string): Promise<string[]> => {
    const answers: string[] = [];
    for (const type of ["A", "AAAA"]) {
      const response = await fetch(`${endpoint}?name=${encodeURIComponent(hostname)}&type=${type}`, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new UnsafeUrlError(`could not be resolved (DNS answered ${response.status})`);
      const body = (await response.json()) as { Answer?: { type: number; data: string }[] };
      for (const answer of body.Answer ?? []) if (answer.type === 1 || answer.type === 28) answers.push(answer.data);
    }
    return answers;
  };
}
