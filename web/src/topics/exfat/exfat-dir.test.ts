// The directory model through its TypeScript API (the guest e2e compares it with the kernel).
import { beforeAll, describe, expect, it } from "vitest";
import type { ExfatModule } from "@wasm/exfat.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { ExfatDir, ExfatDirError, runDirScript } from "./exfat-dir";
import { countOf } from "../../shared/events";
import { EV } from "./events";

let m: ExfatModule;
beforeAll(async () => {
  m = await loadCoreModule("exfat");
});

describe("ExfatDir", () => {
  it("the 6.2 patch's 5000-file experiment in small: entries examined per bucket of creates grow without the hint", () => {
    const per = (hint: boolean) => {
      const d = new ExfatDir(m, hint);
      const buckets: number[] = [];
      let before = 0;
      for (let b = 0; b < 5; b++) {
        for (let i = 0; i < 200; i++) d.create(`f${b * 200 + i}`.length);
        buckets.push(d.examined - before);
        before = d.examined;
      }
      d.dispose();
      return buckets;
    };
    const hint = per(true);
    const old = per(false);
    expect(hint.every((x) => x <= 200 * 3)).toBe(true); // its own 3 entries per create
    for (let b = 1; b < 5; b++) expect(old[b]).toBeGreaterThan(old[b - 1]); // grows with the directory
  });

  it("fills a removed set's hole with a name of the same size", () => {
    const r = runDirScript(m, true, ["+a", "+b", "+c", "-b", "+d"]);
    expect(Array.from(r.dir.slots().subarray(0, 12))).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0]);
    expect(countOf(r.events, EV.EXFAT_EMPTY_SEARCH)).toBe(4);
    r.dir.dispose();
  });

  it("refuses what it cannot model", () => {
    expect(() => new ExfatDir(m, true, 100)).toThrow(ExfatDirError);
    const d = new ExfatDir(m, true);
    expect(() => d.remove(5, 1)).toThrow(ExfatDirError);
    expect(() => d.create(0)).toThrow(ExfatDirError);
    d.dispose();
  });
});
