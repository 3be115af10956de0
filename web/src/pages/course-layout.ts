// Where the home page's storage stack puts each band, card and arrow, for a given width: one
// band per layer (labs/stack.ts), top to bottom; in each band the labs that sit there (in the
// course's order), then the playgrounds; the course's path as arrows from each lab to the
// next; and, in the band of every other layer a lab works at, a small marker with its number.
// Wide (a label column on the left) from WIDE px, a label row above each band below it.
// Pure: the component draws it, and the tests measure it.
import { LAYERS, type LayerId } from "../labs/stack";

export interface CourseItem {
  kind: "lab" | "play";
  /** a lab's id, a playground's route */
  id: string;
  href: string;
  title: string;
  /** where its card sits */
  layer: LayerId;
  /** the other layers it works at (labs only) */
  reach: LayerId[];
  /** its place on the course's path, from 1 (labs only) */
  n?: number;
}

export interface Box { x: number; y: number; w: number; h: number }
export interface Band extends Box { layer: LayerId; name: string; label: { x: number; y: number } }
export interface Card extends Box { item: CourseItem; lines: string[] }
export interface Marker { layer: LayerId; n: number; id: string; x: number; y: number }
export interface Arrow { from: string; to: string; d: string }

export interface CourseLayout {
  width: number;
  height: number;
  wide: boolean;
  bands: Band[];
  cards: Card[];
  markers: Marker[];
  arrows: Arrow[];
}

/** From this width, one column per lab in the course's order (the path runs left to right) */
export const WIDE = 1100;
/** the narrowest a lab's column may be, wide: 13 characters a line of its title (ten labs fit 1440 px) */
export const MIN_COL = 108;
const PAD = 8;
const GAP = 12;
export const LAB_H = 86;
export const PLAY_H = 52;
const MARK_R = 10;
/** an average character's width in the cards' 12.5 px text, for wrapping titles */
const CHAR_W = 7.3;

