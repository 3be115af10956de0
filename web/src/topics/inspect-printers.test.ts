// fslab inspect's text comes from the topics: each format the inspectors read is printed by
// exactly one topic, the one whose manifest's inspect: names it, with no list in the CLI.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadCoreModule } from "../shared/node-load";
import { inspectImage } from "../shared/inspect/inspect";
import type { ImageRecipe } from "../shared/inspect/test-images";
import { loadInspectPrinter, loadTopics } from "./node-index";

const IMAGES = new URL("../../../wasm/tests/images/", import.meta.url);

describe("fslab inspect's printers", () => {
  afterEach(() => vi.restoreAllMocks());

  it("every test image's format has one topic printing it, and the printer reads the whole report", async () => {
    const topics = await loadTopics();
    const m = await loadCoreModule("inspect");
    const names = readdirSync(IMAGES).filter((f) => f.endsWith(".img.gz"));
    const formats = new Set<string>();
    for (const name of names) {
      const report = inspectImage(m, gunzipSync(readFileSync(new URL(name, IMAGES))));
      formats.add(report.fs);
      expect(topics.filter((t) => t.inspect?.fs === report.fs).map((t) => t.id), name).toHaveLength(1);
      const lines: string[] = [];
      vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
      const printer = await loadInspectPrinter(topics, report.fs);
      printer.printReport(report);
      vi.restoreAllMocks();
      expect(lines.length, name).toBeGreaterThan(2);
      // the test images are clean: the format's damage reader says so
      expect(printer.damageOf(report), name).toEqual([]);
    }
    // every format a manifest prints has a test image, and every image a printer
    expect([...formats].sort()).toEqual(topics.flatMap((t) => (t.inspect ? [t.inspect.fs] : [])).sort());
  });

  it("every test image has its topic's recipe (test-images.ts), and every recipe its image", async () => {
    const recipes: string[] = [];
    for (const t of await loadTopics())
      if (existsSync(new URL(`./${t.id}/test-images.ts`, import.meta.url)))
        for (const r of ((await import(`./${t.id}/test-images.ts`)) as { imageRecipes: ImageRecipe[] }).imageRecipes) {
          expect(r.name.startsWith(t.inspect?.fs ?? "?"), `${t.id}'s ${r.name}: an image is named after its format`).toBe(true);
          recipes.push(r.name);
        }
    expect(recipes.sort()).toEqual(readdirSync(IMAGES).filter((f) => f.endsWith(".img.gz")).map((f) => f.slice(0, -".img.gz".length)).sort());
  });

  it("a format no manifest prints is an error naming what is missing", async () => {
    await expect(loadInspectPrinter(await loadTopics(), "btrfs")).rejects.toThrow(/no topic prints a btrfs report: a manifest's inspect: \{ fs: "btrfs", module \} is missing/);
  });
});
