// /play/vfat in Chromium: parameters from the link, predict-then-reveal, the numbers
// and plots the page shows against the same models run here in Node.
import { describe, expect, inject, it } from "vitest";
import { launch, screenshot } from "../../../../e2e/browser";
import { loadCoreModule } from "../../shared/node-load";
import { hex, vfatName } from "./vfat-core";
import { inspectImage } from "../../shared/inspect/inspect";
import { type VfatReport } from "./inspect-report";
import { VFAT_MOUNTS, VFAT_NAMES } from "./vfat-names";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const base = () => inject("baseUrl");

describe("/play/vfat", () => {
  it("shows the blog series' name under three mounts as the vfat core writes it, entries included", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/vfat?name=${encodeURIComponent("ＳＪＩＳ")}`);
      expect(await b.page.getByLabel("file name").inputValue()).toBe("ＳＪＩＳ");
      const m = await loadCoreModule("vfat");
      const want = [vfatName(m, "ＳＪＩＳ", "utf8", 932), vfatName(m, "ＳＪＩＳ", "utf8", 437), vfatName(m, "ＳＪＩＳ", "iso8859-1", 932)];
      await b.page.getByLabel("no").check();
      await b.page.click("text=Run and reveal");
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      expect(await reveal.getAttribute("data-verdict")).toBe("lost");
      expect(await reveal.textContent()).toMatch(/as you predicted/);
      const rows = b.page.locator("table[aria-label='what each mount writes'] tbody tr");
      for (let i = 0; i < 3; i++) {
        expect(await rows.nth(i).locator("td").nth(1).textContent()).toBe(hex(want[i].short));
        expect(await rows.nth(i).locator("td").nth(3).textContent()).toBe(want[i].asCp932);
      }
      expect(await rows.nth(0).locator("td").nth(3).textContent()).toBe("ＳＪＩＳ"); // cp932 has the letters
      expect(await rows.nth(1).locator("td").nth(2).textContent()).toBe("____~1"); // cp437 has not
      expect((await b.page.getByTestId("entries-0").textContent())!.trim().split("\n")).toHaveLength(want[0].lfnSlots + 1);
      await screenshot(b.page, "play-vfat");
      await b.page.getByLabel("file name").fill("README.TXT");
      await expect.poll(() => b.page.url()).toMatch(/name=README\.TXT/);
    } finally {
      await b.close();
    }
  });

  it("finds the name on the real volume the guest's kernel wrote: the inspector's entry is the model's under each mount", async () => {
    const b = await launch();
    try {
      // a name the volume does not hold: the page offers the ones it does
      await b.page.goto(`${base()}#/play/vfat?name=nothere.txt`);
      await b.page.getByTestId("vfat-disk-names").getByRole("button", { name: "x[1].c" }).click();
      expect(await b.page.getByLabel("file name").inputValue()).toBe("x[1].c");
      await b.page.getByRole("button", { name: "Show it on the real volume" }).click();
      const rows = b.page.locator("table[aria-label='the real volume against the model'] tbody tr");
      await rows.first().waitFor({ timeout: 30_000 });
      // the inspector in Node on the same image, the model for the same sequence
      const m = await loadCoreModule("vfat");
      const report = inspectImage(await loadCoreModule("inspect"), gunzipSync(readFileSync(new URL("../../../../wasm/tests/images/vfat-names.img.gz", import.meta.url)))) as VfatReport;
      for (const [i, mt] of VFAT_MOUNTS.entries()) {
        const existing: Uint8Array[] = [];
        let mine = null;
        for (const n of VFAT_NAMES) {
          try {
            const v = vfatName(m, n, mt.io, mt.codepage, existing);
            existing.push(v.short);
            if (n === "x[1].c") mine = v;
          } catch {
            // a case-insensitive duplicate: nothing created
          }
        }
        const disk = report.files.find((f) => f.path.startsWith(`/${mt.dir}/`) && f.short_raw === hex(mine!.short))!;
        expect(await rows.nth(i).getAttribute("data-same")).toBe("yes");
        expect((await rows.nth(i).locator("td").nth(1).textContent())!.replace(/ /g, "")).toBe(disk.short_raw);
        expect(await rows.nth(i).locator("td").nth(4).textContent()).toBe(disk.long_name ?? "(none)");
      }
    } finally {
      await b.close();
    }
  });
});