/** A title in at most `max` lines of `chars` characters, the last cut with an ellipsis. */
export function wrap(text: string, chars: number, max: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    const next = line ? `${line} ${w}` : w;
    if (next.length <= chars) line = next;
    else {
      if (line) lines.push(line);
      line = w.length > chars ? w.slice(0, chars - 1) + "…" : w;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  const last = kept[max - 1];
  kept[max - 1] = (last.length >= chars ? last.slice(0, chars - 1) : last) + "…";
  return kept;
}

const linesOf = (item: CourseItem, w: number) =>
  wrap(item.title, Math.max(8, Math.floor((w - 16) / CHAR_W)), item.kind === "lab" ? 3 : 2);

/**
 * Wide: a label column, then one column per lab in the course's order, each lab in its
 * layer's band, so the path steps left to right through the stack; a band's playgrounds take
 * the columns its labs leave free. Narrow: each band's name on a row of its own, then its
 * cards in as many columns as fit (150 px or more each), the labs first; the numbers give
 * the order (arrows there would pass behind other cards).
 */
export function courseLayout(width: number, items: readonly CourseItem[]): CourseLayout {
  const labCount = items.filter((i) => i.kind === "lab").length;
  const labelW = Math.min(170, Math.round(width * 0.13));
  const wideSpan = width - labelW - 3 * PAD;
  const colW = labCount ? (wideSpan - (labCount - 1) * GAP) / labCount : 0;
  const wide = width >= WIDE && colW >= MIN_COL;
  const x0 = wide ? labelW + 2 * PAD : PAD;
  const x1 = width - PAD;
  const span = x1 - x0;
  const cols = wide ? labCount : Math.max(1, Math.floor((span + GAP) / (150 + GAP)));
  const cardW = wide ? colW : (span - (cols - 1) * GAP) / cols;
  const colX = (c: number) => x0 + c * (cardW + GAP);
  const bands: Band[] = [];
  const cards: Card[] = [];
  const markers: Marker[] = [];
  const markerStep = 2 * MARK_R + 4;
  let y = PAD;
  for (const layer of LAYERS) {
    const here = items.filter((i) => i.layer === layer.id);
    const reaching = items.filter((i) => i.kind === "lab" && i.reach.includes(layer.id)).sort((a, b) => (a.n ?? 0) - (b.n ?? 0));
    const top = y;
    let labelH: number;
    let cy: number; // the first row of cards
    if (wide) {
      const perRow = Math.max(1, Math.floor((labelW - PAD) / markerStep));
      reaching.forEach((r, k) =>
        markers.push({ layer: layer.id, n: r.n ?? 0, id: r.id, x: PAD + MARK_R + (k % perRow) * markerStep, y: top + 32 + MARK_R + Math.floor(k / perRow) * markerStep }),
      );
      labelH = 32 + (reaching.length ? Math.ceil(reaching.length / perRow) * markerStep : 0);
      cy = top + GAP;
    } else {
      const nameW = layer.name.length * 7.8 + 2 * PAD;
      const perRow = Math.max(1, Math.floor((span - nameW) / markerStep));
      reaching.forEach((r, k) =>
        markers.push({ layer: layer.id, n: r.n ?? 0, id: r.id, x: x1 - MARK_R - (perRow - 1 - (k % perRow)) * markerStep, y: top + 14 + Math.floor(k / perRow) * markerStep }),
      );
      labelH = Math.max(28, reaching.length ? Math.ceil(reaching.length / perRow) * markerStep + 6 : 28);
      cy = top + labelH;
    }
    // rows of cells: wide, a lab in its own column of the first row; the rest fill free cells
    const rows: Array<Array<CourseItem | null>> = [];
    const row = (r: number) => (rows[r] ??= new Array<CourseItem | null>(cols).fill(null));
    const place = (item: CourseItem, r: number, c: number) => (row(r)[c] = item);
    const colOf = new Map(items.filter((i) => i.kind === "lab").sort((a, b) => (a.n ?? 0) - (b.n ?? 0)).map((l, k) => [l.id, k]));
    const rest: CourseItem[] = [];
    for (const item of here) {
      if (wide && item.kind === "lab") place(item, 0, colOf.get(item.id)!);
      else rest.push(item);
    }
    for (const item of rest.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "lab" ? -1 : 1))) {
      for (let r = 0; ; r++) {
        const c = row(r).indexOf(null);
        if (c >= 0) {
          place(item, r, c);
          break;
        }
      }
    }
    let bottom = cy;
    rows.forEach((cells) => {
      const h = Math.max(0, ...cells.map((i) => (i ? (i.kind === "lab" ? LAB_H : PLAY_H) : 0)));
      cells.forEach((item, c) => item && cards.push({ item, x: colX(c), y: cy, w: cardW, h: item.kind === "lab" ? LAB_H : PLAY_H, lines: linesOf(item, cardW) }));
      bottom = cy + h;
      cy += h + GAP;
    });
    const h = Math.max(wide ? labelH + GAP : labelH + 4, bottom - top + GAP);
    bands.push({ layer: layer.id, name: layer.name, x: 0, y: top, w: width, h, label: { x: PAD, y: top + 20 } });
    y = top + h;
  }
  // the course's path, wide only: right edge of each lab's card to the left edge of the next's
  const arrows: Arrow[] = [];
  if (wide) {
    const labs = cards.filter((c) => c.item.kind === "lab" && c.item.n !== undefined).sort((a, b) => a.item.n! - b.item.n!);
    for (let k = 0; k + 1 < labs.length; k++) {
      const a = labs[k], b = labs[k + 1];
      const sx = a.x + a.w, sy = a.y + 20, ex = b.x - 2, ey = b.y + 20;
      const mx = (sx + ex) / 2;
      arrows.push({ from: a.item.id, to: b.item.id, d: `M${sx},${sy} C${mx},${sy} ${mx},${ey} ${ex},${ey}` });
    }
  }
  return { width, height: y + PAD, wide, bands, cards, markers, arrows };
}
