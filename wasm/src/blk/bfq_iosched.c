/* SPDX-License-Identifier: MIT */
/*
 * bfq (block/bfq-iosched.c, bfq-wf2q.c in Linux 7.2), its core mechanism only, with the
 * kernel's function names:
 *
 *   - one sync bfq_queue per job (the sim's process; a trace job is one process), all in
 *     the BE class at bfq_ioprio_to_weight(IOPRIO_BE_NORM) = 40;
 *   - B-WF2Q+ in sectors on one service tree: a queue that becomes busy starts at
 *     S = max(V, F) and finishes at F = S + budget / weight (__bfq_activate_entity,
 *     bfq_calc_finish); V jumps to the smallest S if no queue is eligible
 *     (bfq_calc_vtime_jump) and the eligible queue (S <= V) with the smallest F is served
 *     (bfq_first_active_entity); each dispatch advances V by sectors / wsum (bfq_bfqq_served);
 *   - the in-service queue keeps the device until its next request does not fit the budget
 *     left (BUDGET_EXHAUSTED), its budget timeout (bfq_timeout, HZ / 8, from when it was
 *     selected) has passed at a dispatch, completion or arrival, or it stays empty;
 *   - idling: when its last dispatched request completes and it is empty, the device is held
 *     for bfq_slice_idle (8 ms) for that process's next request (bfq_arm_slice_timer); the
 *     timer's expiry is TOO_IDLE (bfq_idle_slice_timer_body). A process that has issued all
 *     its I/O has exited (no process refs): it is not idled for, it expires NO_MORE_REQUESTS;
 *   - on expiry (bfq_bfqq_expire): time charged instead of service for a "slow" queue or a
 *     timed-out one with a third of its budget left (bfq_bfqq_is_slow, bfq_bfqq_charge_time),
 *     the next budget from __bfq_bfqq_recalc_budget (sync, not weight-raised), then requeued
 *     at S += service / weight if backlogged, or off the tree with F = S + service / weight.
 *     A new queue's first budget is bfq_init_bfqq()'s 2/3 of the default maximum, 10922.
 *
 * Not modelled: the peak-rate estimate (bfq_max_budget stays 16384, bfq_min_budget 512),
 * seekiness (BFQQ_SEEKY: never seeky, so no short idle and no "slow" under 20 ms),
 * bfq_better_to_idle()'s cases against idling (it always idles for a live process),
 * weight raising (low_latency), the RT and IDLE classes, cgroups, injection, queue merging,
 * async queues' charge factor, the queue's sector order and FIFO expiry within a queue
 * (requests leave a queue in arrival order), small-request waits at arrival, and the
 * non_blocking_wait_rq budget carry-over.
 */
#include <stdlib.h>
#include "fslab/blk.h"

static uint64_t jiffies(const struct blk_sim *s) { return s->now_ns * s->hz / 1000000000ull; }

/* bfq_delta(): service in fixed point, per unit of weight */
static uint64_t bfq_delta(uint64_t service, uint32_t weight) { return (service << BFQ_WFQ_SERVICE_SHIFT) / weight; }

static uint32_t bfq_budget_left(const struct bfq_queue *q) { return q->budget > q->service ? q->budget - q->service : 0; }

/* bfqq_process_refs(): the job (or the trace) still has requests to issue */
static int process_alive(const struct blk_sim *s, uint32_t qi)
{
	if (s->trace)
		return s->trace_next < s->ntrace;
	return s->job_issued[qi] < s->jobs[qi].ios;
}

int bfq_init(struct blk_sim *s, uint32_t nq)
{
	struct bfq_data *bfqd = &s->bfqd;
	uint32_t i;

	bfqd->q = calloc(nq, sizeof(*bfqd->q));
	if (!bfqd->q)
		return -1;
	bfqd->nq = nq;
	bfqd->in_service = BLK_NIL;
	for (i = 0; i < nq; i++) {
		struct bfq_queue *q = &bfqd->q[i];
		q->head = q->tail = BLK_NIL;
		q->weight = BFQ_WEIGHT;
		q->max_budget = 2 * BFQ_DEFAULT_MAX_BUDGET / 3; /* bfq_init_bfqq() */
	}
	return 0;
}

