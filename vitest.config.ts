import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        // In-runtime tests: the test agent runs inside workerd with real Durable Objects.
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/wrangler.test.toml" } })],
        test: { name: "workerd", include: ["test/workerd/**/*.test.ts"], testTimeout: 20_000 },
      },
      {
        // End-to-end tests: Node starts the real local server (wrangler dev) and talks HTTP to it.
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
