// The page, served from web/ with the kernel image, the labs and the wasm build reachable
// as modules: `?url` imports emit them as hashed assets in `vite build`.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { vmFiles } from "./vm-files.ts";
import { labsFiles } from "./labs-files.ts";
import type { Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";

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

// Offline for a class on a flaky network (Workbox through vite-plugin-pwa): the app shell (the
// hashed scripts, styles and wasm cores) is precached on the first visit; a lab's VM files are
// cached the first time a lab loads them (URLs carry their hash, so CacheFirst is right, and a
// new build brings new URLs); labs and the embed config are fetched fresh when the network is
// there. A new deployment waits until the page offers to reload (registerType "prompt").
export const VM_CACHE = "fslab-vm";
function offline(): Plugin[] {
  return VitePWA({
    registerType: "prompt",
    injectRegister: false,
    manifest: false,
    workbox: {
      globPatterns: ["**/*.{js,css,html,wasm}"],
      globIgnores: ["vm/**", "labs/**"],
      maximumFileSizeToCacheInBytes: 8 * 2 ** 20,
      navigateFallback: "index.html",
      clientsClaim: true,
      runtimeCaching: [
        { urlPattern: ({ url }) => /\/vm\/(rootfs\/)?[\w.-]+$/.test(url.pathname), handler: "CacheFirst", options: { cacheName: VM_CACHE, matchOptions: { ignoreSearch: false } } },
        { urlPattern: ({ url }) => /\/(labs\/|fslab-embed\.json$)/.test(url.pathname), handler: "NetworkFirst", options: { cacheName: "fslab-labs", networkTimeoutSeconds: 5 } },
      ],
    },
  }) as Plugin[];
}

const root = fileURLToPath(new URL(".", import.meta.url));
const repo = fileURLToPath(new URL("..", import.meta.url));

// Cross-origin isolation: without it Chromium rounds performance.now() to 100 µs, v86's clock
// follows, and the guest's function_graph durations come out as 0, 100, 200 µs.
const isolated = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

export default defineConfig({
  root,
  base: "./",
  plugins: [react(), vmFiles(`${repo}kernel-image/dist/`), labsFiles(`${repo}labs`), contentSecurityPolicy(), ...offline()],
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
    rollupOptions: {
      // the site, and fslab-embed.js for other sites' pages (src/embed/element.tsx) under a
      // fixed name, so a docs page can name it
      input: { index: `${root}index.html`, "fslab-embed": `${root}src/embed/element.tsx` },
      output: { entryFileNames: (chunk) => (chunk.name === "fslab-embed" ? "fslab-embed.js" : "assets/[name]-[hash].js") },
    },
  },
});
