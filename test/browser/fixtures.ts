/** Canned agent output for the rendering test: an SSE body with data, an image and a file, and a tiny PNG. */
import { deflateSync } from "node:zlib";

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A 64×40 RGB gradient as PNG bytes. */
export function gradientPng(width = 64, height = 40): Buffer {
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x++) rows.push(Math.round((x / width) * 255), 90, Math.round((y / height) * 255));
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.from(rows))), chunk("IEND", Buffer.alloc(0))]);
}

/** A JSON-RPC SendStreamingMessage answer whose artifacts hold data, an image and a CSV file. */
export function richStream(rpcId: unknown, taskId: string, contextId: string): string {
  const event = (result: unknown, seq: number) => `id: ${seq}\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: rpcId, result })}\n\n`;
  const ids = { taskId, contextId };
  const artifact = (artifactId: string, name: string, part: Record<string, unknown>) => ({ artifactUpdate: { ...ids, artifact: { artifactId, name, parts: [part] }, lastChunk: true } });
  return [
    event({ task: { id: taskId, contextId, status: { state: "TASK_STATE_SUBMITTED", timestamp: new Date().toISOString() } } }, 1),
    event(artifact("a-data", "report", { data: { total: 3, items: ["alpha", "beta"], ok: true } }), 2),
    event(artifact("a-image", "chart", { raw: gradientPng().toString("base64"), mediaType: "image/png", filename: "chart.png" }), 3),
    event(artifact("a-file", "table", { raw: Buffer.from("a,b\n1,2\n").toString("base64"), mediaType: "text/csv", filename: "table.csv" }), 4),
    event({ statusUpdate: { ...ids, status: { state: "TASK_STATE_COMPLETED", timestamp: new Date().toISOString() } } }, 5),
  ].join("");
}