void bfq_exit(struct blk_sim *s)
{
	free(s->bfqd.q);
	s->bfqd.q = NULL;
}

/* bfq_bfqq_served(): the service and V advance with each dispatch */
static void bfq_bfqq_served(struct bfq_data *bfqd, struct bfq_queue *q, uint32_t served)
{
	q->service += served;
	bfqd->vtime += bfq_delta(served, bfqd->wsum);
}

/* bfq_add_bfqq_busy() -> __bfq_activate_entity(): S = max(V, F), F = S + budget / weight */
static void bfq_activate(struct bfq_data *bfqd, struct bfq_queue *q, uint32_t first_sectors)
{
	q->service = 0; /* bfq_bfqq_update_budg_for_activation() */
	q->budget = q->max_budget > first_sectors ? q->max_budget : first_sectors;
	q->start = bfqd->vtime > q->finish ? bfqd->vtime : q->finish;
	q->finish = q->start + bfq_delta(q->budget, q->weight);
	q->busy = 1;
	bfqd->wsum += q->weight;
}

/* bfq_bfqq_is_slow(): not seeky, so slow only when served for over 20 ms with less than half the max budget */
static int bfq_bfqq_is_slow(const struct bfq_data *bfqd, const struct bfq_queue *q, uint64_t until_ns, uint64_t *delta_ms)
{
	uint64_t us = (until_ns - bfqd->last_budget_start_ns) / 1000;

	if (us < 1000) {
		*delta_ms = 2; /* BFQ_MIN_TT / NSEC_PER_MSEC: "charge at least one seek" (rotational) */
		return 0;
	}
	*delta_ms = us / 1000;
	return us > 20000 && q->service < BFQ_DEFAULT_MAX_BUDGET / 2;
}

/* bfq_bfqq_charge_time(): the service the max budget would get in that time, if more */
static void bfq_bfqq_charge_time(struct bfq_data *bfqd, struct bfq_queue *q, uint64_t time_ms, uint64_t timeout_ms)
{
	uint64_t bounded = time_ms < timeout_ms ? time_ms : timeout_ms;
	uint32_t for_time = timeout_ms ? (uint32_t)(BFQ_DEFAULT_MAX_BUDGET * bounded / timeout_ms) : 0;
	uint32_t tot = for_time > q->service ? for_time : q->service;

	if (tot > q->budget)
		q->budget = tot;
	bfq_bfqq_served(bfqd, q, tot - q->service);
}

/* __bfq_bfqq_recalc_budget() for a sync queue that is not weight-raised */
static void bfq_recalc_budget(struct blk_sim *s, struct bfq_queue *q, enum bfqq_expiration reason)
{
	uint32_t budget = q->max_budget, max = BFQ_DEFAULT_MAX_BUDGET, min = BFQ_MIN_BUDGET;

	switch (reason) {
	case BFQQE_TOO_IDLE:
		if (q->dispatched > 0)
			budget = 2 * budget < max ? 2 * budget : max;
		else
			budget = budget > 5 * min ? budget - 4 * min : min;
		break;
	case BFQQE_BUDGET_TIMEOUT:
		budget = 2 * budget < max ? 2 * budget : max;
		break;
	case BFQQE_BUDGET_EXHAUSTED:
		budget = 4 * budget < max ? 4 * budget : max;
		break;
	case BFQQE_NO_MORE_REQUESTS:
		budget = q->service > min ? q->service : min;
		break;
	default:
		return;
	}
	q->max_budget = budget;
	if (q->head != BLK_NIL) {
		uint32_t need = s->rq[q->head].nr_sectors;
		q->budget = q->max_budget > need ? q->max_budget : need;
	}
}

