/** `--file PATH` and `--data JSON` as message parts. */
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { Part } from "../client/index";
import { UsageError } from "./exit";

const MEDIA_TYPES: Record<string, string> = {
  ".txt": "text/plain", ".md": "text/markdown", ".csv": "text/csv", ".html": "text/html", ".htm": "text/html",
  ".json": "application/json", ".xml": "application/xml", ".yaml": "application/yaml", ".yml": "application/yaml",
  ".pdf": "application/pdf", ".zip": "application/zip",
  ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp", ".svg": "image/svg+xml",
  ".mp3": "audio/mpeg", ".wav": "audio/wav", ".mp4": "video/mp4",
};

export async function filePart(path: string): Promise<Part> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new UsageError(`cannot read --file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return {
    raw: bytes.toString("base64"),
    filename: basename(path),
    mediaType: MEDIA_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
  };
}

export function dataPart(json: string): Part {
  try {
    return { data: JSON.parse(json), mediaType: "application/json" };
  } catch {
    throw new UsageError(`--data is not valid JSON: ${json}`);
  }
}
