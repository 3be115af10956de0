// The page, served from web/ with the kernel image, the labs and the wasm build reachable
// as modules: `?url` imports emit them as hashed assets in `vite build`.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { vmFiles } from "./vm-files";

const root = fileURLToPath(new URL(".", import.meta.url));
const repo = fileURLToPath(new URL("..", import.meta.url));

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
  server: { fs: { allow: [repo] } },
  worker: { format: "es" },
  build: {
    outDir: `${repo}web/dist`,
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2048,
  },
});
