// A directory's 32-byte slots as a strip, a row per cluster: the model's directories, the
// disk's, and the search step-through alike. Optional marks: a run of slots drawn in the
// "placed" colour (a new entry set) and runs underlined (entries a search examined).
import { useEffect, useRef } from "react";
import type { DirRun } from "./exfat-dir";
import { slotRuns } from "./exfat-disk";

export const SLOT_COLOURS = ["#e8e8e8", "#E69F00", "#0072B2"]; // unused, deleted, in use
export const PLACED = "#CC79A7";
const EXAMINED = "#000000";
const CELL_W = 4;
const CELL_H = 9;

interface Props {
  run: Pick<DirRun, "slots" | "clusters"> & { emptyHint?: boolean };
  testId?: string;
  placed?: { start: number; count: number };
  underlined?: Array<{ start: number; count: number }>;
}

export function SlotStrip({ run, testId = `slots-${run.emptyHint ? 1 : 0}`, placed, underlined = [] }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  const per = run.slots.length / run.clusters;
  useEffect(() => {
    const c = ref.current!;
    const ratio = window.devicePixelRatio || 1;
    c.width = per * CELL_W * ratio;
    c.height = run.clusters * (CELL_H + 2) * ratio;
    const g = c.getContext("2d")!;
    g.scale(ratio, ratio);
    const at = (i: number): [number, number] => [(i % per) * CELL_W, Math.floor(i / per) * (CELL_H + 2)];
    run.slots.forEach((s, i) => {
      const [x, y] = at(i);
      g.fillStyle = placed && i >= placed.start && i < placed.start + placed.count ? PLACED : (SLOT_COLOURS[s] ?? "#f00");
      g.fillRect(x, y, CELL_W - 0.5, CELL_H);
    });
    g.fillStyle = EXAMINED;
    for (const u of underlined)
      for (let i = u.start; i < u.start + u.count && i < run.slots.length; i++) {
        const [x, y] = at(i);
        g.fillRect(x, y + CELL_H - 2, CELL_W - 0.5, 2);
      }
  }, [run, per, placed, underlined]);
  return (
    <canvas ref={ref} style={{ width: per * CELL_W, height: run.clusters * (CELL_H + 2) }} aria-hidden="true" data-testid={testId} data-slots={slotRuns(run.slots)} />
  );
}
