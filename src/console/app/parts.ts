/**
 * How message and artifact parts look: text (consecutive text chunks read as one growing text), data as
 * formatted JSON, images inline, other files as downloads.
 */
import type { Artifact, Message, Part } from "../../client/index";
import { h, json, type Child } from "./dom";

/** Blob URLs of inline files, one per distinct content, so re-rendering a growing task makes no new ones. */
const blobUrls = new Map<string, string>();

function blobUrl(raw: string, mediaType: string): string | undefined {
  const key = `${mediaType};${raw}`;
  const known = blobUrls.get(key);
  if (known) return known;
  try {
    const bytes = Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: mediaType }));
    blobUrls.set(key, url);
    return url;
  } catch {
    return undefined; // not base64
  }
}

/** The file name a URL ends with, if any. */
function lastSegment(url: string): string {
  try {
    return decodeURIComponent(new URL(url, location.href).pathname.split("/").pop() ?? "");
  } catch {
    return "";
  }
}

function filePart(part: Part): HTMLElement {
  const mediaType = part.mediaType ?? "application/octet-stream";
  const name = part.filename || (part.url ? lastSegment(part.url) : "") || "file";
  const href = part.raw !== undefined ? blobUrl(part.raw, mediaType) : part.url;
  if (!href) return h("div", { class: "part part-error" }, `${name}: the file's bytes are not valid base64`);
  const size = part.raw !== undefined ? ` · ${formatBytes(Math.floor((part.raw.length * 3) / 4))}` : "";
  const link = h("a", { class: "file-link", href, download: part.raw !== undefined ? name : false, target: "_blank", rel: "noopener" }, `⬇ ${name}`);
  if (mediaType.startsWith("image/")) {
    return h("figure", { class: "part part-image" }, h("img", { src: href, alt: name }), h("figcaption", null, link, ` ${mediaType}${size}`));
  }
  return h("div", { class: "part part-file" }, link, h("span", { class: "muted" }, ` ${mediaType}${size}`));
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** The parts, with runs of text parts joined into one text block. */
export function renderParts(parts: readonly Part[]): HTMLElement[] {
  const out: HTMLElement[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.length) out.push(h("div", { class: "part part-text" }, text.join("")));
    text = [];
  };
  for (const part of parts) {
    if (part.text !== undefined) {
      text.push(part.text);
      continue;
    }
    flush();
    if (part.data !== undefined) out.push(h("pre", { class: "part part-data" }, json(part.data)));
    else if (part.raw !== undefined || part.url !== undefined) out.push(filePart(part));
  }
  flush();
  return out;
}

/** An artifact: its name, id and parts. */
export function renderArtifact(artifact: Artifact, live = false): HTMLElement {
  return h("section", { class: `artifact${live ? " live" : ""}`, "data-artifact-id": artifact.artifactId },
    h("header", null, h("strong", null, artifact.name ?? "artifact"), " ", h("code", { class: "muted", title: artifact.artifactId }, artifact.artifactId.slice(0, 8)),
      artifact.description ? h("span", { class: "muted" }, ` — ${artifact.description}`) : null),
    renderParts(artifact.parts));
}

/** A message as a speech bubble: who said it and what. */
export function renderMessage(message: Message, extra?: Child): HTMLElement {
  const role = message.role === "ROLE_USER" ? "user" : "agent";
  return h("div", { class: `bubble ${role}` }, h("div", { class: "who" }, role === "user" ? "you" : "agent"), renderParts(message.parts), extra);
}
