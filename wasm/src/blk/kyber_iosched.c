/* SPDX-License-Identifier: MIT */
/*
 * kyber, after block/kyber-iosched.c in Linux 7.2. Requests are split into scheduling
 * domains by operation (READ, WRITE, DISCARD, OTHER; ours are reads and writes). Each
 * domain has a pool of tokens (an sbitmap, sbitmap.c) and a request is dispatched only
 * with one; the dispatcher serves the domains round robin from cur_domain, up to
 * kyber_batch_size[] requests per turn, each domain's requests in arrival order. Every
 * completion adds its total latency (since allocation) and I/O latency (since it was
 * issued) to its domain's histogram, in buckets of a quarter of the domain's target, and
 * arms a timer for HZ / 10 later; kyber_timer_fn() then takes each domain's p90 I/O and p99
 * total latency, and if any domain's p90 is over its target ("bad": congestion), scales
 * each domain's depth by p99 / target: good domains are throttled, bad ones eased.
 *
 * Modelled as the source has it: the domains, kyber_depth[] and kyber_batch_size[], the
 * token get and release (with sbitmap's bit choice, so held tokens above a shrunk depth do
 * not count), kyber_dispatch_request() / kyber_dispatch_cur_domain() including the flush of
 * the ctx queue only when a token was got, the histograms and bucket math,
 * calculate_percentile() with its 500 samples or one second, the remembered p99
 * (domain_p99), the scale and clamp, timer_reduce() at each completion and the timer
 * wheel's rounding of when it runs; all in simulated jiffies.
 * Not modelled: more than one software queue (one kyber_ctx_queue: every job's requests
 * reach it in submission order, as if all ran on one CPU), bio merges, async_depth
 * (kyber_limit_depth() limits scheduler tags, which the sim does not have), the token wait
 * queue and its wake batch (every completion reruns the queue here), requeues.
 */
#include <stdlib.h>
#include <string.h>
#include "fslab/blk.h"

#define NSEC_PER_MSEC 1000000ull
#define time_after(a, b) ((int64_t)((b) - (a)) < 0)
#define time_is_after_jiffies(a) time_after(a, jiffies)

/* Maximum device-wide depth for each scheduling domain (and the initial one). */
const uint32_t kyber_depth[KYBER_NUM_DOMAINS] = {
	[KYBER_READ] = 256,
	[KYBER_WRITE] = 128,
	[KYBER_DISCARD] = 64,
	[KYBER_OTHER] = 16,
};

/* Default latency targets for each scheduling domain. */
static const uint64_t kyber_latency_targets[KYBER_OTHER] = {
	[KYBER_READ] = 2ull * NSEC_PER_MSEC,
	[KYBER_WRITE] = 10ull * NSEC_PER_MSEC,
	[KYBER_DISCARD] = 5000ull * NSEC_PER_MSEC,
};

/* Batch size (number of requests dispatched in a row) for each scheduling domain. */
const uint32_t kyber_batch_size[KYBER_NUM_DOMAINS] = {
	[KYBER_READ] = 16,
	[KYBER_WRITE] = 8,
	[KYBER_DISCARD] = 1,
	[KYBER_OTHER] = 1,
};

static uint64_t jiffies_of(const struct blk_sim *s) { return s->now_ns * s->hz / 1000000000ull; }

/*
 * kernel/time/timer.c calc_wheel_index(): the tick a timer armed at clk for `expires` runs
 * at. Each wheel level is 64 buckets, 8 times coarser than the one below, and the bucket is
 * rounded up so a timer never fires early: HZ / 10 at HZ 250 (25 jiffies, level 0) runs at
 * expires + 1; at HZ 1000 (100 jiffies, level 1) at the next multiple of 8 past expires.
 * clk is taken as the current jiffy (the base forwarded to it, as __mod_timer() does).
 */
static uint64_t timer_bucket_expiry(uint64_t expires, uint64_t clk)
{
	uint64_t delta = expires - clk;
	uint32_t lvl = 0;

	while (lvl < 8 && delta >= (63ull << (3 * lvl))) /* LVL_START(lvl + 1) */
		lvl++;
	return ((expires >> (3 * lvl)) + 1) << (3 * lvl);
}

uint32_t kyber_sched_domain(uint32_t op)
{
	switch (op) {
	case FSLAB_BLK_READ:
		return KYBER_READ;
	case FSLAB_BLK_WRITE:
		return KYBER_WRITE;
	case FSLAB_BLK_DISCARD:
		return KYBER_DISCARD;
	default:
		return KYBER_OTHER;
	}
}

