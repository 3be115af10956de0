/* SPDX-License-Identifier: MIT */
/*
 * The kernel's mq-deadline decisions, replayed through the model (see dd_replay() in
 * fslab/blk.h). Our kernel's tracepoint mq_deadline:dd_dispatch_request says which request
 * the scheduler chose, why, and its counters after; block_rq_insert/complete say what was
 * queued. Here the model's own lists receive the same inserts at the same jiffies, and at
 * each of the kernel's dispatches the model decides too. Its choice is recorded, then undone,
 * and the kernel's is applied, so that every decision is judged from the kernel's state.
 * Undone in place (dd_undo_dispatch), not by copying the lists: a trace of n requests costs
 * n log n, not n squared.
 */
#include <stdlib.h>
#include <string.h>
#include "fslab/blk.h"

int dd_replay(const struct dd_tunables *t, uint32_t hz, const uint32_t *start, const uint32_t *rq, uint32_t nrq,
	      const uint32_t *ev, uint32_t n, uint32_t *out)
{
	struct blk_sim s;
	uint32_t i, k = 0;
	uint8_t *state = NULL; /* per request: 0 new, 1 queued, 2 dispatched, 3 completed or merged away */
	int ret = -1;

	memset(&s, 0, sizeof(s));
	if (!hz || !nrq)
		return nrq ? -1 : 0;
	s.rq = calloc(nrq, sizeof(*s.rq));
	state = calloc(nrq, 1);
	if (!s.rq || !state)
		goto out;
	s.nrq = nrq;
	s.hz = hz;
	dd_init(&s.dd, t, hz);
	if (start) {
		/* a trace that begins mid-stream: what the kernel's scheduler carried over */
		s.dd.last_dir = start[0] ? DD_WRITE : DD_READ;
		s.dd.batching = start[1];
		s.dd.starved = start[2];
		for (i = 0; i < DD_PRIO_COUNT * DD_DIR_COUNT; i++)
			s.dd.per_prio[i / DD_DIR_COUNT].latest_pos[i % DD_DIR_COUNT] =
				start[3 + 2 * i] | (uint64_t)start[4 + 2 * i] << 32;
	}
	for (i = 0; i < nrq; i++) {
		s.rq[i].sector = rq[4 * i] | (uint64_t)rq[4 * i + 1] << 32;
		s.rq[i].op = rq[4 * i + 2];
		s.rq[i].prio = rq[4 * i + 3] < DD_PRIO_COUNT ? rq[4 * i + 3] : DD_BE_PRIO;
		s.rq[i].fifo_prev = s.rq[i].fifo_next = s.rq[i].left = s.rq[i].right = BLK_NIL;
	}
	for (i = 0; i < n; i++) {
		const uint32_t *e = ev + 4 * i;
		uint32_t x = e[1];

		/* each request inserted once, then dispatched from the lists (or merged away),
		 * then completed: an event out of that order (a trace that parsed but cannot have
		 * happened) would link a request into the lists twice, so it ends the replay */
		if (e[0] == 4) {
			/* a dispatch call that handed on nothing but moved the counters */
			s.dd.last_dir = x ? DD_WRITE : DD_READ;
			s.dd.batching = e[3] & 0xffff;
			s.dd.starved = e[3] >> 16;
			continue;
		}
		if (x >= nrq || e[0] > 5)
			goto out;
		if (e[0] == 3) {
			if (state[x] != 1 || (e[2] != BLK_NIL && (e[2] >= nrq || e[2] == x || state[e[2]] != 1)))
				goto out;
			dd_merged_requests(&s, e[2], x);
			state[x] = 3;
			continue;
		}
		if (e[0] == 5) {
			/* the at-head list: a requeued request (dispatched before) or an at-head insert */
			if (state[x] != 1 && state[x] != 2)
				goto out;
			dd_head_dispatch(&s, x, state[x] == 1);
			state[x] = 2;
			continue;
		}
		if (state[x] != e[0])
			goto out;
		state[x]++;
		if (e[0] == 0) {
			dd_insert_request(&s, x, e[2]);
		} else if (e[0] == 1) {
			struct deadline_data dd = s.dd;
			uint32_t m, p, d, roots[DD_PRIO_COUNT][DD_DIR_COUNT];

			/* the model's choice from the kernel's state, then back to that state: the
			 * request it took put back, its counters and positions as they were */
			m = dd_dispatch_request(&s, e[2]);
			out[5 * k] = m;
			out[5 * k + 1] = s.dd.because;
			out[5 * k + 2] = s.dd.pick;
			out[5 * k + 3] = s.dd.batching;
			out[5 * k + 4] = s.dd.starved;
			if (m != BLK_NIL)
				dd_undo_dispatch(&s, m);
			for (p = 0; p < DD_PRIO_COUNT; p++)
				for (d = 0; d < DD_DIR_COUNT; d++)
					roots[p][d] = s.dd.per_prio[p].sort_root[d];
			s.dd = dd;
			for (p = 0; p < DD_PRIO_COUNT; p++)
				for (d = 0; d < DD_DIR_COUNT; d++)
					s.dd.per_prio[p].sort_root[d] = roots[p][d];
			dd_apply_dispatch(&s, x, e[3] & 0xffff, e[3] >> 16);
			k++;
		} else {
			dd_finish_request(&s, x);
		}
	}
	ret = (int)k;
out:
	free(state);
	free(s.rq);
	return ret;
}
