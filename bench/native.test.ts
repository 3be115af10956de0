import { afterAll, describe, expect, it } from "vitest";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NativeBench } from "./native";

// stand-ins for wasm/src/<core>/bench_<core>.c, speaking the same protocol: the cases' names as a JSON
// array, then one time per case index read
const dir = mkdtempSync(join(tmpdir(), "fslab-native-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function script(name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/sh\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

describe("NativeBench", () => {
  it("reads the cases, then answers each sample asked for by name or index, in order", async () => {
    const bin = script("ok", `echo '["fast","slow"]'\nwhile read c; do if [ "$c" = 0 ]; then echo 1.5; else echo 20.25; fi; done`);
    const b = await NativeBench.start(bin);
    try {
      expect(b.cases).toEqual(["fast", "slow"]);
      expect(await b.sample("slow")).toBe(20.25);
      expect(await b.sample(0)).toBe(1.5);
      expect(await b.sample("fast")).toBe(1.5);
      await expect(b.sample("medium")).rejects.toThrow(/has no case "medium" \(fast; slow\)/);
      await expect(b.sample(2)).rejects.toThrow(RangeError);
    } finally {
      await b.close();
    }
  });

  it("says how a binary that dies mid-run ended, with its first line of stderr", async () => {
    const bin = script("dies", `echo '["one"]'\nread c\necho "out of memory" >&2\nexit 3`);
    const b = await NativeBench.start(bin);
    await expect(b.sample(0)).rejects.toThrow(/exited 3 without an answer: out of memory/);
    await b.close();
  });

  it("refuses an answer that is not a time, and a binary that cannot run", async () => {
    const b = await NativeBench.start(script("garbled", `echo '["one"]'\nread c\necho oops`));
    await expect(b.sample(0)).rejects.toThrow(/answered "oops" for case 0/);
    await b.close();
    await expect(NativeBench.start(join(dir, "missing"))).rejects.toThrow(/did not run \(spawn .*ENOENT\)/);
  });
});
