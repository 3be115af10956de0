// Unit tests: TypeScript over the wasm cores (in Node), the lab format, the boot watcher,
// the kernel-image manifest. The C cores' own tests run natively (`npm run test:c`).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["web/src/**/*.test.ts", "kernel-image/**/*.test.ts", "bin/**/*.test.ts", "bench/**/*.test.ts"],
    exclude: ["**/node_modules/**", "kernel-image/build/**"],
    // `npm test` runs these beside a guest (bin/test.mjs), on machines twice as slow as ours:
    // the heaviest (un-xz of the 16 MB state, the fuzzers' runs) take seconds there
    testTimeout: 30_000,
  },
});
