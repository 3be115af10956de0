// `fslab bench-vm`'s scenarios are the guest's: every scenario fslab-bench runs has its table
// here, and the command's names come from those tables, not from a list kept beside them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BENCH_VM_SCENARIOS } from "./bench-vm";

const FSLAB_BENCH = new URL("../../kernel-image/rootfs/overlay/usr/local/bin/fslab-bench", import.meta.url);

describe("fslab bench-vm's scenarios", () => {
  it("are the scenarios the guest's fslab-bench runs, each once", () => {
    const script = readFileSync(FSLAB_BENCH, "utf8");
    const cases = script.slice(script.lastIndexOf('case "${1:-}" in'));
    const guest = [...cases.matchAll(/^ {2}([\w-]+)\) shift;/gm)].map((m) => m[1]);
    expect(guest.length).toBeGreaterThan(0);
    expect([...BENCH_VM_SCENARIOS].sort()).toEqual([...guest].sort());
  });

  it("bench-vm.ts keeps no list of the names beside the scenarios", () => {
    const text = readFileSync(new URL("./bench-vm.ts", import.meta.url), "utf8");
    for (const a of BENCH_VM_SCENARIOS)
      for (const b of BENCH_VM_SCENARIOS) if (a !== b) expect(text, `${a}, ${b}`).not.toMatch(new RegExp(`["'\`]${a}["'\`],\\s*["'\`]${b}["'\`]`));
  });
});
