// End-to-end: the built site (web/dist) served on localhost, driven in Debian's Chromium.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["e2e/**/*.e2e.ts"],
    globalSetup: ["e2e/serve.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false, // two cores: one browser with one VM at a time
  },
});
