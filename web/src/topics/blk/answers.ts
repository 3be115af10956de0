// The block model's answers for a learner's problem (shared/answers.ts).
import type { TopicAnswers } from "../../shared/answers";
import { intParam } from "../../shared/answers";
import { DIVERGE_LINES, divergeRule } from "./divergence";
import { DD_DEFAULTS, DEVICES, ROW, ROW_WIDTH, simulateBlk, type BlkJob } from "./blk-core";

const rule = (token: number) => {
  const r = divergeRule(token);
  if (!r) throw new Error("token 0 breaks no rule");
  return r;
};

export const topicAnswers: TopicAnswers<"blk"> = {
  core: "blk",
  answers: {
    /** the rule of mq-deadline a token written to mq_deadline.diverge breaks (kernel patch 0007) */
    "diverge-rule": (_m, p) => rule(intParam(p, "token", 1, 0xffffffff)),
    /** the line of block/mq-deadline.c that implements that rule */
    "diverge-line": (_m, p) => DIVERGE_LINES[rule(intParam(p, "token", 1, 0xffffffff))],
    /**
     * mq-deadline with these two tunables, a reader and a writer that keep 64 requests queued
     * each, on a disk that serves one request at a time, deadlines too far off to matter: the
     * longest run of reads dispatched between two write batches. (A read batch also ends early
     * when its sorted order runs out, so shorter runs occur; the longest is the rules' bound.)
     */
    "reads-between-writes"(m, p) {
      const fifo_batch = intParam(p, "fifo_batch", 1, 256);
      const writes_starved = intParam(p, "writes_starved", 1, 64);
      const device = { ...DEVICES.hdd, queue_depth: 1, base_ns: 1_000_000, per_sector_ns: 0, seek_max_sectors: 0, per_seek_sector_ns: 0 };
      const ios = 40 * fifo_batch * (writes_starved + 1);
      const job = (write_pct: number, offset: number): BlkJob => ({ iodepth: 64, bs_sectors: 8, ios, random: true, write_pct, ioprio_class: 0, offset, span: 1 << 16 });
      const forever = 3_600_000;
      const r = simulateBlk(m, { sched: "mq-deadline", device, jobs: [job(0, 0), job(100, 1 << 16)], tunables: { ...DD_DEFAULTS, fifo_batch, writes_starved, read_expire_ms: forever, write_expire_ms: forever } });
      const dirs = Array.from(r.order, (i) => (r.rows[i * ROW_WIDTH + ROW.op] ? "W" : "R")).join("");
      // runs of reads with a write on each side
      const between = [...dirs.matchAll(/(?<=W)R+(?=W)/g)].map((x) => x[0].length);
      if (!between.length) throw new Error("the model's run has no reads between two write batches");
      return Math.max(...between);
    },
  },
};
