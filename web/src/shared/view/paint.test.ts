import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { cellPixels } from "./paint";

/** The plain way: every pixel of every cell set on its own (what paintCells did before). */
function reference(colours: Uint32Array, cols: number, cellPx: number, background: number): Uint32Array {
  const rows = Math.ceil(colours.length / cols);
  const w = cols * cellPx;
  const px = new Uint32Array(w * rows * cellPx).fill(background);
  const inner = cellPx - (cellPx >= 4 ? 1 : 0);
  colours.forEach((c, i) => {
    const x0 = (i % cols) * cellPx;
    const y0 = Math.floor(i / cols) * cellPx;
    for (let y = 0; y < inner; y++) for (let x = 0; x < inner; x++) px[(y0 + y) * w + x0 + x] = c;
  });
  return px;
}

describe("cellPixels", () => {
  it("paints every cell, gap and unfilled last row as the pixel-by-pixel way does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 0xffffffff }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom(0, 0xff00ff00),
        (cs, cols, cellPx, background) => {
          const colours = Uint32Array.from(cs);
          const want = reference(colours, cols, cellPx, background);
          // a reused buffer holding the last frame's pixels: nothing of it may show through
          const px = new Uint32Array(want.length).fill(0x12345678);
          cellPixels(px, colours, cols, cellPx, background);
          expect(px).toEqual(want);
        },
      ),
    );
  });

  it("leaves a one-pixel gap between cells of 4 px and more, none below", () => {
    const px = new Uint32Array(2 * 4 * 4);
    cellPixels(px, Uint32Array.of(7, 9), 2, 4);
    // first pixel row: 3 of cell 0, gap, 3 of cell 1, gap; the fourth pixel row is all gap
    expect(Array.from(px.subarray(0, 8))).toEqual([7, 7, 7, 0, 9, 9, 9, 0]);
    expect(Array.from(px.subarray(24, 32))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const small = new Uint32Array(2 * 3 * 3);
    cellPixels(small, Uint32Array.of(7, 9), 2, 3);
    expect(Array.from(small.subarray(0, 6))).toEqual([7, 7, 7, 9, 9, 9]);
  });
});
