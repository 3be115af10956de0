// How long a source file may grow (issue 54): a TypeScript file (tests too) at most 450 lines,
// a device model of vm/machine/devices/ at most 700 (a card's or a controller's registers and
// states are one thing to read), its tests as any test. A file over its limit is named with
// its length: split it into parts that each do one thing.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DEVICE = /^web\/src\/vm\/machine\/devices\/(?!.*\.test\.ts$)[^/]+\.ts$/;

/** the most lines a file may have, or null for a file the budget does not cover */
export function limitOf(path: string): number | null {
  if (!/\.(tsx?|mts)$/.test(path) || path.endsWith(".d.ts") || path.endsWith(".d.mts")) return null;
  if (/\.gen\.ts$/.test(path)) return null; // written from the topic folders
  if (/^web\/src\/vm\/machine\/devices\/.*\.test\.ts$/.test(path)) return null; // a device's tests run as long as its registers
  return DEVICE.test(path) ? 700 : 450;
}

describe("the size budget", () => {
  it("no TypeScript file over 450 lines, no device model over 700", () => {
    const files = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
    const over = files.flatMap((f) => {
      const limit = limitOf(f);
      if (limit === null) return [];
      const lines = readFileSync(`${ROOT}${f}`, "utf8").split("\n").length - 1;
      return lines > limit ? [`${f}: ${lines} lines (at most ${limit})`] : [];
    });
    expect(files.length).toBeGreaterThan(100);
    expect(over, over.join("\n")).toEqual([]);
  });

  it("tells a device model from the rest", () => {
    expect(limitOf("web/src/vm/machine/devices/sdhci.ts")).toBe(700);
    expect(limitOf("web/src/labs/progress.ts")).toBe(450);
    expect(limitOf("e2e/walk.e2e.ts")).toBe(450);
    expect(limitOf("web/src/topics/events.gen.ts")).toBeNull();
    expect(limitOf("docs/cli.md")).toBeNull();
  });
});