/* kyber_queue_data_alloc() and kyber_init_hctx() */
void kyber_init(struct blk_sim *s, uint64_t seed)
{
	struct kyber_queue_data *kqd = &s->kqd;
	struct kyber_hctx_data *khd = &s->khd;
	uint32_t i;

	memset(kqd, 0, sizeof(*kqd));
	memset(khd, 0, sizeof(*khd));
	/* the tokens' random hints from their own stream: the jobs' requests stay the same */
	kqd->rng = seed ^ 0x6b79626572ull; /* "kyber" */
	for (i = 0; i < KYBER_NUM_DOMAINS; i++)
		sbitmap_queue_init(&kqd->domain_tokens[i], kyber_depth[i], &kqd->rng);
	for (i = 0; i < KYBER_OTHER; i++) {
		kqd->domain_p99[i] = -1;
		kqd->latency_targets[i] = kyber_latency_targets[i];
	}
	for (i = 0; i < KYBER_NUM_DOMAINS; i++)
		khd->kcq_head[i] = khd->kcq_tail[i] = khd->rqs_head[i] = khd->rqs_tail[i] = BLK_NIL;
	khd->cur_domain = 0;
	khd->batching = 0;
}

void kyber_exit(struct blk_sim *s)
{
	free(s->kqd.trace);
	s->kqd.trace = NULL;
	s->kqd.trace_len = s->kqd.trace_cap = 0;
}

static void list_add_tail(struct blk_rq *r, uint32_t *head, uint32_t *tail, uint32_t x)
{
	r[x].fifo_next = BLK_NIL;
	if (*tail == BLK_NIL)
		*head = x;
	else
		r[*tail].fifo_next = x;
	*tail = x;
}

/* kyber_insert_requests(): onto the ctx queue's list for the domain (kcq_map: the list is not empty) */
void kyber_insert_request(struct blk_sim *s, uint32_t x)
{
	uint32_t d = kyber_sched_domain(s->rq[x].op);

	s->rq[x].token = BLK_NIL; /* kyber_prepare_request() */
	list_add_tail(s->rq, &s->khd.kcq_head[d], &s->khd.kcq_tail[d], x);
}

/* kyber_flush_busy_kcqs(): the ctx queue's requests for the domain go to the hctx's list */
static void kyber_flush_busy_kcqs(struct kyber_hctx_data *khd, struct blk_rq *r, uint32_t d)
{
	if (khd->kcq_head[d] == BLK_NIL)
		return;
	if (khd->rqs_tail[d] == BLK_NIL)
		khd->rqs_head[d] = khd->kcq_head[d];
	else
		r[khd->rqs_tail[d]].fifo_next = khd->kcq_head[d];
	khd->rqs_tail[d] = khd->kcq_tail[d];
	khd->kcq_head[d] = khd->kcq_tail[d] = BLK_NIL;
}

/*
 * kyber_get_domain_token(). On a miss the kernel puts the hctx on the token pool's wait
 * queue and tries once more; on one CPU nothing can free a token in between, and the
 * wake-up only reruns the queue, which every completion does here anyway.
 */
static int kyber_get_domain_token(struct kyber_queue_data *kqd, struct kyber_hctx_data *khd)
{
	return sbitmap_queue_get(&kqd->domain_tokens[khd->cur_domain], &kqd->rng);
}

static uint32_t take_first(struct kyber_hctx_data *khd, struct blk_rq *r, uint32_t d, int nr)
{
	uint32_t x = khd->rqs_head[d];

	khd->rqs_head[d] = r[x].fifo_next;
	if (khd->rqs_head[d] == BLK_NIL)
		khd->rqs_tail[d] = BLK_NIL;
	r[x].fifo_next = BLK_NIL;
	r[x].token = (uint32_t)nr;
	khd->batching++;
	return x;
}

static uint32_t kyber_dispatch_cur_domain(struct blk_sim *s)
{
	struct kyber_queue_data *kqd = &s->kqd;
	struct kyber_hctx_data *khd = &s->khd;
	uint32_t d = khd->cur_domain;
	int nr;

	/*
	 * A request already flushed only needs a token. Otherwise the ctx queue is flushed
	 * only if a token was got: without one the requests stay where bios could merge.
	 */
	if (khd->rqs_head[d] != BLK_NIL) {
		nr = kyber_get_domain_token(kqd, khd);
		if (nr >= 0)
			return take_first(khd, s->rq, d, nr);
		kqd->throttled[d]++;
	} else if (khd->kcq_head[d] != BLK_NIL) {
		nr = kyber_get_domain_token(kqd, khd);
		if (nr >= 0) {
			kyber_flush_busy_kcqs(khd, s->rq, d);
			return take_first(khd, s->rq, d, nr);
		}
		kqd->throttled[d]++;
	}
	/* There were either no pending requests or no tokens. */
	return BLK_NIL;
}

