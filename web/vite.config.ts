// The page, served from web/ with the kernel image, the labs and the wasm build reachable
// as modules: `?url` imports emit them as hashed assets in `vite build`.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { vmFiles } from "./vm-files";
import { labsFiles } from "./labs-files";
import type { Plugin } from "vite";

// The built site's Content-Security-Policy, as a meta tag so it holds on any static host: no
// inline or foreign script at all; 'wasm-unsafe-eval' because v86 and the cores compile
// WebAssembly; blob: workers because v86 starts its timer in one; inline styles because
// xterm.js and React's style attributes set them (styles cannot run script). Images may come
// from other sites (a lab's figures). The dev server, whose React refresh preamble is an
// inline script, goes without it.
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join("; ");

function contentSecurityPolicy(): Plugin {
  return {
    name: "fslab-csp",
    apply: "build",
    transformIndexHtml: () => [{ tag: "meta", attrs: { "http-equiv": "Content-Security-Policy", content: CSP }, injectTo: "head-prepend" }],
  };
}

const root = fileURLToPath(new URL(".", import.meta.url));
const repo = fileURLToPath(new URL("..", import.meta.url));

// Cross-origin isolation: without it Chromium rounds performance.now() to 100 µs, v86's clock
// follows, and the guest's function_graph durations come out as 0, 100, 200 µs.
const isolated = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

export default defineConfig({
  root,
  base: "./",
  plugins: [react(), vmFiles(`${repo}kernel-image/dist/`), labsFiles(`${repo}labs`), contentSecurityPolicy()],
  resolve: {
    alias: {
      "@wasm": `${repo}wasm/build/wasm`,
      "@kernel": `${repo}kernel-image/dist`,
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
