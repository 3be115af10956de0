// Sizes from a 360 px phone to a projector: no page may scroll sideways at 360 px (wide
// pictures scroll inside their own boxes), and every page shows its content at 1920 px.
import { describe, expect, inject, it } from "vitest";
import { launch, screenshot } from "./browser";

const base = () => inject("baseUrl");

const PAGES: Array<{ name: string; hash: string; run?: string }> = [
  { name: "home", hash: "#/" },
  { name: "lab-exfat-discard", hash: "#/lab/exfat-discard" },
  { name: "lab-write-path", hash: "#/lab/write-path", run: "buffered write" },
  { name: "lab-f2fs-clue", hash: "#/lab/f2fs-clue" },
  { name: "play-exfat", hash: "#/play/exfat", run: "Run without predicting" },
  { name: "play-write-path", hash: "#/play/write-path", run: "Reveal without predicting" },
  { name: "play-blk", hash: "#/play/blk", run: "Run without predicting" },
  { name: "play-blk-kernel", hash: "#/play/blk", run: "recorded: null_blk, two readers and a writer" },
  { name: "lab-mq-deadline", hash: "#/lab/mq-deadline" },
  { name: "lab-ext4-lbs", hash: "#/lab/ext4-lbs" },
  { name: "play-f2fs", hash: "#/play/f2fs", run: "Run without predicting" },
  { name: "play-ext4", hash: "#/play/ext4", run: "Show the real volumes" },
  { name: "play-vfat", hash: "#/play/vfat" },
  { name: "play-exfat-dir", hash: "#/play/exfat-dir", run: "Run without predicting" },
];

describe("layout", () => {
  for (const width of [360, 1920]) {
    it(`at ${width} px no page scrolls sideways, with its results shown`, async () => {
      const b = await launch();
      const wide: string[] = [];
      try {
        await b.page.setViewportSize({ width, height: 800 });
        for (const p of PAGES) {
          await b.page.goto(`${base()}${p.hash}`);
          await b.page.locator("main h1, main h2").first().waitFor();
          if (p.run) {
            await b.page.getByRole("button", { name: p.run }).first().click();
            await b.page.waitForTimeout(1500);
          }
          const over = await b.page.evaluate(() => {
            const w = document.documentElement.clientWidth;
            // the widest element that sticks out of the page, to name in the failure
            let worst = "";
            let max = w;
            for (const el of Array.from(document.querySelectorAll("body *"))) {
              const r = el.getBoundingClientRect();
              let inScroller = false;
              for (let a = el.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") inScroller = true;
              if (!inScroller && r.right > max + 1) {
                max = r.right;
                worst = `${el.tagName.toLowerCase()}.${(el as HTMLElement).className}`;
              }
            }
            return { scroll: document.documentElement.scrollWidth, w, worst };
          });
          if (width === 360) await screenshot(b.page, `narrow-${p.name}`);
          if (over.scroll > over.w + 1) wide.push(`${p.name}: ${over.scroll} px wide, ${over.worst}`);
        }
        expect(wide).toEqual([]);
        // leaving lab pages while their VM still loads or restores throws nothing uncaught
        expect(b.errors).toEqual([]);
        // and nothing of ours, v86 and the wasm cores included, breaks the built site's CSP
        expect(b.csp).toEqual([]);
      } finally {
        await b.close();
      }
    });
  }
});
