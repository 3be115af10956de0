// The block model's answers for a learner's problem, held to the rules they follow and to a run
// of the real kernel: traces/dd-grade.trace.gz is the mq-deadline lab's grading workload as our
// kernel ran it (fifo_batch 3, writes_starved 4; grader.test.ts says how it was recorded).
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { BlkModule } from "@wasm/blk.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { parseBlkTrace } from "./blk-trace";
import { traceTunables } from "./dd-kernel";
import { topicAnswers } from "./answers";

let m: BlkModule;
beforeAll(async () => {
  m = await loadCoreModule("blk");
});
const readsBetween = (fifo_batch: number, writes_starved: number) => topicAnswers.answers["reads-between-writes"](m, { fifo_batch, writes_starved });

describe("blk.reads-between-writes", () => {
  it("is writes_starved read batches of fifo_batch each, for every value the lab draws", () => {
    // __dd_dispatch_request: `starved++ >= writes_starved` lets reads win writes_starved times
    for (let f = 3; f <= 12; f++) for (let w = 1; w <= 4; w++) expect(readsBetween(f, w), `fifo_batch ${f}, writes_starved ${w}`).toBe(f * w);
  });

  it("is the longest run of reads between two write dispatches in the kernel's own run", () => {
    const trace = parseBlkTrace(gunzipSync(readFileSync(new URL("./traces/dd-grade.trace.gz", import.meta.url))).toString("utf8"));
    const t = traceTunables(trace);
    const dirs = trace.sched.filter((e) => e.kind === "dispatch" && e.dd!.because !== "head").map((e) => (e.dd!.dir ? "W" : "R")).join("");
    const runs = [...dirs.matchAll(/(?<=W)R+(?=W)/g)].map((x) => x[0].length);
    expect(runs.length).toBeGreaterThan(3);
    expect(Math.max(...runs)).toBe(readsBetween(t.fifo_batch, t.writes_starved));
    expect(t).toMatchObject({ fifo_batch: 3, writes_starved: 4 });
  });

  it("refuses settings outside the tunables' range", () => {
    expect(() => readsBetween(0, 2)).toThrow(/fifo_batch/);
    expect(() => readsBetween(4, 0)).toThrow(/writes_starved/);
  });
});
