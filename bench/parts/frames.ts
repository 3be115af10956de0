// fslab bench frames: the views' frame times in Chromium (bench/frames.ts, page #/bench/frames).
import { frameStats, describe, describeVm } from "../frames";
import type { BenchPart } from "../report";

export const part: BenchPart = {
  order: 4,
  summary: "the views' frame times in Chromium: 65,536 animated cells, a 2^24-bit bitmap",
  async run() {
    const r = await frameStats();
    console.log("Views in Chromium (headless, software canvas), 240 frames each:");
    console.log(describe("65,536 clusters, per-cluster delete replayed", r.cells, 60));
    console.log(describe("2^24-bit bitmap, downsampled, freed stretch by stretch", r.bitmap, 30));
    for (const line of describeVm(r.vm)) console.log(line);
  },
};
