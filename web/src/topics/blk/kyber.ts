// kyber as the blk core (wasm/src/blk) reports it: each run of its timer, and its domains'
// depths, tokens and latency buckets after a step, parsed from the core's words.
export const KYBER_DOMAINS = ["read", "write", "discard", "other"] as const;
/** kyber_depth[] and kyber_batch_size[] in block/kyber-iosched.c */
export const KYBER_DEPTH = [256, 128, 64, 16] as const;
export const KYBER_BATCH_SIZE = [16, 8, 1, 1] as const;

/** One run of kyber_timer_fn() (wasm/src/blk/exports.c fx_blk_kyber_trace). */
export interface KyberTimerRun {
  us: number;
  bad: boolean; // some domain's p90 I/O latency was over its target
  p90: number[]; // [read, write, discard] histogram bucket (quarters of the target, 7: > 1.75x); -1: too few samples
  p99: number[]; // total latency, same buckets
  depth: number[]; // [read, write, discard, other] after the run
}

const KYBER_TRACE_WORDS = 13;
const i32 = (x: number) => x | 0;

export function parseKyberTrace(w: Uint32Array): KyberTimerRun[] {
  const out: KyberTimerRun[] = [];
  for (let o = 0; o + KYBER_TRACE_WORDS <= w.length; o += KYBER_TRACE_WORDS) {
    out.push({
      us: (w[o] + w[o + 1] * 2 ** 32) / 1000,
      bad: w[o + 2] !== 0,
      p90: [i32(w[o + 3]), i32(w[o + 4]), i32(w[o + 5])],
      p99: [i32(w[o + 6]), i32(w[o + 7]), i32(w[o + 8])],
      depth: [w[o + 9], w[o + 10], w[o + 11], w[o + 12]],
    });
  }
  return out;
}

/** One scheduling domain's token pool and queues. */
export interface KyberDomain {
  depth: number; // the pool's current depth (kyber_depth[] at most)
  busy: number; // tokens held below the depth
  held: number; // every token held (a shrink can leave some above the depth)
  batchSize: number;
  maxDepth: number;
  throttled: number; // dispatch attempts that found no token (trace_kyber_throttled)
  ctxQueue: number[]; // the software queue's list (kcq->rq_list), oldest first
  rqs: number[]; // flushed to the hardware queue's list (khd->rqs), oldest first
}

/** A domain's latency histograms: buckets of target / 4, the last one everything over 1.75x. */
export interface KyberLatency {
  targetUs: number;
  domainP99: number; // remembered p99 bucket, -1: none
  latencyTimeout: number; // jiffies; 0: no window open
  pending: { total: number[]; io: number[] }; // samples not yet flushed by the timer
  window: { total: number[]; io: number[] }; // flushed, waiting for enough samples
}

/** kyber after one step (wasm/src/blk/exports.c fx_blk_kyber_state). */
export interface KyberState {
  nowUs: number;
  jiffies: number;
  curDomain: number;
  batching: number;
  tagsUsed: number;
  inService: number;
  timerPending: boolean;
  timerExpires: number; // jiffies: timer->expires
  timerTick: number; // jiffies: when the timer wheel runs it (its bucket, rounded up)
  timerRuns: number;
  domains: KyberDomain[]; // [read, write, discard, other]
  latency: KyberLatency[]; // [read, write, discard]
  dispatched: Array<{ rq: number; token: number }>;
}

export function parseKyberState(w: Uint32Array): KyberState {
  let o = 10;
  const list = () => {
    const n = w[o++];
    const out = Array.from(w.subarray(o, o + n));
    o += n;
    return out;
  };
  const take = (n: number) => {
    const out = Array.from(w.subarray(o, o + n));
    o += n;
    return out;
  };
  const domains = KYBER_DOMAINS.map(() => {
    const [depth, busy, held, batchSize, maxDepth, throttled] = take(6);
    return { depth, busy, held, batchSize, maxDepth, throttled, ctxQueue: list(), rqs: list() };
  });
  const latency = KYBER_DOMAINS.slice(0, 3).map(() => {
    const [targetUs, p99, latencyTimeout] = take(3);
    const pending = { total: take(8), io: take(8) };
    const window = { total: take(8), io: take(8) };
    return { targetUs, domainP99: i32(p99), latencyTimeout, pending, window };
  });
  const n = w[o++];
  const dispatched = Array.from({ length: n }, (_, i) => ({ rq: w[o + 2 * i], token: w[o + 2 * i + 1] }));
  return {
    nowUs: w[0], jiffies: w[1], curDomain: w[2], batching: w[3], tagsUsed: w[4], inService: w[5],
    timerPending: w[6] !== 0, timerExpires: w[7], timerRuns: w[8], timerTick: w[9], domains, latency, dispatched,
  };
}

/** mq-deadline's FIFO and sort lists of one priority and direction, as the scheduler holds them. */
