// The course picture's layout at a phone's and a desktop's width: every card inside the page
// and inside its layer's band, none over another, the path's arrows from each lab to the next.
import { describe, expect, it } from "vitest";
import { courseLayout, wrap, MIN_COL, WIDE, type CourseItem } from "./course-layout";
import { LAYER_IDS, type LayerId } from "../labs/stack";

const lab = (id: string, n: number, layers: LayerId[]): CourseItem => ({ kind: "lab", id, href: `#/lab/${id}`, title: `A lab called ${id} with a title long enough to wrap twice or more`, layer: layers[0], reach: layers.slice(1), n });
const play = (id: string, layer: LayerId): CourseItem => ({ kind: "play", id, href: `#/play/${id}`, title: `Playground ${id}`, layer, reach: [] });
const ITEMS: CourseItem[] = [
  lab("write-path", 1, ["syscall", "vfs", "filesystem", "page-cache", "block", "scheduler", "driver"]),
  lab("exfat-discard", 2, ["filesystem", "block", "device"]),
  lab("exfat-empty-hint", 3, ["filesystem", "vfs"]),
  lab("vfat", 4, ["vfs", "filesystem"]),
  lab("f2fs", 5, ["filesystem"]),
  lab("ext4", 6, ["filesystem", "page-cache", "block", "device"]),
  lab("mq", 7, ["scheduler", "block"]),
  lab("io", 8, ["scheduler", "driver", "device"]),
  play("wp", "syscall"), play("vfat", "vfs"), play("exfat", "filesystem"), play("exfat-dir", "filesystem"), play("ext4", "filesystem"), play("f2fs", "filesystem"), play("blk", "scheduler"), play("sd", "driver"),
];

describe("the course's layout", () => {
  it("ten labs still take a column each at 1440 px, each at least MIN_COL wide", () => {
    const ten = [...ITEMS, lab("sd", 9, ["driver", "device"]), lab("dd", 10, ["scheduler", "block"])];
    const l = courseLayout(1440, ten);
    expect(l.wide).toBe(true);
    for (const c of l.cards.filter((c) => c.item.kind === "lab")) expect(c.w).toBeGreaterThanOrEqual(MIN_COL);
    expect(courseLayout(1100, ten).wide).toBe(false); // 1100 px is too narrow for ten
  });

  for (const width of [360, 390, 768, 1024, 1440, 1920]) {
    it(`at ${width} px: every card in the page and in its band, none overlapping`, () => {
      const l = courseLayout(width, ITEMS);
      expect(l.wide).toBe(width >= WIDE);
      expect(l.bands.map((b) => b.layer)).toEqual(LAYER_IDS);
      expect(l.cards).toHaveLength(ITEMS.length);
      for (const c of l.cards) {
        expect(c.x, c.item.id).toBeGreaterThanOrEqual(0);
        expect(c.x + c.w, c.item.id).toBeLessThanOrEqual(width);
        const band = l.bands.find((b) => b.layer === c.item.layer)!;
        expect(c.y, c.item.id).toBeGreaterThanOrEqual(band.y);
        expect(c.y + c.h, c.item.id).toBeLessThanOrEqual(band.y + band.h);
        for (const d of l.cards)
          if (d !== c) expect(c.x + c.w <= d.x || d.x + d.w <= c.x || c.y + c.h <= d.y || d.y + d.h <= c.y, `${c.item.id} over ${d.item.id}`).toBe(true);
        // a title's lines fit its card (at the layout's estimate of a character's width)
        for (const line of c.lines) expect(line.length * 7.3, `${c.item.id}: ${line}`).toBeLessThanOrEqual(c.w - 8);
      }
      // a marker for every other layer a lab touches, in that layer's band
      expect(l.markers).toHaveLength(ITEMS.reduce((a, i) => a + i.reach.length, 0));
      for (const m of l.markers) {
        const band = l.bands.find((b) => b.layer === m.layer)!;
        expect(m.y).toBeGreaterThan(band.y);
        expect(m.y).toBeLessThan(band.y + band.h);
        expect(m.x).toBeLessThanOrEqual(width);
      }
      expect(l.height).toBe(l.bands.at(-1)!.y + l.bands.at(-1)!.h + 8);
    });
  }

  it("wide, the labs step left to right in the course's order, an arrow from each to the next", () => {
    const l = courseLayout(1440, ITEMS);
    const xs = ITEMS.filter((i) => i.kind === "lab").map((i) => l.cards.find((c) => c.item === i)!.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(l.arrows.map((a) => `${a.from}>${a.to}`)).toEqual(["write-path>exfat-discard", "exfat-discard>exfat-empty-hint", "exfat-empty-hint>vfat", "vfat>f2fs", "f2fs>ext4", "ext4>mq", "mq>io"]);
    // narrow, the numbers give the order: no arrows behind the cards
    expect(courseLayout(360, ITEMS).arrows).toEqual([]);
  });

  it("wraps a title to lines, cutting the last with an ellipsis", () => {
    expect(wrap("one two three four", 9, 3)).toEqual(["one two", "three", "four"]);
    expect(wrap("one two three four", 9, 2)).toEqual(["one two", "three…"]);
    expect(wrap("supercalifragilistic", 8, 2)).toEqual(["superca…"]);
  });
});
