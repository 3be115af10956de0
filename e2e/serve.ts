// Serves web/dist (built by `npm run test:e2e` just before) for the e2e specs.
import { preview } from "vite";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  const server = await preview({
    configFile: new URL("../web/vite.config.ts", import.meta.url).pathname,
    preview: { host: "127.0.0.1", port: 0, strictPort: false },
    logLevel: "error",
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error("vite preview did not report a URL");
  project.provide("baseUrl", url);
  return async () => {
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
