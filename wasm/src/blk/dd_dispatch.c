/* SPDX-License-Identifier: MIT */
/*
 * __dd_dispatch_request(), after block/mq-deadline.c in Linux 7.2: which request one priority
 * level hands on next. On its own in this file because a lab's code step has the learner write
 * it (labs/mq-deadline, the `code` block): this is that step's reference, and the grader
 * replays the learner's kernel's trace through their version in its place (grade/dd_grade.c).
 * What it may call is in fslab/dd_dispatch.h.
 */
#include "fslab/blk.h"
#include "fslab/dd_dispatch.h"

uint32_t __dd_dispatch_request(struct blk_sim *s, struct dd_per_prio *pp, uint64_t latest_start, uint64_t now)
{
	struct deadline_data *dd = &s->dd;
	struct blk_rq *r = s->rq;
	uint32_t x, next;
	int dir;

	/* batches are currently reads XOR writes */
	x = deadline_from_pos(r, pp, dd->last_dir, pp->latest_pos[dd->last_dir]);
	dd->because = DD_BECAUSE_BATCH;
	dd->pick = DD_PICK_SORTED;
	if (x != BLK_NIL && dd->batching < dd->fifo_batch) {
		dir = rq_dir(r, x);
		goto dispatch_request;
	}
	/* not running a batch: choose the direction */
	if (pp->fifo_head[DD_READ] != BLK_NIL) {
		if (pp->fifo_head[DD_WRITE] != BLK_NIL && (dd->starved++ >= dd->writes_starved)) {
			dd->because = DD_BECAUSE_STARVED;
			goto dispatch_writes;
		}
		dd->because = DD_BECAUSE_READS;
		dir = DD_READ;
		goto dispatch_find_request;
	}
	if (pp->fifo_head[DD_WRITE] != BLK_NIL) {
		dd->because = DD_BECAUSE_WRITES;
dispatch_writes:
		dd->starved = 0;
		dir = DD_WRITE;
		goto dispatch_find_request;
	}
	return BLK_NIL;

dispatch_find_request:
	next = deadline_from_pos(r, pp, dir, pp->latest_pos[dir]);
	/* an expired deadline, or nothing further up: start again at the oldest request */
	if (time_after_eq(now, r[pp->fifo_head[dir]].fifo_time) || next == BLK_NIL) {
		x = pp->fifo_head[dir];
		dd->pick = next == BLK_NIL ? DD_PICK_NO_NEXT : DD_PICK_EXPIRED;
	} else {
		x = next;
	}
	dd->last_dir = dir;
	dd->batching = 0;

dispatch_request:
	if (started_after(s, x, latest_start))
		return BLK_NIL;
	dd->batching++;
	deadline_move_request(s, pp, x);
	dd_start_request(s, x);
	return x;
}