uint32_t kyber_dispatch_request(struct blk_sim *s)
{
	struct kyber_hctx_data *khd = &s->khd;
	uint32_t x;
	int i;

	/* still entitled to batch: try the current domain */
	if (khd->batching < kyber_batch_size[khd->cur_domain]) {
		x = kyber_dispatch_cur_domain(s);
		if (x != BLK_NIL)
			return x;
	}
	/*
	 * The batch is used up, or the domain had no requests or no tokens: start another
	 * batch in the next domain, wrapping back round to this one last.
	 */
	khd->batching = 0;
	for (i = 0; i < KYBER_NUM_DOMAINS; i++) {
		if (khd->cur_domain == KYBER_NUM_DOMAINS - 1)
			khd->cur_domain = 0;
		else
			khd->cur_domain++;
		x = kyber_dispatch_cur_domain(s);
		if (x != BLK_NIL)
			return x;
	}
	return BLK_NIL;
}

int kyber_has_work(const struct blk_sim *s)
{
	int i;

	for (i = 0; i < KYBER_NUM_DOMAINS; i++)
		if (s->khd.rqs_head[i] != BLK_NIL || s->khd.kcq_head[i] != BLK_NIL)
			return 1;
	return 0;
}

/* kyber_finish_request() -> rq_clear_domain_token() */
void kyber_finish_request(struct blk_sim *s, uint32_t x)
{
	struct blk_rq *r = &s->rq[x];

	if (r->token != BLK_NIL)
		sbitmap_queue_clear(&s->kqd.domain_tokens[kyber_sched_domain(r->op)], r->token);
}

static void add_latency_sample(uint32_t *buckets, uint64_t target, uint64_t latency)
{
	uint32_t bucket = 0;

	if (latency > 0) {
		uint64_t divisor = target >> KYBER_LATENCY_SHIFT;
		uint64_t b;

		if (divisor < 1)
			divisor = 1;
		b = (latency - 1) / divisor;
		bucket = b < KYBER_LATENCY_BUCKETS - 1 ? (uint32_t)b : KYBER_LATENCY_BUCKETS - 1;
	}
	buckets[bucket]++;
}

/* kyber_completed_request(): rq->start_time_ns is its submission, io_start_time_ns its issue */
void kyber_completed_request(struct blk_sim *s, uint32_t x)
{
	struct kyber_queue_data *kqd = &s->kqd;
	const struct blk_rq *r = &s->rq[x];
	uint32_t d = kyber_sched_domain(r->op);
	uint64_t target, expires;

	if (d == KYBER_OTHER)
		return;
	target = kqd->latency_targets[d];
	add_latency_sample(kqd->cpu_latency[d][KYBER_TOTAL_LATENCY], target, s->now_ns - r->insert_ns);
	add_latency_sample(kqd->cpu_latency[d][KYBER_IO_LATENCY], target, s->now_ns - r->dispatch_ns);
	/* timer_reduce(&kqd->timer, jiffies + HZ / 10): arm it, or bring it forward */
	expires = jiffies_of(s) + s->hz / 10;
	if (!kqd->timer_pending || time_after(kqd->timer_expires, expires)) {
		kqd->timer_expires = expires;
		kqd->timer_tick = timer_bucket_expiry(expires, jiffies_of(s));
		kqd->timer_pending = 1;
	}
}

/* The histogram bucket with the given percentile rank, or -1 if there aren't enough samples yet. */
static int calculate_percentile(struct kyber_queue_data *kqd, uint32_t sched_domain, uint32_t type,
				uint32_t percentile, uint64_t jiffies, uint32_t hz)
{
	uint32_t *buckets = kqd->latency_buckets[sched_domain][type];
	uint32_t bucket, samples = 0, percentile_samples;

	for (bucket = 0; bucket < KYBER_LATENCY_BUCKETS; bucket++)
		samples += buckets[bucket];
	if (!samples)
		return -1;
	/* once there are 500 samples or one second has passed since the first, whichever is first */
	if (!kqd->latency_timeout[sched_domain])
		kqd->latency_timeout[sched_domain] = jiffies + hz > 1 ? jiffies + hz : 1;
	if (samples < 500 && time_is_after_jiffies(kqd->latency_timeout[sched_domain]))
		return -1;
	kqd->latency_timeout[sched_domain] = 0;

	percentile_samples = (samples * percentile + 99) / 100; /* DIV_ROUND_UP */
	for (bucket = 0; bucket < KYBER_LATENCY_BUCKETS - 1; bucket++) {
		if (buckets[bucket] >= percentile_samples)
			break;
		percentile_samples -= buckets[bucket];
	}
	memset(buckets, 0, sizeof(kqd->latency_buckets[sched_domain][type]));
	return (int)bucket;
}