/* bfq_bfqq_expire(): charge, recalc the budget, requeue or deactivate, nothing in service */
static void bfq_bfqq_expire(struct blk_sim *s, uint32_t qi, int compensate, enum bfqq_expiration reason)
{
	struct bfq_data *bfqd = &s->bfqd;
	struct bfq_queue *q = &bfqd->q[qi];
	uint64_t delta_ms, timeout_ms = (uint64_t)(s->hz / 8) * 1000 / s->hz; /* jiffies_to_msecs(bfq_timeout) */
	int slow = bfq_bfqq_is_slow(bfqd, q, compensate ? bfqd->last_idling_start_ns : s->now_ns, &delta_ms);

	if (slow || (reason == BFQQE_BUDGET_TIMEOUT && bfq_budget_left(q) >= q->budget / 3))
		bfq_bfqq_charge_time(bfqd, q, delta_ms, timeout_ms);
	bfq_recalc_budget(s, q, reason);
	bfqd->expired[reason]++;
	/* __bfq_bfqq_expire(): the finish time is what the service so far is worth */
	q->finish = q->start + bfq_delta(q->service, q->weight);
	if (q->head != BLK_NIL) {
		/* __bfq_requeue_entity(): start at that finish, finish a budget later */
		q->start = q->finish;
		q->finish = q->start + bfq_delta(q->budget, q->weight);
	} else {
		/* bfq_del_bfqq_busy(): off the tree, F kept for S = max(V, F) next time */
		q->busy = 0;
		bfqd->wsum -= q->weight;
	}
	q->service = 0;
	bfqd->in_service = BLK_NIL;
	bfqd->wait_request = 0;
}

/* bfq_get_next_queue(): V jumps to the smallest start if none is eligible; the eligible one finishing first */
static uint32_t bfq_get_next_queue(struct blk_sim *s)
{
	struct bfq_data *bfqd = &s->bfqd;
	uint64_t min_start = ~0ull;
	uint32_t i, best = BLK_NIL;

	for (i = 0; i < bfqd->nq; i++)
		if (bfqd->q[i].busy && bfqd->q[i].start < min_start)
			min_start = bfqd->q[i].start;
	if (min_start == ~0ull)
		return BLK_NIL;
	if (min_start > bfqd->vtime)
		bfqd->vtime = min_start; /* bfq_calc_vtime_jump() */
	for (i = 0; i < bfqd->nq; i++) {
		const struct bfq_queue *q = &bfqd->q[i];
		if (q->busy && q->start <= bfqd->vtime && (best == BLK_NIL || q->finish < bfqd->q[best].finish))
			best = i;
	}
	return best;
}

static int bfq_budget_timed_out(const struct blk_sim *s, const struct bfq_queue *q) { return jiffies(s) >= q->budget_timeout; }

/* bfq_may_expire_for_budg_timeout() */
static int may_expire_for_budg_timeout(const struct blk_sim *s, const struct bfq_queue *q)
{
	return (!s->bfqd.wait_request || bfq_budget_left(q) >= q->budget / 3) && bfq_budget_timed_out(s, q);
}

/* bfq_bfqq_must_idle(): empty, and its process may yet send more (bfq_better_to_idle, simplified) */
static int must_idle(const struct blk_sim *s, uint32_t qi) { return s->bfqd.q[qi].head == BLK_NIL && process_alive(s, qi); }

void bfq_insert_request(struct blk_sim *s, uint32_t x)
{
	struct bfq_data *bfqd = &s->bfqd;
	uint32_t qi = s->rq[x].job < bfqd->nq ? s->rq[x].job : 0;
	struct bfq_queue *q = &bfqd->q[qi];

	s->rq[x].fifo_next = BLK_NIL;
	if (q->tail == BLK_NIL)
		q->head = x;
	else
		s->rq[q->tail].fifo_next = x;
	q->tail = x;
	q->queued++;
	if (!q->busy)
		bfq_activate(bfqd, q, s->rq[x].nr_sectors);
	/* bfq_rq_enqueued(): the in-service queue was idling for this */
	if (bfqd->in_service == qi && bfqd->wait_request) {
		bfqd->wait_request = 0;
		if (bfq_budget_timed_out(s, q))
			bfq_bfqq_expire(s, qi, 0, BFQQE_BUDGET_TIMEOUT);
	}
}

