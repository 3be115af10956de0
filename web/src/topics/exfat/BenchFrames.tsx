// #/bench/frames: the views' frame-time benchmark (`npm run bench` drives it in Chromium).
//   1. 65,536 clusters: a per-cluster delete of a 64-run file replayed by the exFAT view's own
//      ClusterGrid and DeleteReplay, every frame repainting the whole grid;
//   2. a 2^24-bit allocation bitmap: a 64 GiB exFAT heap of 4 KiB clusters drawn by BitmapCanvas,
//      every frame freeing another stretch and repainting it downsampled.
// Each runs for a fixed number of frames; the page reports the intervals between frames and
// the time each frame's work took, in window.__frameBench.
import { useEffect, useMemo, useState } from "react";
import { flushSync } from "react-dom";
import { exfatClient } from "./exfat-client";
import { useWorker } from "../../shared/useWorker";
import type { ExfatSnapshot } from "./exfat-core";
import { DiscardPolicy } from "./events";
import { DeleteReplay } from "./exfat-replay";
import { ClusterGrid } from "./ClusterGrid";
import { BitmapCanvas } from "../../shared/view/BitmapCanvas";

const CELLS = 65_536;
const BITS = 1 << 24;
const FRAMES = 240;

export interface FrameStats {
  frames: number;
  intervalMs: number[]; // between successive frames
  workMs: number[]; // from the frame's start to the end of its paint
}

declare global {
  interface Window {
    __frameBench?: { cells?: FrameStats; bitmap?: FrameStats; error?: string };
  }
}

/**
 * Runs `step` in FRAMES animation frames, each rendered with flushSync: React commits and runs
 * the views' paint effects before the frame ends, as it does for a discrete input. The next
 * frame is requested at once, so a frame whose work overruns shows as a longer interval.
 */
function measure(step: (i: number) => void): Promise<FrameStats> {
  return new Promise((resolve) => {
    const stats: FrameStats = { frames: 0, intervalMs: [], workMs: [] };
    let last = 0;
    const frame = (t: number) => {
      if (last) stats.intervalMs.push(t - last);
      last = t;
      const t0 = performance.now();
      flushSync(() => step(stats.frames));
      stats.workMs.push(performance.now() - t0);
      if (++stats.frames < FRAMES) requestAnimationFrame(frame);
      else resolve(stats);
    };
    requestAnimationFrame(frame);
  });
}

export function BenchFrames() {
  const { client } = useWorker(exfatClient);
  const [phase, setPhase] = useState("preparing");
  const [cells, setCells] = useState<{ before: ExfatSnapshot; replay: DeleteReplay } | null>(null);
  const [, setTick] = useState(0);
  const bitmap = useMemo(() => new Uint8Array(BITS / 8).fill(0xff), []);
  const [version, setVersion] = useState(0);
  const [showBitmap, setShowBitmap] = useState(false);

  useEffect(() => {
    if (!client) return;
    (async () => {
      try {
        window.__frameBench = {};
        await client.reset(CELLS + 2, 3);
        const made = await client.createFragmented(CELLS - 64, 64);
        const del = await client.delete(made.id, DiscardPolicy.PerCluster);
        const replay = new DeleteReplay(made.snapshot.bitmap, del.result.events);
        setCells({ before: made.snapshot, replay });
        setPhase("cells");
        await new Promise((r) => setTimeout(r, 100));
        const per = Math.ceil(replay.total / FRAMES);
        window.__frameBench.cells = await measure((i) => {
          replay.seek((i + 1) * per);
          setTick(i + 1);
        });
        setCells(null);
        setShowBitmap(true);
        setPhase("bitmap");
        await new Promise((r) => setTimeout(r, 100));
        const stretch = BITS / 8 / FRAMES;
        window.__frameBench.bitmap = await measure((i) => {
          // free the next stretch of the heap, as a big delete would
          bitmap.fill(0, i * stretch, (i + 1) * stretch);
          setVersion(i + 1);
        });
        setPhase("done");
      } catch (e) {
        window.__frameBench = { error: e instanceof Error ? e.message : String(e) };
        setPhase("failed");
      }
    })();
  }, [client, bitmap]);

  return (
    <section className="play">
      <h1>Frame-time benchmark</h1>
      <p data-testid="bench-phase">{phase}</p>
      {cells && (
        <ClusterGrid snapshot={cells.before} bitmap={cells.replay.bitmap.slice()} cols={256} selected={null} discards={cells.replay.discards(256)} onSelect={() => {}} />
      )}
      {showBitmap && <BitmapCanvas bitmap={bitmap} bits={BITS} unit="cluster" version={version} />}
    </section>
  );
}
