// fslab bench heap: the lab page's JS heap over FSLAB_BENCH_HEAP_MINUTES (10) minutes of
// mq-deadline's busiest stream (bench/heap.ts). The longest part: it runs last.
import { UsageError } from "../../web/src/shared/cli-args";
import { heapOverTime } from "../heap";
import type { BenchPart } from "../report";
import { describeSpread, laterMinusEarlier } from "../paired";

export const part: BenchPart = {
  order: 10,
  summary: "the lab page's JS heap over 10 minutes of the busiest stream (FSLAB_BENCH_HEAP_MINUTES)",
  async run() {
    const minutes = Number(process.env.FSLAB_BENCH_HEAP_MINUTES ?? 10);
    if (!Number.isInteger(minutes) || minutes < 1) throw new UsageError(`FSLAB_BENCH_HEAP_MINUTES must be a whole number of minutes, not "${process.env.FSLAB_BENCH_HEAP_MINUTES}"`, "usage: FSLAB_BENCH_HEAP_MINUTES=10 fslab bench heap");
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
    console.log(`Lab page JS heap (after a forced GC) while mq-deadline's busiest stream runs \`load\` in a loop, ${minutes} min in Chromium:`);
    const xs = await heapOverTime(minutes, (s) =>
      console.log(`  minute ${String(s.minute).padStart(2)}: ${mb(s.heap).padStart(9)}, ${s.loads} runs in the panel${s.dropped ? "; the page has let the oldest events go" : ""}`),
    );
    const capped = xs.findIndex((s) => s.dropped);
    const after = capped >= 0 ? xs.slice(capped) : [];
    console.log(
      `  start ${mb(xs[0].heap)}, end ${mb(xs.at(-1)!.heap)}, largest ${mb(Math.max(...xs.map((s) => s.heap)))}; ` +
        (after.length > 1
          ? `from the first drop (minute ${xs[capped].minute}) to the end, a later minute's heap less an earlier one's: ` +
              describeSpread(laterMinusEarlier(after.map((s) => s.heap / 2 ** 20)), { atMost: 0, text: "no growth once the cap is reached" }, { what: "differences", digits: 1, unit: " MB" })
          : "the event cap was not reached in this run (goal: no growth once it is)"),
    );
  },
};