/* __bfq_dispatch_request() -> bfq_select_queue() -> bfq_dispatch_rq_from_bfqq() */
uint32_t bfq_dispatch_request(struct blk_sim *s)
{
	struct bfq_data *bfqd = &s->bfqd;
	struct bfq_queue *q;
	uint32_t qi, x;

	for (;;) {
		qi = bfqd->in_service;
		if (qi == BLK_NIL) {
			qi = bfq_get_next_queue(s);
			if (qi == BLK_NIL)
				return BLK_NIL;
			/* __bfq_set_in_service_queue(), bfq_set_budget_timeout() */
			bfqd->in_service = qi;
			bfqd->q[qi].budget_timeout = jiffies(s) + s->hz / 8;
			bfqd->last_budget_start_ns = s->now_ns;
		}
		q = &bfqd->q[qi];
		if (may_expire_for_budg_timeout(s, q) && !must_idle(s, qi)) {
			bfq_bfqq_expire(s, qi, 0, BFQQE_BUDGET_TIMEOUT);
			continue;
		}
		if (q->head != BLK_NIL) {
			if (s->rq[q->head].nr_sectors > bfq_budget_left(q)) {
				bfq_bfqq_expire(s, qi, 0, BFQQE_BUDGET_EXHAUSTED);
				continue;
			}
			bfqd->wait_request = 0;
			break;
		}
		/* empty: keep it while idling or while what it has in flight may bring more */
		if (bfqd->wait_request || (q->dispatched && process_alive(s, qi)))
			return BLK_NIL;
		bfq_bfqq_expire(s, qi, 0, BFQQE_NO_MORE_REQUESTS);
	}
	x = q->head;
	q->head = s->rq[x].fifo_next;
	if (q->head == BLK_NIL)
		q->tail = BLK_NIL;
	q->queued--;
	q->dispatched++;
	bfq_bfqq_served(bfqd, q, s->rq[x].nr_sectors);
	return x;
}

/* bfq_completed_request() */
void bfq_completed_request(struct blk_sim *s, uint32_t x)
{
	struct bfq_data *bfqd = &s->bfqd;
	uint32_t qi = s->rq[x].job < bfqd->nq ? s->rq[x].job : 0;
	struct bfq_queue *q = &bfqd->q[qi];

	q->dispatched--;
	if (bfqd->in_service != qi)
		return;
	if (must_idle(s, qi)) {
		if (!q->dispatched) {
			/* bfq_arm_slice_timer() */
			bfqd->wait_request = 1;
			bfqd->last_idling_start_ns = s->now_ns;
			bfqd->idle_until_ns = s->now_ns + BFQ_SLICE_IDLE_NS;
		}
	} else if (may_expire_for_budg_timeout(s, q)) {
		bfq_bfqq_expire(s, qi, 0, BFQQE_BUDGET_TIMEOUT);
	} else if (q->head == BLK_NIL && (!q->dispatched || !process_alive(s, qi))) {
		bfq_bfqq_expire(s, qi, 0, BFQQE_NO_MORE_REQUESTS);
	}
}

/* bfq_idle_slice_timer_body(), at its own time, if due by until_ns */
int bfq_timer_due(struct blk_sim *s, uint64_t until_ns)
{
	struct bfq_data *bfqd = &s->bfqd;
	uint32_t qi = bfqd->in_service;

	if (!bfqd->wait_request || bfqd->idle_until_ns > until_ns || qi == BLK_NIL)
		return 0;
	s->now_ns = bfqd->idle_until_ns;
	bfqd->wait_request = 0;
	bfqd->timer_fired++;
	if (bfq_budget_timed_out(s, &bfqd->q[qi]))
		bfq_bfqq_expire(s, qi, 1, BFQQE_BUDGET_TIMEOUT);
	else if (bfqd->q[qi].head == BLK_NIL)
		bfq_bfqq_expire(s, qi, 1, BFQQE_TOO_IDLE);
	return 1;
}