void kyber_resize_domain(struct kyber_queue_data *kqd, uint32_t sched_domain, uint32_t depth)
{
	if (depth < 1)
		depth = 1;
	if (depth > kyber_depth[sched_domain])
		depth = kyber_depth[sched_domain];
	if (depth != kqd->domain_tokens[sched_domain].depth)
		sbitmap_queue_resize(&kqd->domain_tokens[sched_domain], depth);
}

static void record(struct blk_sim *s, const struct kyber_timer_record *rec)
{
	struct kyber_queue_data *kqd = &s->kqd;

	if (kqd->trace_len == kqd->trace_cap) {
		uint32_t cap = kqd->trace_cap ? 2 * kqd->trace_cap : 64;
		struct kyber_timer_record *t = realloc(kqd->trace, sizeof(*t) * cap);

		if (!t) {
			s->oom = 1; /* the record is incomplete: the run reports -ENOSPC */
			return;
		}
		kqd->trace = t;
		kqd->trace_cap = cap;
	}
	kqd->trace[kqd->trace_len++] = *rec;
}

void kyber_timer_fn(struct blk_sim *s)
{
	struct kyber_queue_data *kqd = &s->kqd;
	uint64_t jiffies = jiffies_of(s);
	struct kyber_timer_record rec;
	uint32_t d, t, b;
	int bad = 0;

	memset(&rec, 0, sizeof(rec));
	rec.ns = s->now_ns;
	/* Sum the per-cpu latency histograms (one CPU). */
	for (d = 0; d < KYBER_OTHER; d++)
		for (t = 0; t < 2; t++)
			for (b = 0; b < KYBER_LATENCY_BUCKETS; b++) {
				kqd->latency_buckets[d][t][b] += kqd->cpu_latency[d][t][b];
				kqd->cpu_latency[d][t][b] = 0;
			}
	/* Congestion: any domain whose p90 I/O latency is over its target. */
	for (d = 0; d < KYBER_OTHER; d++) {
		int p90 = calculate_percentile(kqd, d, KYBER_IO_LATENCY, 90, jiffies, s->hz);

		rec.p90[d] = p90;
		if (p90 >= KYBER_GOOD_BUCKETS)
			bad = 1;
	}
	/*
	 * If congested, throttle every domain with good latency; either way, ease up on domains
	 * with bad latency. The depth scales with p99 / target: (p99 bucket + 1) quarters.
	 */
	for (d = 0; d < KYBER_OTHER; d++) {
		uint32_t orig_depth, depth;
		int p99 = calculate_percentile(kqd, d, KYBER_TOTAL_LATENCY, 99, jiffies, s->hz);

		rec.p99[d] = p99;
		/*
		 * A domain may lack samples in the window that sees congestion: its last p99 is
		 * kept for then, and dropped once used so it does not throttle twice on old data.
		 */
		if (bad) {
			if (p99 < 0)
				p99 = kqd->domain_p99[d];
			kqd->domain_p99[d] = -1;
		} else if (p99 >= 0) {
			kqd->domain_p99[d] = p99;
		}
		if (p99 < 0)
			continue;
		if (bad || p99 >= KYBER_GOOD_BUCKETS) {
			orig_depth = kqd->domain_tokens[d].depth;
			depth = (orig_depth * (uint32_t)(p99 + 1)) >> KYBER_LATENCY_SHIFT;
			kyber_resize_domain(kqd, d, depth);
		}
	}
	rec.bad = (uint32_t)bad;
	for (d = 0; d < KYBER_NUM_DOMAINS; d++)
		rec.depth[d] = kqd->domain_tokens[d].depth;
	record(s, &rec);
}

/*
 * The timer runs at its wheel bucket's tick (timer_tick, the start of that jiffy);
 * kyber_timer_fn() only resizes the pools (sbitmap_queue_resize() wakes nobody), so nothing
 * else happens then.
 */
int kyber_timer_due(struct blk_sim *s, uint64_t until_ns)
{
	struct kyber_queue_data *kqd = &s->kqd;
	uint64_t at;

	if (!kqd->timer_pending)
		return 0;
	at = (kqd->timer_tick * 1000000000ull + s->hz - 1) / s->hz; /* the tick's time, ns */
	if (at < s->now_ns)
		at = s->now_ns; /* not reached: the bucket is always a later jiffy */
	if (at > until_ns)
		return 0;
	kqd->timer_pending = 0;
	s->now_ns = at;
	kyber_timer_fn(s);
	return 1;
}
