#!/usr/bin/env node
// npm run deploy: makes sure the push queues exist, then deploys with wrangler. Extra arguments go to
// `wrangler deploy` (e.g. `npm run deploy -- --dry-run --outdir dist`).
import { spawnSync } from "node:child_process";

const extra = process.argv.slice(2);
const wrangler = (args, options = {}) => spawnSync("wrangler", args, { stdio: options.quiet ? "pipe" : "inherit", encoding: "utf8", shell: process.platform === "win32" });

if (!extra.includes("--dry-run")) {
  for (const queue of ["a2a-push", "a2a-push-dlq"]) {
    const made = wrangler(["queues", "create", queue], { quiet: true });
    const output = `${made.stdout ?? ""}${made.stderr ?? ""}`;
    if (made.status === 0) console.log(`created queue ${queue}`);
    else if (!/already (exists|taken)/i.test(output)) {
      process.stderr.write(output);
      process.exit(made.status ?? 1);
    }
  }
}
const deployed = wrangler(["deploy", "--config", "wrangler.toml", ...extra]);
process.exit(deployed.status ?? 1);
