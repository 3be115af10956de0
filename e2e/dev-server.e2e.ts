// `npm start` serves the page from Vite's dev server: the guest's files must come through
// it byte for byte (no module transform, no Content-Encoding), or the VM cannot boot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type ViteDevServer } from "vite";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { VM_FILES } from "../web/vm-files";

let server: ViteDevServer;
let base: string;

beforeAll(async () => {
  server = await createServer({
    configFile: new URL("../web/vite.config.ts", import.meta.url).pathname,
    server: { host: "127.0.0.1", port: 0 },
    logLevel: "error",
  });
  await server.listen();
  base = server.resolvedUrls!.local[0];
});
afterAll(() => server?.close());

describe("dev server", () => {
  it.each(VM_FILES)("serves vm/%s unchanged", async (name) => {
    const res = await fetch(`${base}vm/${name}?v=1`, { headers: { "Accept-Encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    const body = Buffer.from(await res.arrayBuffer());
    const file = readFileSync(new URL(`../kernel-image/dist/${name}`, import.meta.url));
    expect(createHash("sha256").update(body).digest("hex")).toBe(createHash("sha256").update(file).digest("hex"));
  });
});

describe("dev server labs", () => {
  it("lists the repository's lab folders in labs/index.json and serves each lab.md as it is on disk", async () => {
    const index = await (await fetch(`${base}labs/index.json`)).json();
    expect(index.format).toBe("fslab-labs/1");
    expect(index.labs).toContain("exfat-discard");
    for (const id of index.labs) {
      const res = await fetch(`${base}labs/${id}/lab.md`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(readFileSync(new URL(`../labs/${id}/lab.md`, import.meta.url), "utf8"));
    }
    expect((await fetch(`${base}labs/../package.json`)).headers.get("content-type")).not.toMatch(/markdown/);
  });
});

describe("npm start's first screen", () => {
  it("is Vite's banner and the URL, with no warning (as a newcomer runs it)", async () => {
    const { spawn } = await import("node:child_process");
    const { createServer: listen } = await import("node:net");
    const port = await new Promise<number>((resolve) => {
      const s = listen().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const root = new URL("..", import.meta.url).pathname;
    // the command package.json's "start" runs, after its dependency check
    const vite = spawn(process.execPath, ["node_modules/vite/bin/vite.js", "--config", "web/vite.config.ts", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], { cwd: root, env: { ...process.env, NO_COLOR: "1" } });
    let out = "";
    vite.stdout.on("data", (b) => (out += b));
    vite.stderr.on("data", (b) => (out += b));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 100 }).toMatch(/Local:\s+http:\/\/127\.0\.0\.1:\d+\//);
    } finally {
      vite.kill();
    }
    expect(out).not.toMatch(/\(!\)|warn|deprecat/i);
  });
});
