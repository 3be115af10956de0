// Unit tests: TypeScript over the wasm cores (in Node), the lab format, the boot watcher,
// the kernel-image manifest. The C cores' own tests run natively (`npm run test:c`).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["web/src/**/*.test.ts", "kernel-image/**/*.test.ts", "bin/**/*.test.ts", "bench/**/*.test.ts"],
    exclude: ["**/node_modules/**", "kernel-image/build/**"],
  },
});
