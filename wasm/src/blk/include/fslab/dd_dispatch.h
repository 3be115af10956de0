/* SPDX-License-Identifier: MIT */
/*
 * What __dd_dispatch_request() (dd_dispatch.c) works with: mq_deadline.c's helpers, with the
 * kernel's names, and the kernel's jiffies comparisons. A learner's version of it in a code
 * step sees exactly this.
 */
#ifndef FSLAB_DD_DISPATCH_H
#define FSLAB_DD_DISPATCH_H
#include "fslab/blk.h"

/* time_after(a, b): a is later than b, on a clock that wraps (include/linux/jiffies.h) */
#define time_after(a, b) ((int64_t)((b) - (a)) < 0)
#define time_after_eq(a, b) ((int64_t)((a) - (b)) >= 0)

/* rq_data_dir(): DD_WRITE for a write or a discard, else DD_READ */
int rq_dir(const struct blk_rq *r, uint32_t x);
/* the first request in pp's sort list for dir at or after sector pos, or BLK_NIL */
uint32_t deadline_from_pos(const struct blk_rq *r, const struct dd_per_prio *pp, int dir, uint64_t pos);
/* did request x start (its fifo_time less its expiry) after latest_start? */
int started_after(const struct blk_sim *s, uint32_t x, uint64_t latest_start);
/* take x off its sort and FIFO lists */
void deadline_move_request(struct blk_sim *s, struct dd_per_prio *pp, uint32_t x);
/* x is dispatched: its direction's next sorted pick starts at its sector; counted */
void dd_start_request(struct blk_sim *s, uint32_t x);

/*
 * One priority level's next request, or BLK_NIL: continue the batch in sector order while
 * fewer than fifo_batch went; else choose a direction (reads, unless writes were passed over
 * writes_starved times), start at the oldest request if its deadline passed or nothing lies
 * further up, and set dd->because, dd->pick, last_dir, batching and starved as the kernel does.
 * latest_start: a request that started after it is left for later (the aged-request probe).
 */
uint32_t __dd_dispatch_request(struct blk_sim *s, struct dd_per_prio *pp, uint64_t latest_start, uint64_t now);
#endif
