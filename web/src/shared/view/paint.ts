// Pixel painting for the views with tens of thousands of cells or millions of bits: one
// ImageData written as 32-bit words and put once per frame, instead of a fillRect per cell.
import { interpolateRgb } from "d3";

/** "#rrggbb" as the little-endian RGBA word an ImageData's Uint32Array view holds. */
export function rgbaWord(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  return ((0xff << 24) | ((n & 0xff) << 16) | (n & 0xff00) | (n >> 16)) >>> 0;
}

/**
 * Paints `colours` (one RGBA word per cell, row-major, `cols` per row) as square cells of
 * `cellPx` device pixels with a one-pixel gap when cells are big enough to afford it.
 * The ImageData is kept per context and reused: a new one per frame is megabytes of garbage.
 */
export function paintCells(ctx: CanvasRenderingContext2D, colours: Uint32Array, cols: number, cellPx: number, background = 0): void {
  const rows = Math.ceil(colours.length / cols);
  const w = cols * cellPx;
  const h = rows * cellPx;
  if (ctx.canvas.width !== w || ctx.canvas.height !== h) {
    ctx.canvas.width = w;
    ctx.canvas.height = h;
  }
  let img = images.get(ctx);
  if (!img || img.width !== w || img.height !== h) images.set(ctx, (img = ctx.createImageData(w, h)));
  cellPixels(new Uint32Array(img.data.buffer), colours, cols, cellPx, background);
  ctx.putImageData(img, 0, 0);
}

const images = new WeakMap<CanvasRenderingContext2D, ImageData>();

/**
 * The pixels of paintCells into `px` (cols * cellPx wide): each grid row's first pixel row
 * written cell by cell, the cell's other pixel rows copied from it in one copyWithin per row.
 * (A fill() per cell and pixel row was 196,608 calls a frame for 65,536 cells of 3 px.)
 */
export function cellPixels(px: Uint32Array, colours: Uint32Array, cols: number, cellPx: number, background = 0): void {
  const w = cols * cellPx;
  const rows = Math.ceil(colours.length / cols);
  const gap = cellPx >= 4 ? 1 : 0;
  const inner = cellPx - gap;
  px.fill(background);
  for (let r = 0; r < rows; r++) {
    const top = r * cellPx * w;
    const last = Math.min((r + 1) * cols, colours.length);
    for (let i = r * cols, x = top; i < last; i++, x += cellPx) {
      const c = colours[i];
      for (let k = 0; k < inner; k++) px[x + k] = c;
    }
    for (let y = 1; y < inner; y++) px.copyWithin(top + y * w, top, top + w);
  }
}

const POPCOUNT = new Uint8Array(256).map((_, i) => {
  let n = 0;
  for (let v = i; v; v >>= 1) n += v & 1;
  return n;
});

/** The shade for a share of set bits: free (light) to full (dark), 256 steps. */
export const DENSITY_RAMP = Uint32Array.from({ length: 256 }, (_, i) => {
  const c = interpolateRgb("#f2f2f2", "#0b3d91")(i / 255);
  const [r, g, b] = c.match(/\d+/g)!.map(Number);
  return ((0xff << 24) | (b << 16) | (g << 8) | r) >>> 0;
});

/** The shade for count out of full (a NAT block's free or valid NIDs of 455, say). */
export const densityWord = (count: number, full: number) => DENSITY_RAMP[Math.max(0, Math.min(255, Math.round((count * 255) / full)))];

/**
 * Downsamples a bitmap of `bits` bits to width x height pixels, each the share of set bits in
 * its bucket of ceil(bits / pixels) bits (the legend's "1 px = N bits"); returns that N.
 * Buckets are whole bytes when N is a multiple of 8, as for every large bitmap.
 */
export function paintDensity(ctx: CanvasRenderingContext2D, bitmap: Uint8Array, bits: number, width: number, height: number): number {
  if (ctx.canvas.width !== width || ctx.canvas.height !== height) {
    ctx.canvas.width = width;
    ctx.canvas.height = height;
  }
  const pixels = width * height;
  let per = Math.max(1, Math.ceil(bits / pixels));
  if (per > 8) per = Math.ceil(per / 8) * 8;
  const img = ctx.createImageData(width, height);
  const px = new Uint32Array(img.data.buffer);
  const used = Math.ceil(bits / per);
  if (per % 8 === 0) {
    const bytes = per >> 3;
    for (let p = 0, o = 0; p < used; p++) {
      const end = Math.min(o + bytes, bitmap.length);
      let n = 0;
      for (; o < end; o++) n += POPCOUNT[bitmap[o]];
      const inBucket = Math.min(per, bits - p * per);
      px[p] = DENSITY_RAMP[((n * 255) / inBucket) | 0];
    }
  } else {
    for (let p = 0; p < used; p++) {
      let n = 0;
      const from = p * per;
      const to = Math.min(bits, from + per);
      for (let b = from; b < to; b++) n += (bitmap[b >> 3] >> (b & 7)) & 1;
      px[p] = DENSITY_RAMP[((n * 255) / (to - from)) | 0];
    }
  }
  px.fill(0, used); // past the last bit: transparent
  ctx.putImageData(img, 0, 0);
  return per;
}
