// Sizes from a 360 px phone to a projector: no page may scroll sideways at 360 px (wide
// pictures scroll inside their own boxes), no picture shrinks its labels below 9 px, and every
// page shows its content at 1920 px.
// The pages are the site's own: the home page, every lab of labs/ and every playground of the
// topic manifests, each opened once for each button its manifest names as bringing out its
// widest content (`widest`), so a new lab or playground is checked with no list to edit.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { launch, screenshot } from "./browser";
import { parseLab } from "../web/src/labs/lab-format";
import { courseOrder } from "../web/src/labs/course";
import { PLAYGROUNDS, VIEW_IDS, view } from "../web/src/topics";

const base = () => inject("baseUrl");

const labsDir = new URL("../labs/", import.meta.url);
const LABS = courseOrder(
  readdirSync(labsDir)
    .filter((d) => existsSync(new URL(`${d}/lab.md`, labsDir)))
    .map((d) => ({ lab: parseLab(readFileSync(new URL(`${d}/lab.md`, labsDir), "utf8"), VIEW_IDS, `labs/${d}/lab.md`, d) })),
).map((l) => l.lab);

/** a page opened once for each of its buttons (named name, name-2, ...), or once as it opens */
const opened = (name: string, hash: string, buttons: string[]) =>
  buttons.length ? buttons.map((run, i) => ({ name: i ? `${name}-${i + 1}` : name, hash, run })) : [{ name, hash }];

const PAGES: Array<{ name: string; hash: string; run?: string }> = [
  { name: "home", hash: "#/" },
  ...LABS.flatMap((l) => opened(`lab-${l.meta.id}`, `#/lab/${l.meta.id}`, l.meta.views.flatMap((v) => view(v)?.widest ?? []))),
  ...PLAYGROUNDS.flatMap((p) => opened(`play-${p.route}`, `#/play/${p.route}`, p.widest ?? [])),
];

/** the smallest label a picture may draw at any width: below it, a phone's reader cannot read it */
const MIN_LABEL_PX = 9;

describe("layout", () => {
  for (const width of [360, 1920]) {
    it(`at ${width} px no page scrolls sideways, with its results shown`, async () => {
      const b = await launch();
      const wide: string[] = [];
      const tiny: string[] = [];
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
            // the smallest label a picture draws, as the reader sees it: its font size times the
            // picture's scale (a viewBox shrunk to a phone shrinks its text with it)
            let small = { px: Infinity, text: "" };
            for (const t of Array.from(document.querySelectorAll("svg text"))) {
              const r = t.getBoundingClientRect();
              if (!r.width || !t.textContent?.trim()) continue;
              const m = (t as SVGTextElement).getScreenCTM();
              const px = parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1); // rotated too
              if (px < small.px) small = { px, text: `${t.closest("svg")?.getAttribute("class") ?? "svg"} "${t.textContent.trim().slice(0, 30)}"` };
            }
            return { scroll: document.documentElement.scrollWidth, w, worst, small };
          });
          if (over.small.px < MIN_LABEL_PX) tiny.push(`${p.name}: ${over.small.px.toFixed(1)} px, ${over.small.text}`);
          if (width === 360) await screenshot(b.page, `narrow-${p.name}`);
          if (over.scroll > over.w + 1) wide.push(`${p.name}: ${over.scroll} px wide, ${over.worst}`);
        }
        expect(wide).toEqual([]);
        expect(tiny).toEqual([]);
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
