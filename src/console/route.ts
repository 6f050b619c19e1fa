/**
 * The web console's three files: the page at `/`, its script and its style sheet under `/console/`.
 * They are public (the API calls the page makes carry the person's own credentials) and served only
 * when the console is enabled: env `A2A_CONSOLE` ("true" / "false") wins over `options.console`, and
 * the default is off. The files are built by scripts/build-console.mjs into assets.generated.ts.
 */
import type { AgentDefinition } from "../agent/types";
import type { A2AEnv } from "../env";
import { CONSOLE_CSS, CONSOLE_HTML, CONSOLE_JS, CONSOLE_VERSION } from "./assets.generated";

export const CONSOLE_PAGE_PATH = "/";
export const CONSOLE_SCRIPT_PATH = "/console/app.js";
export const CONSOLE_STYLE_PATH = "/console/app.css";

const FILES: Record<string, { body: string; type: string }> = {
  [CONSOLE_PAGE_PATH]: { body: CONSOLE_HTML, type: "text/html; charset=utf-8" },
  [CONSOLE_SCRIPT_PATH]: { body: CONSOLE_JS, type: "text/javascript; charset=utf-8" },
  [CONSOLE_STYLE_PATH]: { body: CONSOLE_CSS, type: "text/css; charset=utf-8" },
};

/** Whether the console is on for this environment. */
export function consoleEnabled(env: A2AEnv, definition: AgentDefinition): boolean {
  const value = env.A2A_CONSOLE?.trim().toLowerCase();
  if (value === "true") return true;
  if (value === "false") return false;
  return definition.options?.console === true;
}

/** True for a GET of one of the console's files (whether or not the console is enabled). */
export function isConsoleRequest(request: Request): boolean {
  if (request.method !== "GET") return false;
  return Object.hasOwn(FILES, new URL(request.url).pathname);
}

/**
 * Answers a console file, or undefined when the path is not one. The page may talk to this origin and
 * to `apiOrigin` (the card's interfaces, when PUBLIC_BASE_URL names another origin) and nothing else.
 */
export function serveConsole(request: Request, apiOrigin: string): Response | undefined {
  const file = isConsoleRequest(request) ? FILES[new URL(request.url).pathname] : undefined;
  if (!file) return undefined;
  const etag = `"${CONSOLE_VERSION}"`;
  const headers = new Headers({
    "content-type": file.type,
    "cache-control": "no-cache",
    etag,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  if (file.type.startsWith("text/html")) {
    headers.set("content-security-policy", contentSecurityPolicy(apiOrigin));
    headers.set("x-frame-options", "DENY");
  }
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(file.body, { headers });
}

function contentSecurityPolicy(apiOrigin: string): string {
  let connect = "'self'";
  try {
    connect += ` ${new URL(apiOrigin).origin}`;
  } catch {
    // A base URL that is not a URL: the page talks to its own origin only.
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${connect}`,
    // Artifacts may be images given inline (data:, turned into blob:) or by URL.
    "img-src 'self' data: blob: https: http:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
