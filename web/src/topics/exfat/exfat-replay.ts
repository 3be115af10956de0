// A delete, replayed event by event: the allocation bitmap as it was before the delete with
// the first k of the delete's events applied (bitmap clears and discard requests, in the
// order __exfat_free_cluster() issued them), and the modelled time spent so far at the cost
// exfat-cost.ts fits to the 6.15 commit's measurement. Stepping either way applies or undoes only the events in
// between, so scrubbing a 20-million-cluster delete stays cheap.
import { WORDS_PER_EVENT } from "../../shared/events";
import { EV, type ExfatDiscard } from "./events";
import { DEFAULT_COST } from "./exfat-cost";
import { EXFAT_FIRST_CLUSTER } from "./exfat-core";

export class DeleteReplay {
  /** the delete's bitmap clears and discards, as offsets into `events` */
  private steps: number[] = [];
  readonly bitmap: Uint8Array;
  private k = 0;
  private discardCount = 0;
  /** cumulative modelled milliseconds after each step (index 0: before the first) */
  readonly costMs: Float64Array;

  constructor(
    before: Uint8Array,
    private readonly events: Uint32Array,
    cost = DEFAULT_COST,
  ) {
    this.bitmap = before.slice();
    for (let i = 0; i < events.length; i += WORDS_PER_EVENT)
      if (events[i] === EV.EXFAT_BITMAP_CLEAR || events[i] === EV.EXFAT_DISCARD) this.steps.push(i);
    this.costMs = new Float64Array(this.steps.length + 1);
    this.steps.forEach((i, s) => {
      // a clear costs its clusters' share, a discard one request
      const ms = events[i] === EV.EXFAT_BITMAP_CLEAR ? (events[i + 2] * cost.clusterNs) / 1e6 : cost.requestUs / 1e3;
      this.costMs[s + 1] = this.costMs[s] + ms;
    });
  }

  get total(): number {
    return this.steps.length;
  }
  get position(): number {
    return this.k;
  }
  get discardsSoFar(): number {
    return this.discardCount;
  }

  /** Moves to step k (0..total): the bitmap then shows the delete's first k events applied. */
  seek(k: number): void {
    k = Math.max(0, Math.min(this.total, k));
    while (this.k < k) this.apply(this.steps[this.k++], false);
    while (this.k > k) this.apply(this.steps[--this.k], true);
  }

  /** The discard requests issued in the first k steps (the last `max` of them). */
  discards(max = Infinity): ExfatDiscard[] {
    const out: ExfatDiscard[] = [];
    for (let s = this.k - 1; s >= 0 && out.length < max; s--) {
      const i = this.steps[s];
      if (this.events[i] === EV.EXFAT_DISCARD) out.push({ start: this.events[i + 1], count: this.events[i + 2], policy: this.events[i + 3] });
    }
    return out.reverse();
  }

  private apply(i: number, undo: boolean): void {
    const e = this.events;
    if (e[i] === EV.EXFAT_DISCARD) {
      this.discardCount += undo ? -1 : 1;
      return;
    }
    const from = e[i + 1] - EXFAT_FIRST_CLUSTER;
    for (let b = from; b < from + e[i + 2]; b++) {
      if (undo) this.bitmap[b >> 3] |= 1 << (b & 7);
      else this.bitmap[b >> 3] &= ~(1 << (b & 7));
    }
  }
}
