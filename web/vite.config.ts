// The page, served from web/ with the kernel image, the labs and the wasm build reachable
// as modules: `?url` imports emit them as hashed assets in `vite build`.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { vmFiles } from "./vm-files";

const root = fileURLToPath(new URL(".", import.meta.url));
const repo = fileURLToPath(new URL("..", import.meta.url));

// Cross-origin isolation: without it Chromium rounds performance.now() to 100 µs, v86's clock
// follows, and the guest's function_graph durations come out as 0, 100, 200 µs.
const isolated = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

export default defineConfig({
  root,
  base: "./",
  plugins: [react(), vmFiles(`${repo}kernel-image/dist/`)],
  resolve: {
    alias: {
      "@wasm": `${repo}wasm/build/wasm`,
      "@kernel": `${repo}kernel-image/dist`,
      "@labs": `${repo}labs`,
    },
  },
  server: { fs: { allow: [repo] }, headers: isolated },
  preview: { headers: isolated },
  worker: { format: "es" },
  build: {
    outDir: `${repo}web/dist`,
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2048,
  },
});
