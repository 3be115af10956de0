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
