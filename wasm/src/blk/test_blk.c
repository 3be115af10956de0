/* SPDX-License-Identifier: MIT */
/*
 * mq-deadline cases worked by hand from block/mq-deadline.c (7.2), then the whole
 * simulation: every request completes once, tags are respected, none is FIFO. Then kyber's
 * from block/kyber-iosched.c: domain depths, batches round robin, the timer's arithmetic,
 * tokens across a shrink, and a whole run. Then trace jobs: requests at recorded times.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "fslab/blk.h"

static const struct dd_tunables DEFAULTS = { 500, 5000, 10000, 2, 16 };
static const struct blk_device DEV = { 1, 1, 1000000, 0, 0, 0.0, 1ull << 30 };

/* a bare scheduler: requests are added by hand and dispatched at chosen jiffies (HZ 1000) */
static struct blk_sim *bare(const struct dd_tunables *t, uint32_t cap)
{
	struct blk_job job = { 1, 8, cap, 0, 0, 0, 0, 0 };
	return blk_sim_new(BLK_SCHED_MQ_DEADLINE, t, &DEV, &job, 1, 1000, 1);
}

static uint32_t add(struct blk_sim *s, uint32_t op, uint64_t sector, uint32_t prio, uint64_t jiffies)
{
	uint32_t x = s->nrq++;
	memset(&s->rq[x], 0, sizeof(s->rq[x]));
	s->rq[x].op = op;
	s->rq[x].sector = sector;
	s->rq[x].nr_sectors = 8;
	s->rq[x].prio = prio;
	dd_insert_request(s, x, jiffies);
	return x;
}

static uint64_t next_sector(struct blk_sim *s, uint64_t now)
{
	uint32_t x = dd_dispatch_request(s, now);
	return x == BLK_NIL ? ~0ull : s->rq[x].sector;
}

static void test_sector_order(void)
{
	struct blk_sim *s = bare(&DEFAULTS, 16);
	uint64_t in[] = { 50, 10, 40, 20, 30 }, i;

	for (i = 0; i < 5; i++)
		add(s, FSLAB_BLK_READ, in[i], DD_BE_PRIO, 0);
	/* no batch yet (last_dir starts as WRITE, no writes): READ, from latest_pos 0 upward */
	for (i = 1; i <= 5; i++)
		CHECK_EQ(next_sector(s, 0), i * 10);
	CHECK_EQ(dd_dispatch_request(s, 0), BLK_NIL);
	blk_sim_free(s);

	/* a batch continues upward from the last position; past the top it restarts at the FIFO head */
	s = bare(&DEFAULTS, 16);
	add(s, FSLAB_BLK_READ, 100, DD_BE_PRIO, 0);
	add(s, FSLAB_BLK_READ, 200, DD_BE_PRIO, 0);
	CHECK_EQ(next_sector(s, 0), 100);
	add(s, FSLAB_BLK_READ, 50, DD_BE_PRIO, 10);
	add(s, FSLAB_BLK_READ, 150, DD_BE_PRIO, 10);
	CHECK_EQ(next_sector(s, 10), 150);
	CHECK_EQ(next_sector(s, 10), 200);
	CHECK_EQ(next_sector(s, 10), 50);
	blk_sim_free(s);
}

static void test_writes_starved(void)
{
	struct blk_sim *s = bare(&DEFAULTS, 128);
	uint32_t i, run = 0, runs[8], nruns = 0;
	int last = -1;

	for (i = 0; i < 40; i++) {
		add(s, FSLAB_BLK_READ, i * 8, DD_BE_PRIO, 0);
		add(s, FSLAB_BLK_WRITE, 100000 + i * 8, DD_BE_PRIO, 0);
	}
	/*
	 * last_dir starts as WRITE with batching 0: a write batch first. Then reads are chosen
	 * while starved++ < writes_starved (2): two read batches, then writes, and so on;
	 * a batch also ends when its direction has nothing further up.
	 */
	for (i = 0; i < 80; i++) {
		uint32_t x = dd_dispatch_request(s, 0);
		int dir = s->rq[x].op;
		if (dir != last && run) {
			runs[nruns++] = (uint32_t)(last ? 1000 : 0) + run;
			run = 0;
		}
		last = dir;
		run++;
	}
	runs[nruns++] = (uint32_t)(last ? 1000 : 0) + run;
	CHECK_EQ(nruns, 5);
	CHECK_EQ(runs[0], 1016); /* W16 */
	CHECK_EQ(runs[1], 32);   /* R16 R16 (two batches, same direction) */
	CHECK_EQ(runs[2], 1016); /* W16 */
	CHECK_EQ(runs[3], 8);    /* R8: no read further up */
	CHECK_EQ(runs[4], 1008); /* W8 */
	blk_sim_free(s);
}

static void test_expiry(void)
{
	struct dd_tunables t = DEFAULTS;
	struct blk_sim *s;

	t.fifo_batch = 1; /* every dispatch chooses anew */
	/* not expired at 400: sector order */
	s = bare(&t, 4);
	add(s, FSLAB_BLK_READ, 500, DD_BE_PRIO, 0);
	add(s, FSLAB_BLK_READ, 100, DD_BE_PRIO, 300);
	CHECK_EQ(next_sector(s, 400), 100);
	CHECK_EQ(next_sector(s, 400), 500);
	blk_sim_free(s);
	/* at 500 the first read's deadline (0 + read_expire 500) has passed: it goes first */
	s = bare(&t, 4);
	add(s, FSLAB_BLK_READ, 500, DD_BE_PRIO, 0);
	add(s, FSLAB_BLK_READ, 100, DD_BE_PRIO, 300);
	CHECK_EQ(next_sector(s, 500), 500);
	CHECK_EQ(next_sector(s, 500), 100);
	blk_sim_free(s);
}

static void test_priorities(void)
{
	struct blk_sim *s = bare(&DEFAULTS, 8);
	uint32_t be, x;

	add(s, FSLAB_BLK_READ, 0, DD_IDLE_PRIO, 0);
	be = add(s, FSLAB_BLK_READ, 8, DD_BE_PRIO, 0);
	add(s, FSLAB_BLK_READ, 16, DD_RT_PRIO, 0);
	CHECK_EQ(next_sector(s, 0), 16); /* RT first */
	dd_finish_request(s, 2);
	CHECK_EQ(next_sector(s, 0), 8);
	/* the BE request is in flight: dd_queued(BE) counts it, so IDLE still waits */
	CHECK_EQ(dd_dispatch_request(s, 0), BLK_NIL);
	dd_finish_request(s, be);
	CHECK_EQ(next_sector(s, 0), 0);
	blk_sim_free(s);

	/* aging: an IDLE request older than prio_aging_expire (10 s) passes a queued BE one */
	s = bare(&DEFAULTS, 8);
	add(s, FSLAB_BLK_READ, 8, DD_IDLE_PRIO, 0);
	add(s, FSLAB_BLK_READ, 16, DD_BE_PRIO, 10001);
	x = dd_dispatch_request(s, 10001);
	CHECK(x != BLK_NIL && s->rq[x].prio == DD_IDLE_PRIO);
	blk_sim_free(s);
}

static uint64_t seek_total(const struct blk_sim *s)
{
	uint64_t head = 0, sum = 0;
	uint32_t i;

	for (i = 0; i < s->norder; i++) {
		const struct blk_rq *r = &s->rq[s->order[i]];
		sum += r->sector > head ? r->sector - head : head - r->sector;
		head = r->sector + r->nr_sectors;
	}
	return sum;
}

static void test_simulation(void)
{
	/* four jobs of random 4 KiB reads, iodepth 8, on a seeking disk that takes one at a time */
	struct blk_device hdd = { 1, 1, 100000, 1000, 1u << 20, 10.0, 1ull << 24 };
	struct blk_job jobs[4];
	struct blk_sim *s[2];
	uint32_t i, k;

	for (i = 0; i < 4; i++)
		jobs[i] = (struct blk_job){ 8, 8, 500, 1, 0, 0, i * (1ull << 22), 1ull << 22 };
	for (k = 0; k < 2; k++) {
		s[k] = blk_sim_new(k ? BLK_SCHED_MQ_DEADLINE : BLK_SCHED_NONE, &DEFAULTS, &hdd, jobs, 4, 250, 42);
		CHECK(s[k] != NULL);
		CHECK_EQ(blk_sim_run(s[k]), 0);
		CHECK_EQ(s[k]->nrq, 2000);
		CHECK_EQ(s[k]->norder, 2000);
		CHECK_EQ(s[k]->completed, 2000);
		for (i = 0; i < s[k]->nrq; i++) {
			const struct blk_rq *r = &s[k]->rq[i];
			CHECK(r->insert_ns <= r->dispatch_ns && r->dispatch_ns < r->complete_ns);
		}
	}
	/* the same requests (same seed: each job's stream is its own), fewer sectors of seeking when sorted */
	uint64_t sum[2] = { 0, 0 };
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2000; i++)
			sum[k] += s[k]->rq[i].sector * 2654435761u + s[k]->rq[i].job;
	CHECK_EQ(sum[0], sum[1]);
	CHECK(seek_total(s[1]) < seek_total(s[0]));
	/* none dispatches in arrival order */
	for (i = 0; i < 2000; i++)
		CHECK_EQ(s[0]->order[i], i);
	blk_sim_free(s[0]);
	blk_sim_free(s[1]);

	/* bad parameters are refused, not run */
	struct blk_device no_tags = hdd;
	no_tags.queue_depth = 0;
	CHECK(blk_sim_new(BLK_SCHED_NONE, &DEFAULTS, &no_tags, jobs, 4, 250, 1) == NULL);
	CHECK(blk_sim_new(BLK_SCHED_NONE, &DEFAULTS, &hdd, jobs, 0, 250, 1) == NULL);
}

uint32_t fx_blk_state(const struct blk_sim *s, uint32_t *out, uint32_t cap);

/* offset of prio p, dir d's FIFO count in a state (the fixed header is 11 words) */
static uint32_t list_at(const uint32_t *st, uint32_t p, uint32_t d)
{
	uint32_t o = 11, k;

	for (k = 0; k < p * DD_DIR_COUNT + d; k++) {
		o += 1 + 2 * st[o];
		o += 1 + st[o];
	}
	return o;
}

static void test_steps(void)
{
	/* one job keeping 4 sequential 4 KiB reads in flight on a one-tag disk (1 ms each) */
	struct blk_job job = { 4, 8, 6, 0, 0, 0, 0, 1u << 20 };
	struct blk_sim *s = blk_sim_new(BLK_SCHED_MQ_DEADLINE, &DEFAULTS, &DEV, &job, 1, 250, 7);
	struct blk_sim *whole = blk_sim_new(BLK_SCHED_MQ_DEADLINE, &DEFAULTS, &DEV, &job, 1, 250, 7);
	uint32_t st[256], n, o, i, steps = 0;

	CHECK(s && whole);
	/* the first step submits four: rq 0 takes the tag at once, 1..3 wait in mq-deadline */
	CHECK_EQ(blk_sim_step(s), 1);
	n = fx_blk_state(s, st, 256);
	CHECK(n <= 256);
	CHECK_EQ(st[2], 1); /* batching: one dispatched in this batch */
	CHECK_EQ(st[5], 1); /* tags_used */
	o = list_at(st, DD_BE_PRIO, DD_READ);
	CHECK_EQ(st[o], 3);
	CHECK_EQ(st[o + 1], 1);
	CHECK_EQ(st[o + 2], 125); /* fifo_time: inserted at jiffy 0 + read_expire 500 ms at HZ 250 */
	CHECK_EQ(st[o + 5], 3);
	CHECK_EQ(st[o + 7], 3); /* the sort list: 1 2 3 by sector */
	CHECK_EQ(st[o + 8], 1);
	CHECK_EQ(st[o + 10], 3);
	o = list_at(st, DD_PRIO_COUNT, 0); /* past every list: the dispatched ones */
	CHECK_EQ(st[o], 1);
	CHECK_EQ(st[o + 1], 0);
	/* the second: rq 0 completes at 1 ms, the job submits rq 4, the batch goes on with rq 1 */
	CHECK_EQ(blk_sim_step(s), 1);
	fx_blk_state(s, st, 256);
	CHECK_EQ(st[0], 1000); /* now, us */
	CHECK_EQ(st[2], 2);
	o = list_at(st, DD_BE_PRIO, DD_READ);
	CHECK_EQ(st[o], 3);
	CHECK_EQ(st[o + 1], 2);
	CHECK_EQ(st[o + 5], 4);
	CHECK_EQ(s->order[1], 1);
	/* stepping to the end is the same run as blk_sim_run */
	while (blk_sim_step(s) > 0)
		steps++;
	CHECK_EQ(steps, 5); /* the other five completions */
	CHECK_EQ(blk_sim_run(whole), 0);
	CHECK_EQ(s->norder, whole->norder);
	for (i = 0; i < s->norder; i++)
		CHECK_EQ(s->order[i], whole->order[i]);
	CHECK_EQ(blk_sim_step(s), 0);
	/* a state too big for the buffer reports the words it needs and writes no further */
	st[3] = 0xdeadbeef;
	CHECK_EQ(fx_blk_state(s, st, 3), 11 + 6 * 2 + 1 + 1 + 2); /* at the end: six empty lists, nothing in service or waiting, the last reasons */
	CHECK_EQ(st[3], 0xdeadbeef);
	blk_sim_free(s);
	blk_sim_free(whole);
}

/* --- kyber, worked by hand from block/kyber-iosched.c (7.2), at HZ 250 */

static struct blk_sim *bare_kyber(uint32_t cap)
{
	struct blk_job job = { 1, 8, cap, 0, 0, 0, 0, 0 };
	return blk_sim_new(BLK_SCHED_KYBER, &DEFAULTS, &DEV, &job, 1, 250, 1);
}

static uint32_t kadd(struct blk_sim *s, uint32_t op, uint64_t sector)
{
	uint32_t x = s->nrq++;
	memset(&s->rq[x], 0, sizeof(s->rq[x]));
	s->rq[x].op = op;
	s->rq[x].sector = sector;
	s->rq[x].nr_sectors = 8;
	kyber_insert_request(s, x);
	return x;
}

static uint32_t count_list(const struct blk_sim *s, uint32_t x)
{
	uint32_t n = 0;
	for (; x != BLK_NIL; x = s->rq[x].fifo_next)
		n++;
	return n;
}

uint32_t fx_blk_kyber_state(const struct blk_sim *s, uint32_t *out, uint32_t cap);

static void test_kyber_read_depth(void)
{
	/* 300 sequential reads in flight on a device with 1024 tags, one request served at a time (1 ms) */
	struct blk_device many = { 1024, 1, 1000000, 0, 0, 0.0, 1ull << 30 };
	struct blk_job job = { 300, 8, 600, 0, 0, 0, 0, 1u << 20 };
	struct blk_sim *s = blk_sim_new(BLK_SCHED_KYBER, &DEFAULTS, &many, &job, 1, 250, 3);
	struct blk_sim *none = blk_sim_new(BLK_SCHED_NONE, &DEFAULTS, &many, &job, 1, 250, 3);
	const struct sbitmap *rd;
	uint32_t i, st[1024], n;

	CHECK(s && none);
	rd = &s->kqd.domain_tokens[KYBER_READ];
	CHECK_EQ(blk_sim_step(none), 1);
	CHECK_EQ(none->tags_used, 300); /* none: every request has a tag */
	/*
	 * kyber: the first 256 take the read domain's 256 tokens (kyber_depth[KYBER_READ]), in
	 * batches of 16 that wrap round the empty domains back to READ. The 257th finds no token:
	 * it stays in the ctx queue (flushed to khd->rqs only with a token in hand), and so do
	 * the 43 after it.
	 */
	CHECK_EQ(blk_sim_step(s), 1);
	CHECK_EQ(s->tags_used, 256);
	CHECK_EQ(sbitmap_weight(rd), 256);
	CHECK_EQ(count_list(s, s->khd.kcq_head[KYBER_READ]), 44);
	CHECK_EQ(count_list(s, s->khd.rqs_head[KYBER_READ]), 0);
	for (i = 0; i < 256; i++)
		CHECK_EQ(s->order[i], i);
	/*
	 * throttled: the 257th request's run ends its full batch (batching 16), wraps round the
	 * four domains and misses once; each of the 43 after it misses twice (the current domain,
	 * then READ again at the end of the round): 1 + 43 * 2.
	 */
	CHECK_EQ(s->kqd.throttled[KYBER_READ], 87);
	CHECK_EQ(s->khd.cur_domain, KYBER_READ);
	CHECK_EQ(s->khd.batching, 0);
	/*
	 * the first completion frees a token; the job's next request joins the ctx queue (45);
	 * with the token got, all 45 are flushed to khd->rqs and the oldest (rq 256) goes
	 * (batching 1). The next try misses twice more, and the second round resets batching.
	 */
	CHECK_EQ(blk_sim_step(s), 1);
	CHECK_EQ(s->tags_used, 256);
	CHECK_EQ(s->order[256], 256);
	CHECK_EQ(count_list(s, s->khd.kcq_head[KYBER_READ]), 0);
	CHECK_EQ(count_list(s, s->khd.rqs_head[KYBER_READ]), 44);
	CHECK_EQ(s->kqd.throttled[KYBER_READ], 89);
	CHECK_EQ(s->khd.batching, 0);
	n = fx_blk_kyber_state(s, st, 1024);
	CHECK(n <= 1024);
	CHECK_EQ(st[2], KYBER_READ); /* cur_domain */
	CHECK_EQ(st[3], 0);          /* batching */
	CHECK_EQ(st[6], 1);          /* the first completion armed the timer: */
	CHECK_EQ(st[7], 0 + 25);     /* at jiffy 0 for HZ / 10 */
	CHECK_EQ(st[9], 0 + 25 + 1); /* a level-0 wheel bucket runs one jiffy on */
	CHECK_EQ(st[10], 256);       /* READ: depth */
	CHECK_EQ(st[11], 256);       /* busy */
	CHECK_EQ(st[12], 256);       /* held */
	CHECK_EQ(st[13], 16);        /* batch size */
	CHECK_EQ(st[16], 0);         /* nothing in the ctx queue */
	CHECK_EQ(st[17], 44);        /* 44 in khd->rqs, oldest first */
	CHECK_EQ(st[18], 257);
	/* to the end: never more than 256 reads in flight, and one domain is one FIFO */
	while (blk_sim_step(s) > 0)
		CHECK(s->tags_used <= 256 && sbitmap_held(rd) == s->tags_used);
	CHECK_EQ(s->norder, 600);
	for (i = 0; i < 600; i++)
		CHECK_EQ(s->order[i], i);
	blk_sim_free(s);
	blk_sim_free(none);
}

static void test_kyber_round_robin(void)
{
	struct blk_sim *s = bare_kyber(128);
	uint32_t i, x, run = 0, runs[8], nruns = 0, w0 = BLK_NIL;
	int last = -1;

	/* 40 reads at falling sectors, then 40 writes: kyber does not sort */
	for (i = 0; i < 40; i++)
		kadd(s, FSLAB_BLK_READ, 100000 - i * 8);
	for (i = 0; i < 40; i++)
		kadd(s, FSLAB_BLK_WRITE, 200000 - i * 8);
	/*
	 * cur_domain starts at READ: 16 reads (kyber_batch_size[READ]); a full batch moves on to
	 * WRITE: 8; DISCARD and OTHER are empty, back to READ: 16; WRITE 8; READ has 8 left;
	 * then only writes: each batch of 8 wraps round to WRITE again, one run of 24.
	 */
	for (i = 0; i < 80; i++) {
		x = kyber_dispatch_request(s);
		CHECK(x != BLK_NIL);
		if (x == BLK_NIL)
			break;
		CHECK_EQ(x, s->rq[x].op == FSLAB_BLK_WRITE ? 40 + (i - (i < 24 ? 16 : i < 48 ? 32 : 40)) : (i < 16 ? i : i < 40 ? i - 8 : i - 16));
		if (i == 15)
			CHECK(s->khd.cur_domain == KYBER_READ && s->khd.batching == 16);
		if (i == 16)
			CHECK(s->khd.cur_domain == KYBER_WRITE && s->khd.batching == 1);
		if ((int)s->rq[x].op != last && run) {
			runs[nruns++] = (uint32_t)(last ? 1000 : 0) + run;
			run = 0;
		}
		last = (int)s->rq[x].op;
		run++;
	}
	runs[nruns++] = (uint32_t)(last ? 1000 : 0) + run;
	CHECK_EQ(nruns, 6);
	CHECK_EQ(runs[0], 16);
	CHECK_EQ(runs[1], 1008);
	CHECK_EQ(runs[2], 16);
	CHECK_EQ(runs[3], 1008);
	CHECK_EQ(runs[4], 8);
	CHECK_EQ(runs[5], 1024);
	CHECK_EQ(kyber_dispatch_request(s), BLK_NIL);
	CHECK_EQ(kyber_has_work(s), 0);
	CHECK_EQ(sbitmap_held(&s->kqd.domain_tokens[KYBER_READ]), 40);
	CHECK_EQ(sbitmap_held(&s->kqd.domain_tokens[KYBER_WRITE]), 40);
	blk_sim_free(s);

	/* a domain out of tokens is passed over: the write domain resized to 2 */
	s = bare_kyber(128);
	for (i = 0; i < 40; i++)
		kadd(s, FSLAB_BLK_READ, i * 8);
	for (i = 0; i < 40; i++)
		kadd(s, FSLAB_BLK_WRITE, 100000 + i * 8);
	kyber_resize_domain(&s->kqd, KYBER_WRITE, 2);
	/*
	 * R16; WRITE: W W (2 tokens); the third try misses (throttled 1), batching resets and the
	 * round reaches READ: 16 reads; WRITE misses again (2), READ: the last 8; then READ is
	 * empty (no miss counted) and WRITE misses (3): nothing to dispatch, work left.
	 */
	run = 0;
	for (i = 0; i < 42; i++) {
		x = kyber_dispatch_request(s);
		CHECK(x != BLK_NIL);
		if (x == BLK_NIL)
			break;
		CHECK_EQ(s->rq[x].op, i == 16 || i == 17 ? FSLAB_BLK_WRITE : FSLAB_BLK_READ);
		if (i == 16)
			w0 = x;
	}
	CHECK_EQ(kyber_dispatch_request(s), BLK_NIL);
	CHECK_EQ(kyber_has_work(s), 1);
	CHECK_EQ(s->kqd.throttled[KYBER_WRITE], 3);
	CHECK_EQ(sbitmap_held(&s->kqd.domain_tokens[KYBER_WRITE]), 2);
	/* one write completes and gives its token back: the next write goes */
	kyber_finish_request(s, w0);
	CHECK_EQ(sbitmap_held(&s->kqd.domain_tokens[KYBER_WRITE]), 1);
	x = kyber_dispatch_request(s);
	CHECK(x == 42); /* the third write, in arrival order */
	CHECK_EQ(kyber_dispatch_request(s), BLK_NIL);
	blk_sim_free(s);
}

/* a completion with chosen latencies: total since submission, I/O since issue, at s->now_ns */
static void sample(struct blk_sim *s, uint32_t op, uint64_t total_ns, uint64_t io_ns, uint32_t n)
{
	while (n--) {
		uint32_t x = s->nrq++;
		memset(&s->rq[x], 0, sizeof(s->rq[x]));
		s->rq[x].op = op;
		s->rq[x].insert_ns = s->now_ns - total_ns;
		s->rq[x].dispatch_ns = s->now_ns - io_ns;
		kyber_completed_request(s, x);
	}
}

static uint32_t depth_of(const struct blk_sim *s, uint32_t d) { return s->kqd.domain_tokens[d].depth; }

static void test_kyber_timer(void)
{
	struct blk_sim *s = bare_kyber(8192);
	const struct kyber_timer_record *rec;

	s->now_ns = 1000000000ull; /* jiffy 250 */
	/*
	 * Window 1. Bucket = (latency - 1) / (target >> 2), at most 7.
	 * 500 reads at 3 ms: target 2 ms, width 500 us: (3000000 - 1) / 500000 = 5.
	 * 500 writes at 4 ms: target 10 ms, width 2.5 ms: (4000000 - 1) / 2500000 = 1.
	 * 500 samples each: no waiting. p90 rank = DIV_ROUND_UP(500 * 90, 100) = 450: READ's
	 * I/O p90 is bucket 5 >= KYBER_GOOD_BUCKETS (4): bad. WRITE's p99 (rank 495) is bucket 1:
	 * good, so throttled to 128 * (1 + 1) >> 2 = 64. READ's p99 is 5: 256 * 6 >> 2 = 384,
	 * clamped to kyber_depth[READ] 256: no change.
	 */
	sample(s, FSLAB_BLK_READ, 3000000, 3000000, 500);
	sample(s, FSLAB_BLK_WRITE, 4000000, 4000000, 500);
	CHECK_EQ(s->kqd.cpu_latency[KYBER_READ][KYBER_IO_LATENCY][5], 500);
	CHECK_EQ(s->kqd.cpu_latency[KYBER_WRITE][KYBER_TOTAL_LATENCY][1], 500);
	CHECK(s->kqd.timer_pending && s->kqd.timer_expires == 250 + 25); /* timer_reduce(jiffies + HZ / 10) */
	kyber_timer_fn(s);
	rec = &s->kqd.trace[0];
	CHECK_EQ(s->kqd.trace_len, 1);
	CHECK_EQ(rec->bad, 1);
	CHECK(rec->p90[KYBER_READ] == 5 && rec->p90[KYBER_WRITE] == 1 && rec->p90[KYBER_DISCARD] == -1);
	CHECK(rec->p99[KYBER_READ] == 5 && rec->p99[KYBER_WRITE] == 1 && rec->p99[KYBER_DISCARD] == -1);
	CHECK_EQ(depth_of(s, KYBER_WRITE), 64);
	CHECK_EQ(depth_of(s, KYBER_READ), 256);
	CHECK_EQ(depth_of(s, KYBER_DISCARD), 64);
	CHECK_EQ(s->kqd.domain_p99[KYBER_WRITE], -1); /* used while bad: dropped */
	CHECK_EQ(s->kqd.cpu_latency[KYBER_READ][KYBER_IO_LATENCY][5], 0); /* flushed */
	CHECK_EQ(s->kqd.latency_buckets[KYBER_READ][KYBER_IO_LATENCY][5], 0); /* and used */

	/*
	 * Window 2, 100 ms on: 499 writes at 1 ms (bucket 0). One short of 500 samples and within
	 * the second since the first: -1, the samples stay. Nothing changes.
	 */
	s->now_ns += 100000000;
	sample(s, FSLAB_BLK_WRITE, 1000000, 1000000, 499);
	kyber_timer_fn(s);
	CHECK_EQ(s->kqd.trace[1].p99[KYBER_WRITE], -1);
	CHECK_EQ(s->kqd.latency_timeout[KYBER_WRITE], 275 + 250);
	CHECK_EQ(s->kqd.latency_buckets[KYBER_WRITE][KYBER_TOTAL_LATENCY][0], 499);
	CHECK_EQ(depth_of(s, KYBER_WRITE), 64);
	/*
	 * Window 3: one more, 500 in all, so the p90 and p99 are bucket 0. Not bad, and a good
	 * domain is only throttled under congestion: the depth stays, its p99 is remembered.
	 */
	s->now_ns += 100000000;
	sample(s, FSLAB_BLK_WRITE, 1000000, 1000000, 1);
	kyber_timer_fn(s);
	CHECK_EQ(s->kqd.trace[2].bad, 0);
	CHECK_EQ(s->kqd.trace[2].p99[KYBER_WRITE], 0);
	CHECK_EQ(s->kqd.domain_p99[KYBER_WRITE], 0);
	CHECK_EQ(depth_of(s, KYBER_WRITE), 64);
	/*
	 * Window 4: reads are bad again, no writes. WRITE has no p99 of its own, so the remembered
	 * bucket 0 is used: 64 * (0 + 1) >> 2 = 16, and forgotten.
	 */
	s->now_ns += 100000000;
	sample(s, FSLAB_BLK_READ, 3000000, 3000000, 500);
	kyber_timer_fn(s);
	CHECK_EQ(s->kqd.trace[3].bad, 1);
	CHECK_EQ(depth_of(s, KYBER_WRITE), 16);
	CHECK_EQ(s->kqd.domain_p99[KYBER_WRITE], -1);
	/* Window 5: bad again, still no writes and nothing remembered: no second throttle. */
	s->now_ns += 100000000;
	sample(s, FSLAB_BLK_READ, 3000000, 3000000, 500);
	kyber_timer_fn(s);
	CHECK_EQ(s->kqd.trace[4].bad, 1);
	CHECK_EQ(depth_of(s, KYBER_WRITE), 16);
	/*
	 * Window 6: 495 writes at 1 ms (bucket 0) and 6 at 30 ms (bucket 7, the last), 501 in
	 * all. p99 rank = DIV_ROUND_UP(501 * 99, 100) = DIV_ROUND_UP(49599, 100) = 496: bucket 0's
	 * 495 fall short, so the p99 is bucket 7 (rounded down, 495, it would be 0). I/O latency
	 * is 1 ms: no congestion, but a bad domain is eased anyway: 16 * 8 >> 2 = 32.
	 */
	s->now_ns += 100000000;
	sample(s, FSLAB_BLK_WRITE, 1000000, 1000000, 495);
	sample(s, FSLAB_BLK_WRITE, 30000000, 1000000, 6);
	kyber_timer_fn(s);
	CHECK_EQ(s->kqd.trace[5].bad, 0);
	CHECK_EQ(s->kqd.trace[5].p99[KYBER_WRITE], 7);
	CHECK_EQ(depth_of(s, KYBER_WRITE), 32);
	blk_sim_free(s);

	/*
	 * The one-second rule. 10 bad reads (bucket 5) and 500 writes at 4 ms (bucket 1) at
	 * jiffy 250: READ has too few samples (-1; latency_timeout = 250 + HZ = 500), WRITE's
	 * p99 is 1 but nothing is bad: remembered, no change.
	 */
	s = bare_kyber(8192);
	s->now_ns = 1000000000ull;
	sample(s, FSLAB_BLK_READ, 3000000, 3000000, 10);
	sample(s, FSLAB_BLK_WRITE, 4000000, 4000000, 500);
	kyber_timer_fn(s);
	CHECK_EQ(s->kqd.trace[0].p90[KYBER_READ], -1);
	CHECK_EQ(s->kqd.latency_timeout[KYBER_READ], 500);
	CHECK_EQ(s->kqd.domain_p99[KYBER_WRITE], 1);
	CHECK_EQ(depth_of(s, KYBER_WRITE), 128);
	/*
	 * One jiffy short of the second: still waiting. At jiffy 500 the I/O p90 of the kept 10
	 * samples (rank DIV_ROUND_UP(900, 100) = 9) is bucket 5: bad, and the timeout resets.
	 * Then the total p99 of the same 10 samples starts a new second (the timeout is per
	 * domain, not per histogram): -1. WRITE's remembered p99 1 throttles it: 128 * 2 >> 2 = 64.
	 */
	s->now_ns = 1996000000ull; /* jiffy 499 */
	kyber_timer_fn(s);
	CHECK_EQ(s->kqd.trace[1].p90[KYBER_READ], -1);
	s->now_ns = 2000000000ull; /* jiffy 500 */
	kyber_timer_fn(s);
	rec = &s->kqd.trace[2];
	CHECK_EQ(rec->bad, 1);
	CHECK_EQ(rec->p90[KYBER_READ], 5);
	CHECK_EQ(rec->p99[KYBER_READ], -1);
	CHECK_EQ(s->kqd.latency_timeout[KYBER_READ], 750);
	CHECK_EQ(s->kqd.latency_buckets[KYBER_READ][KYBER_TOTAL_LATENCY][5], 10);
	CHECK_EQ(s->kqd.latency_buckets[KYBER_READ][KYBER_IO_LATENCY][5], 0);
	CHECK_EQ(depth_of(s, KYBER_WRITE), 64);
	CHECK_EQ(depth_of(s, KYBER_READ), 256);
	/* the read_lat_nsec tunable moves the buckets: at 8 ms a 3 ms read is bucket (3000000 - 1) / 2000000 = 1 */
	s->kqd.latency_targets[KYBER_READ] = 8000000;
	sample(s, FSLAB_BLK_READ, 3000000, 3000000, 1);
	CHECK_EQ(s->kqd.cpu_latency[KYBER_READ][KYBER_IO_LATENCY][1], 1);
	blk_sim_free(s);

	/*
	 * When the timer runs. At HZ 250 a completion at jiffy 250 arms it for 275; 25 jiffies is
	 * under LVL_START(1) = 63, level 0, bucket 275 + 1: it runs at jiffy 276, 1.104 s, not
	 * before the next completion's time. At HZ 1000 a completion at jiffy 1000 arms it for
	 * 1100; 100 jiffies is level 1 (8-jiffy buckets): ((1100 >> 3) + 1) << 3 = 1104.
	 */
	s = bare_kyber(16);
	s->now_ns = 1000000000ull;
	sample(s, FSLAB_BLK_READ, 1000, 1000, 1);
	CHECK(s->kqd.timer_expires == 275 && s->kqd.timer_tick == 276);
	CHECK_EQ(kyber_timer_due(s, 1103999999ull), 0);
	CHECK_EQ(kyber_timer_due(s, 1104000000ull), 1);
	CHECK(s->now_ns == 1104000000ull && s->kqd.trace_len == 1 && !s->kqd.timer_pending);
	blk_sim_free(s);
	{
		struct blk_job job = { 1, 8, 16, 0, 0, 0, 0, 0 };
		s = blk_sim_new(BLK_SCHED_KYBER, &DEFAULTS, &DEV, &job, 1, 1000, 1);
	}
	s->now_ns = 1000500000ull;
	sample(s, FSLAB_BLK_READ, 1000, 1000, 1);
	CHECK(s->kqd.timer_expires == 1100 && s->kqd.timer_tick == 1104);
	/* a later completion does not push it back (timer_reduce() only brings a timer forward) */
	s->now_ns = 1050000000ull;
	sample(s, FSLAB_BLK_READ, 1000, 1000, 1);
	CHECK(s->kqd.timer_expires == 1100 && s->kqd.timer_tick == 1104);
	blk_sim_free(s);
}

static void test_kyber_shrink(void)
{
	struct blk_sim *s = bare_kyber(128);
	const struct sbitmap *wr = &s->kqd.domain_tokens[KYBER_WRITE];
	uint32_t i, w[40];

	/*
	 * 128 write tokens: sbitmap_calculate_shift(128) = 5, four words of 32 bits. The first
	 * hint is random in the kernel; set to 0, each get takes the hint's bit and moves it on:
	 * the 40 writes hold tokens 0..39.
	 */
	CHECK(wr->shift == 5 && wr->map_nr == 4);
	s->kqd.domain_tokens[KYBER_WRITE].alloc_hint = 0;
	for (i = 0; i < 50; i++)
		kadd(s, FSLAB_BLK_WRITE, i * 8);
	for (i = 0; i < 40; i++) {
		w[i] = kyber_dispatch_request(s);
		CHECK_EQ(s->rq[w[i]].token, i);
	}
	/*
	 * Shrunk to 16 with 40 held: sbitmap_resize() only lowers the depth (one word, 16 bits).
	 * Tokens 0..15 are busy below it, 16..39 stay held above it and do not count.
	 */
	kyber_resize_domain(&s->kqd, KYBER_WRITE, 16);
	CHECK(wr->depth == 16 && wr->map_nr == 1);
	CHECK_EQ(sbitmap_weight(wr), 16);
	CHECK_EQ(sbitmap_held(wr), 40);
	CHECK_EQ(kyber_dispatch_request(s), BLK_NIL);
	/* the 24 above the depth complete: still no token below 16 */
	for (i = 16; i < 40; i++)
		kyber_finish_request(s, w[i]);
	CHECK_EQ(sbitmap_held(wr), 16);
	CHECK_EQ(kyber_dispatch_request(s), BLK_NIL);
	/* token 5 comes back: the next write gets it (the hint moved to 5; a deferred clear folds it in) */
	kyber_finish_request(s, w[5]);
	i = kyber_dispatch_request(s);
	CHECK(i == 40 && s->rq[i].token == 5);
	/* grown back to 128: the remaining writes go at once */
	kyber_resize_domain(&s->kqd, KYBER_WRITE, 1000); /* clamped to kyber_depth[WRITE] */
	CHECK(wr->depth == 128 && wr->map_nr == 4);
	for (i = 41; i < 50; i++)
		CHECK_EQ(kyber_dispatch_request(s), i);
	CHECK_EQ(sbitmap_held(wr), 16 + 9);
	kyber_resize_domain(&s->kqd, KYBER_WRITE, 0); /* clamped to 1 */
	CHECK_EQ(wr->depth, 1);
	blk_sim_free(s);

	/*
	 * The hint follows the last freed token (sbitmap_update_cpu_hint()), and a freed bit is
	 * only folded back when its word has no other free bit. Tokens 0..79 held; 70 then 3
	 * freed: the hint is 3, word 0 is full but for the deferred 3: token 3. It was the hint,
	 * so the hint moves to 4: word 0 is full now, word 1 too, word 2 has 80 free before the
	 * deferred 70: token 80.
	 */
	s = bare_kyber(128);
	wr = &s->kqd.domain_tokens[KYBER_WRITE];
	s->kqd.domain_tokens[KYBER_WRITE].alloc_hint = 0;
	for (i = 0; i < 82; i++)
		kadd(s, FSLAB_BLK_WRITE, i * 8);
	for (i = 0; i < 80; i++)
		CHECK_EQ(s->rq[kyber_dispatch_request(s)].token, i);
	kyber_finish_request(s, 70);
	kyber_finish_request(s, 3);
	CHECK_EQ(wr->alloc_hint, 3);
	CHECK_EQ(s->rq[kyber_dispatch_request(s)].token, 3);
	CHECK_EQ(s->rq[kyber_dispatch_request(s)].token, 80);
	blk_sim_free(s);
}

static void test_kyber_simulation(void)
{
	/*
	 * An SSD-like device (32 tags, 8 channels, 20 us + 1.3 us a sector): one job of random
	 * 4 KiB reads, iodepth 8, beside two of random 256 KiB writes, iodepth 16 each, which
	 * fill the channels: the reads' I/O latency goes past 2 ms, the writes' stays under 10.
	 */
	struct blk_device ssd = { 32, 8, 20000, 1300, 0, 0.0, 1ull << 31 };
	struct blk_job jobs[3] = {
		{ 8, 8, 20000, 1, 0, 0, 0, 1u << 22 },
		{ 16, 512, 4000, 1, 100, 0, 1u << 22, 1u << 22 },
		{ 16, 512, 4000, 1, 100, 0, 2u << 22, 1u << 22 },
	};
	struct blk_sim *s = blk_sim_new(BLK_SCHED_KYBER, &DEFAULTS, &ssd, jobs, 3, 250, 9);
	struct blk_sim *whole = blk_sim_new(BLK_SCHED_KYBER, &DEFAULTS, &ssd, jobs, 3, 250, 9);
	struct blk_sim *none = blk_sim_new(BLK_SCHED_NONE, &DEFAULTS, &ssd, jobs, 3, 250, 9);
	uint32_t *pos = calloc(28000, sizeof(uint32_t)), i, d, k, shrinks = 0;
	uint64_t first_done = 0, hash[2][3] = { { 0 } };
	int ok = 1;

	CHECK(s && whole && none && pos);
	while (blk_sim_step(s) > 0) {
		uint32_t inflight[2] = { 0, 0 };
		uint64_t seen[2][4] = { { 0 } };
		CHECK(s->tags_used <= 32);
		if (!first_done && s->devq_len + s->heap_len < s->nrq)
			first_done = s->now_ns;
		/* every request at the device holds a token of its domain, each a different one */
		for (k = 0; k < s->heap_len + s->devq_len; k++) {
			const struct blk_rq *r = &s->rq[k < s->heap_len ? s->heap[k] : s->devq[(s->devq_head + k - s->heap_len) % s->cap]];
			d = kyber_sched_domain(r->op);
			inflight[d]++;
			if (r->token >= 256 || (seen[d][r->token / 64] >> (r->token % 64)) & 1)
				ok = 0;
			else
				seen[d][r->token / 64] |= 1ull << (r->token % 64);
		}
		for (d = 0; d < 2; d++) {
			const struct sbitmap *sb = &s->kqd.domain_tokens[d];
			if (sbitmap_held(sb) != inflight[d] || sbitmap_weight(sb) > sb->depth)
				ok = 0;
		}
	}
	CHECK(ok);
	CHECK_EQ(blk_sim_run(whole), 0);
	CHECK_EQ(blk_sim_run(none), 0);
	CHECK_EQ(s->nrq, 28000);
	CHECK_EQ(s->norder, 28000);
	CHECK_EQ(s->completed, 28000);
	for (i = 0; i < 28000; i++) {
		const struct blk_rq *r = &s->rq[i], *n = &none->rq[i];
		CHECK(r->insert_ns <= r->dispatch_ns && r->dispatch_ns < r->complete_ns);
		hash[0][r->job] = hash[0][r->job] * 1000003 + r->sector * 2 + r->op;
		hash[1][n->job] = hash[1][n->job] * 1000003 + n->sector * 2 + n->op;
		CHECK_EQ(s->order[i], whole->order[i]); /* stepping is the same run */
		pos[s->order[i]] = i;
	}
	/* each job made the same requests as under none (its own random stream) */
	for (k = 0; k < 3; k++)
		CHECK(hash[0][k] == hash[1][k]);
	/* each domain is dispatched in arrival order (one ctx queue, FIFO lists) */
	for (d = 0; d < 2; d++) {
		uint32_t prev = 0, first = 1;
		for (i = 0; i < 28000; i++) {
			if (s->rq[i].op != d)
				continue;
			CHECK(first || pos[i] > prev);
			prev = pos[i];
			first = 0;
		}
	}
	/*
	 * The timer: armed by the first completion (at first_done) for HZ / 10 = 25 jiffies on,
	 * run by the wheel one jiffy (4 ms) after that; re-armed by the next completion. Each run
	 * takes the depths from the one before by (p99 + 1) / 4 when it resizes.
	 */
	CHECK(s->kqd.trace_len >= 3);
	CHECK_EQ(s->kqd.trace[0].ns, (first_done * 250 / 1000000000 + 25 + 1) * 4000000);
	for (k = 1; k < s->kqd.trace_len; k++) {
		const struct kyber_timer_record *a = &s->kqd.trace[k - 1], *b = &s->kqd.trace[k];
		CHECK(b->ns >= a->ns + 104000000 && b->ns % 4000000 == 0);
		if (b->bad && b->p99[KYBER_WRITE] >= 0 && b->p99[KYBER_WRITE] < KYBER_GOOD_BUCKETS) {
			uint32_t want = (a->depth[KYBER_WRITE] * (uint32_t)(b->p99[KYBER_WRITE] + 1)) >> 2;
			CHECK_EQ(b->depth[KYBER_WRITE], want < 1 ? 1 : want);
			shrinks += b->depth[KYBER_WRITE] < a->depth[KYBER_WRITE];
		}
		if (!b->bad && (b->p99[KYBER_WRITE] < KYBER_GOOD_BUCKETS))
			CHECK_EQ(b->depth[KYBER_WRITE], a->depth[KYBER_WRITE]);
	}
	CHECK(shrinks >= 2);
	CHECK(s->kqd.trace[s->kqd.trace_len - 1].depth[KYBER_WRITE] < 32); /* below the writes in flight */
	/*
	 * While the writes run, reads wait less than under none (their own FIFO served in
	 * batches of 16, then fewer writes in flight). Over the whole run a closed loop's mean
	 * would hide it: the read job keeps 8 in flight until it ends either way.
	 */
	{
		const struct blk_sim *both[2] = { s, none };
		uint64_t sum[2] = { 0, 0 }, n[2] = { 0, 0 }, end;
		for (k = 0; k < 2; k++) {
			for (end = 0, i = 0; i < 28000; i++)
				if (both[k]->rq[i].op == FSLAB_BLK_WRITE && both[k]->rq[i].complete_ns > end)
					end = both[k]->rq[i].complete_ns;
			for (i = 0; i < 28000; i++)
				if (both[k]->rq[i].op == FSLAB_BLK_READ && both[k]->rq[i].complete_ns < end) {
					sum[k] += both[k]->rq[i].complete_ns - both[k]->rq[i].insert_ns;
					n[k]++;
				}
		}
		CHECK(n[0] > n[1]);
		CHECK(sum[0] / n[0] < sum[1] / n[1]);
	}
	/* deterministic for a seed */
	CHECK_EQ(whole->kqd.trace_len, s->kqd.trace_len);
	CHECK(memcmp(whole->kqd.trace, s->kqd.trace, sizeof(*s->kqd.trace) * s->kqd.trace_len) == 0);
	free(pos);
	blk_sim_free(s);
	blk_sim_free(whole);
	blk_sim_free(none);
	/* an unknown scheduler is refused */
	CHECK(blk_sim_new((enum blk_sched)4, &DEFAULTS, &ssd, jobs, 3, 250, 1) == NULL);
}

/* --- trace jobs: requests arrive at recorded times, open loop */

#define MS 1000000ull

/* a device with one tag serving one request at a time in a fixed time */
static struct blk_device fixed(uint64_t service_ns)
{
	return (struct blk_device){ 1, 1, service_ns, 0, 0, 0.0, 1ull << 30 };
}

static struct blk_sim *replay(enum blk_sched sched, const struct blk_device *dev, const struct blk_trace_rq *rq, uint32_t n)
{
	struct blk_sim *s = blk_sim_new_trace(sched, &DEFAULTS, dev, rq, n, 100, 1);

	CHECK(s != NULL);
	if (s)
		CHECK_EQ(blk_sim_run(s), 0);
	return s;
}

static struct blk_trace_rq read_at(uint64_t ns, uint64_t sector)
{
	return (struct blk_trace_rq){ ns, sector, 8, FSLAB_BLK_READ, 2, 0, 0 };
}

static void check_order(const struct blk_sim *s, const uint32_t *want, uint32_t n)
{
	uint32_t i;

	CHECK_EQ(s->norder, n);
	for (i = 0; i < n && i < s->norder; i++)
		CHECK_EQ(s->order[i], want[i]);
}

static void test_trace_queue_times(void)
{
	/* three requests 1 ms apart, 2 ms each on one tag: each waits for the one before it */
	struct blk_trace_rq rq[3] = { read_at(0, 0), read_at(1 * MS, 8), read_at(2 * MS, 16) };
	struct blk_device dev = fixed(2 * MS);
	enum blk_sched all[3] = { BLK_SCHED_NONE, BLK_SCHED_MQ_DEADLINE, BLK_SCHED_KYBER };
	uint32_t k, i;

	for (k = 0; k < 3; k++) {
		struct blk_sim *s = replay(all[k], &dev, rq, 3);
		if (!s)
			continue;
		CHECK_EQ(s->nrq, 3);
		CHECK_EQ(s->completed, 3);
		for (i = 0; i < 3; i++) {
			CHECK_EQ(s->rq[i].insert_ns, i * MS);
			CHECK_EQ(s->rq[i].dispatch_ns - s->rq[i].insert_ns, i * MS); /* queue: 0, 1, 2 ms */
			CHECK_EQ(s->rq[i].complete_ns - s->rq[i].dispatch_ns, 2 * MS);
			CHECK_EQ(s->order[i], i);
		}
		CHECK_EQ(s->now_ns, 6 * MS);
		blk_sim_free(s);
	}
}

static void test_trace_sector_order(void)
{
	/* four reads at once on an idle one-tag disk (1 ms each), sectors 300 100 400 200 */
	struct blk_trace_rq rq[4] = { read_at(0, 300), read_at(0, 100), read_at(0, 400), read_at(0, 200) };
	struct blk_device dev = fixed(1 * MS);
	struct blk_sim *s;
	uint32_t i;

	/* none: arrival order */
	s = replay(BLK_SCHED_NONE, &dev, rq, 4);
	check_order(s, (const uint32_t[]){ 0, 1, 2, 3 }, 4);
	blk_sim_free(s);
	/*
	 * mq-deadline: the first takes the idle disk at once and starts a read batch at 300; the
	 * batch goes on upward (400), then, with nothing further up, starts again at the FIFO's
	 * oldest (100) and goes upward (200)
	 */
	s = replay(BLK_SCHED_MQ_DEADLINE, &dev, rq, 4);
	check_order(s, (const uint32_t[]){ 0, 2, 1, 3 }, 4);
	CHECK_EQ(s->rq[2].dispatch_ns, 1 * MS);
	CHECK_EQ(s->rq[3].dispatch_ns, 3 * MS);
	blk_sim_free(s);
	/* kyber: one FIFO per domain, arrival order */
	s = replay(BLK_SCHED_KYBER, &dev, rq, 4);
	check_order(s, (const uint32_t[]){ 0, 1, 2, 3 }, 4);
	blk_sim_free(s);

	/* the same four in one plug (the first three plugged): mq-deadline sees all four, 100 200 300 400 */
	for (i = 0; i < 3; i++)
		rq[i].plugged = 1;
	s = replay(BLK_SCHED_MQ_DEADLINE, &dev, rq, 4);
	check_order(s, (const uint32_t[]){ 1, 3, 0, 2 }, 4);
	for (i = 0; i < 4; i++)
		CHECK_EQ(s->rq[s->order[i]].dispatch_ns, i * MS);
	blk_sim_free(s);
	s = replay(BLK_SCHED_NONE, &dev, rq, 4);
	check_order(s, (const uint32_t[]){ 0, 1, 2, 3 }, 4);
	blk_sim_free(s);

	/* arriving 5 ms apart, each finds the disk idle: mq-deadline has nothing to sort */
	for (i = 0; i < 4; i++) {
		rq[i].arrival_ns = i * 5 * MS;
		rq[i].plugged = 0;
	}
	s = replay(BLK_SCHED_MQ_DEADLINE, &dev, rq, 4);
	check_order(s, (const uint32_t[]){ 0, 1, 2, 3 }, 4);
	for (i = 0; i < 4; i++)
		CHECK_EQ(s->rq[i].dispatch_ns, s->rq[i].insert_ns);
	blk_sim_free(s);

	/* a plugged request waits for the next arrival even on an idle disk: 200 at 0 (plugged), 100 at 1 ms */
	{
		struct blk_trace_rq two[2] = { read_at(0, 200), read_at(1 * MS, 100) };
		struct blk_device slow = fixed(2 * MS);
		two[0].plugged = 1;
		s = replay(BLK_SCHED_MQ_DEADLINE, &slow, two, 2);
		check_order(s, (const uint32_t[]){ 1, 0 }, 2);
		CHECK_EQ(s->rq[1].dispatch_ns, 1 * MS);
		CHECK_EQ(s->rq[0].dispatch_ns, 3 * MS);
		blk_sim_free(s);
		s = replay(BLK_SCHED_NONE, &slow, two, 2);
		check_order(s, (const uint32_t[]){ 0, 1 }, 2);
		CHECK_EQ(s->rq[0].dispatch_ns, 1 * MS);
		CHECK_EQ(s->rq[1].dispatch_ns, 3 * MS);
		blk_sim_free(s);
	}
}

static void test_trace_flush_and_writes(void)
{
	/* a flush arriving behind a waiting read goes to hctx->dispatch and is issued before it */
	struct blk_trace_rq rq[3] = { read_at(0, 100), read_at(0, 200), { MS / 2, 0, 0, FSLAB_BLK_FLUSH, 0, 0, 0 } };
	struct blk_device dev = fixed(2 * MS);
	enum blk_sched all[3] = { BLK_SCHED_NONE, BLK_SCHED_MQ_DEADLINE, BLK_SCHED_KYBER };
	struct blk_sim *s;
	uint32_t k;

	for (k = 0; k < 3; k++) {
		s = replay(all[k], &dev, rq, 3);
		check_order(s, (const uint32_t[]){ 0, 2, 1 }, 3);
		CHECK_EQ(s->rq[2].dispatch_ns, 2 * MS);
		if (all[k] == BLK_SCHED_MQ_DEADLINE) /* the flush was never mq-deadline's */
			CHECK_EQ(s->dd.per_prio[DD_BE_PRIO].inserted, 2);
		blk_sim_free(s);
	}
	/*
	 * a discard is a write to mq-deadline (rq_data_dir()): in one plug with two reads it goes
	 * first, as last_dir starts as WRITE with a batch to finish; as a read it would be second
	 */
	{
		struct blk_trace_rq rd[3] = { read_at(0, 900), read_at(0, 100), { 0, 500, 8, FSLAB_BLK_DISCARD, 2, 0, 0 } };
		rd[0].plugged = rd[1].plugged = 1;
		s = replay(BLK_SCHED_MQ_DEADLINE, &dev, rd, 3);
		check_order(s, (const uint32_t[]){ 2, 1, 0 }, 3);
		blk_sim_free(s);
	}
}

static void test_trace_open_loop(void)
{
	/* a closed-loop run, recorded as a trace (its inserts) and replayed: the same run, on a
	 * device that serves one request at a time (no two completions at one instant) */
	struct blk_device hdd = { 1, 1, 100000, 1000, 1u << 20, 10.0, 1ull << 24 };
	struct blk_device sd = { 2, 1, 300000, 12000, 1u << 20, 2.0, 1ull << 24 };
	const struct blk_device *devs[2] = { &hdd, &sd };
	struct blk_job jobs[3];
	enum blk_sched all[3] = { BLK_SCHED_NONE, BLK_SCHED_MQ_DEADLINE, BLK_SCHED_KYBER };
	uint32_t i, k, v, n;

	for (i = 0; i < 3; i++)
		jobs[i] = (struct blk_job){ 4, 8, 300, 1, i == 2 ? 50 : 0, i == 1 ? 3 : 2, i * (1ull << 22), 1ull << 22 };
	for (v = 0; v < 2; v++)
		for (k = 0; k < 3; k++) {
			struct blk_sim *closed = blk_sim_new(all[k], &DEFAULTS, devs[v], jobs, 3, 250, 9);
			struct blk_trace_rq *rq;
			struct blk_sim *open;

			CHECK(closed != NULL);
			CHECK_EQ(blk_sim_run(closed), 0);
			n = closed->nrq;
			rq = calloc(n, sizeof(*rq));
			for (i = 0; i < n; i++) {
				const struct blk_rq *r = &closed->rq[i];
				rq[i] = (struct blk_trace_rq){ r->insert_ns, r->sector, r->nr_sectors, r->op,
							       r->prio == DD_IDLE_PRIO ? 3 : r->prio == DD_RT_PRIO ? 1 : 2, 0, 0 };
			}
			open = blk_sim_new_trace(all[k], &DEFAULTS, devs[v], rq, n, 250, 9);
			CHECK(open != NULL);
			CHECK_EQ(blk_sim_run(open), 0);
			CHECK_EQ(open->norder, n);
			for (i = 0; i < n; i++) {
				CHECK_EQ(open->order[i], closed->order[i]);
				CHECK_EQ(open->rq[i].dispatch_ns, closed->rq[i].dispatch_ns);
				CHECK_EQ(open->rq[i].complete_ns, closed->rq[i].complete_ns);
			}
			if (all[k] == BLK_SCHED_KYBER) {
				CHECK_EQ(open->kqd.trace_len, closed->kqd.trace_len);
				CHECK(memcmp(open->kqd.trace, closed->kqd.trace, sizeof(*open->kqd.trace) * open->kqd.trace_len) == 0);
			}
			/* open loop: on a device 10x slower the requests arrive when they did */
			{
				struct blk_device slow = *devs[v];
				struct blk_sim *late;
				slow.base_ns *= 10;
				late = blk_sim_new_trace(all[k], &DEFAULTS, &slow, rq, n, 250, 9);
				CHECK_EQ(blk_sim_run(late), 0);
				for (i = 0; i < n; i++)
					CHECK_EQ(late->rq[i].insert_ns, rq[i].arrival_ns);
				CHECK(late->now_ns > open->now_ns);
				blk_sim_free(late);
			}
			free(rq);
			blk_sim_free(open);
			blk_sim_free(closed);
		}
}

static void test_trace_measured_service(void)
{
	/* each request's own measured time overrides the device model: 3 ms, then 1 ms, then the model's 2 ms */
	struct blk_trace_rq rq[3] = { read_at(0, 0), read_at(0, 8), read_at(0, 16) };
	struct blk_device dev = fixed(2 * MS);
	struct blk_sim *s;

	rq[0].service_ns = 3 * MS;
	rq[1].service_ns = 1 * MS;
	s = replay(BLK_SCHED_NONE, &dev, rq, 3);
	CHECK_EQ(s->rq[0].complete_ns, 3 * MS);
	CHECK_EQ(s->rq[1].dispatch_ns, 3 * MS);
	CHECK_EQ(s->rq[1].complete_ns, 4 * MS);
	CHECK_EQ(s->rq[2].complete_ns, 6 * MS);
	blk_sim_free(s);
}

static void test_trace_refused(void)
{
	struct blk_trace_rq rq[2] = { read_at(2 * MS, 0), read_at(1 * MS, 8) };
	struct blk_device dev = fixed(MS);

	CHECK(blk_sim_new_trace(BLK_SCHED_NONE, &DEFAULTS, &dev, rq, 2, 100, 1) == NULL); /* out of order */
	CHECK(blk_sim_new_trace(BLK_SCHED_NONE, &DEFAULTS, &dev, rq, 0, 100, 1) == NULL);
	rq[1].arrival_ns = 3 * MS;
	rq[1].op = 7;
	CHECK(blk_sim_new_trace(BLK_SCHED_NONE, &DEFAULTS, &dev, rq, 2, 100, 1) == NULL);
	rq[1].op = FSLAB_BLK_OTHER;
	rq[1].ioprio_class = 4;
	CHECK(blk_sim_new_trace(BLK_SCHED_NONE, &DEFAULTS, &dev, rq, 2, 100, 1) == NULL);
	rq[1].ioprio_class = 3;
	dev.queue_depth = 0;
	CHECK(blk_sim_new_trace(BLK_SCHED_NONE, &DEFAULTS, &dev, rq, 2, 100, 1) == NULL);
	dev.queue_depth = 1;
	CHECK(blk_sim_new_trace((enum blk_sched)4, &DEFAULTS, &dev, rq, 2, 100, 1) == NULL);
	/* HZ 7: bfq's budget timeout would be 0 jiffies and its queue expire for ever
	 * (fuzz/regressions/trace-bfq-hz-4-expires-forever) */
	CHECK(blk_sim_new_trace(BLK_SCHED_BFQ, &DEFAULTS, &dev, rq, 2, BLK_MIN_HZ - 1, 1) == NULL);
	{
		struct blk_sim *s = blk_sim_new_trace(BLK_SCHED_BFQ, &DEFAULTS, &dev, rq, 2, BLK_MIN_HZ, 1);
		CHECK(s != NULL && blk_sim_run(s) == 0);
		blk_sim_free(s);
	}
	{
		struct blk_sim *s = blk_sim_new_trace(BLK_SCHED_NONE, &DEFAULTS, &dev, rq, 2, 100, 1);
		CHECK(s != NULL);
		CHECK_EQ(blk_sim_run(s), 0);
		CHECK_EQ(s->rq[1].op, FSLAB_BLK_OTHER);
		blk_sim_free(s);
	}
}

/* --- bfq (block/bfq-iosched.c, bfq-wf2q.c): the core model of bfq_iosched.c */

/* two sequential jobs of iodepth 1 (job 1 far away), `bs` sectors, on a one-tag disk that takes 1 ms a request, HZ 1000 */
static struct blk_sim *bfq_two_jobs(enum blk_sched sched, uint32_t bs, uint32_t ios)
{
	struct blk_job jobs[2] = { { 1, bs, ios, 0, 0, 2, 0, 0 }, { 1, bs, ios, 0, 0, 2, 1u << 24, 0 } };
	struct blk_sim *s = blk_sim_new(sched, &DEFAULTS, &DEV, jobs, 2, 1000, 1);
	CHECK(s && blk_sim_run(s) == 0);
	return s;
}

/* the lengths of the runs of one job's requests in dispatch order; returns how many runs */
static uint32_t job_runs(const struct blk_sim *s, uint32_t *runs, uint32_t max)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->norder; i++) {
		if (!i || s->rq[s->order[i]].job != s->rq[s->order[i - 1]].job)
			n++;
		if (n <= max)
			runs[n - 1] = (i && s->rq[s->order[i]].job == s->rq[s->order[i - 1]].job) ? runs[n - 1] + 1 : 1;
	}
	return n;
}

/* every request dispatched once and completed once, in time order */
static void check_once(const struct blk_sim *s)
{
	uint32_t i, *seen = calloc(s->nrq, sizeof(uint32_t)), complete = 0;

	CHECK_EQ(s->norder, s->nrq);
	for (i = 0; i < s->norder; i++)
		seen[s->order[i]]++;
	for (i = 0; i < s->nrq; i++) {
		CHECK_EQ(seen[i], 1);
		CHECK(s->rq[i].insert_ns <= s->rq[i].dispatch_ns && s->rq[i].dispatch_ns < s->rq[i].complete_ns);
	}
	complete = s->completed;
	CHECK_EQ(complete, s->nrq);
	free(seen);
}

static void test_bfq_budget_timeout(void)
{
	uint32_t runs[32], n, i;
	struct blk_sim *s = bfq_two_jobs(BLK_SCHED_BFQ, 8, 1000);

	/*
	 * 8-sector requests, 1 ms each. Job 0's queue is selected at 0 (bfq_set_budget_timeout:
	 * budget_timeout = jiffies + HZ / 8 = 125), its first budget 2 * 16384 / 3 = 10922 sectors
	 * (bfq_init_bfqq), far more than 125 ms of requests. Each completion leaves it empty with
	 * its process alive: bfq_arm_slice_timer(), and the next request arrives at once
	 * (bfq_rq_enqueued clears wait_request), so the queue keeps the disk: requests issued at
	 * 0..124 ms. At 125 the arrival finds the budget timed out: expire (BUDGET_TIMEOUT), and job 1
	 * (S = V at its insert, F = S + 10922 / w, smaller than job 0's after its time charge:
	 * bfq_bfqq_charge_time gives 16384 for 125 ms) runs 125..249, and so on: runs of 125.
	 */
	n = job_runs(s, runs, 32);
	CHECK_EQ(n, 16);
	for (i = 0; i < n && i < 32; i++)
		CHECK_EQ(runs[i], 125);
	CHECK_EQ(s->rq[s->order[0]].job, 0);
	CHECK_EQ(s->rq[s->order[125]].job, 1);
	CHECK_EQ(s->rq[s->order[125]].dispatch_ns, 125000000);
	/* every slot: even a job's last ends at 125 ms, when bfq_completed_request checks the
	 * budget timeout before NO_MORE_REQUESTS */
	CHECK_EQ(s->bfqd.expired[BFQQE_BUDGET_TIMEOUT], 16);
	CHECK_EQ(s->bfqd.expired[BFQQE_NO_MORE_REQUESTS], 0);
	CHECK_EQ(s->bfqd.timer_fired, 0);
	check_once(s);
	blk_sim_free(s);

	/* none alternates: each completion's next request queues behind the other job's */
	s = bfq_two_jobs(BLK_SCHED_NONE, 8, 1000);
	n = job_runs(s, runs, 32);
	CHECK_EQ(n, 2000);
	blk_sim_free(s);
}

static void test_bfq_budget_growth(void)
{
	uint32_t runs[64], n, i, exp[] = { 42, 42, 64, 64 };
	struct blk_sim *s = bfq_two_jobs(BLK_SCHED_BFQ, 256, 512);
	int64_t served[2] = { 0, 0 }, worst = 0;

	/*
	 * 256-sector requests, 1 ms each: a budget of 10922 holds 42 (10752); the 43rd does not
	 * fit the 170 left: BUDGET_EXHAUSTED at 42 ms, the next budget min(4 * 10922, 16384) =
	 * 16384 (__bfq_bfqq_recalc_budget), S += 10752 / w, F = S + 16384 / w. Job 1 (F = 256/w
	 * + 10922/w = 11178/w against job 0's 27136/w) runs its 42, then job 0 (27136 < 27392)
	 * 64 = 16384 / 256, job 1 64, ... each slot 64 ms, inside the 125 ms timeout.
	 */
	n = job_runs(s, runs, 64);
	CHECK_EQ(n, 2 + (512 - 42) / 64 * 2 + 2);
	for (i = 0; i < 4; i++)
		CHECK_EQ(runs[i], exp[i]);
	for (i = 4; i + 2 < n && i < 64; i++)
		CHECK_EQ(runs[i], 64);
	CHECK_EQ(s->bfqd.expired[BFQQE_BUDGET_TIMEOUT], 0);
	/* equal weights: at every point of the order the two jobs' sectors are within one max budget */
	for (i = 0; i < s->norder; i++) {
		const struct blk_rq *r = &s->rq[s->order[i]];
		int64_t d;
		served[r->job] += r->nr_sectors;
		d = served[0] - served[1];
		if (d < 0)
			d = -d;
		if (d > worst)
			worst = d;
	}
	CHECK(worst <= BFQ_DEFAULT_MAX_BUDGET);
	CHECK_EQ(worst, 16384); /* job 0's 64 x 256 after both 42s */
	check_once(s);
	blk_sim_free(s);
}

/* a bfq sim driven by hand: requests of job j inserted at chosen times, HZ 1000 */
static uint32_t bfq_add(struct blk_sim *s, uint32_t job, uint64_t sector)
{
	uint32_t x = s->nrq++;
	memset(&s->rq[x], 0, sizeof(s->rq[x]));
	s->rq[x].job = job;
	s->rq[x].op = FSLAB_BLK_READ;
	s->rq[x].sector = sector;
	s->rq[x].nr_sectors = 8;
	s->job_issued[job]++;
	bfq_insert_request(s, x);
	return x;
}

static void test_bfq_idle_timer(void)
{
	struct blk_job jobs[2] = { { 1, 8, 10, 0, 0, 2, 0, 0 }, { 1, 8, 10, 0, 0, 2, 1000, 0 } };
	struct blk_sim *s = blk_sim_new(BLK_SCHED_BFQ, &DEFAULTS, &DEV, jobs, 2, 1000, 1);
	uint32_t a, b, c;

	/* both at V = 0 with the same budget: equal F, job 0 (the first) is served */
	a = bfq_add(s, 0, 0);
	b = bfq_add(s, 1, 1000);
	CHECK_EQ(bfq_dispatch_request(s), a);
	CHECK_EQ(bfq_dispatch_request(s), BLK_NIL); /* empty, one in flight: kept (bfq_better_to_idle) */
	/* a completes at 1 ms: job 0 is alive (1 of 10 issued): bfq_arm_slice_timer, 8 ms */
	s->now_ns = 1000000;
	bfq_completed_request(s, a);
	CHECK_EQ(s->bfqd.wait_request, 1);
	CHECK_EQ(s->bfqd.idle_until_ns, 9000000);
	CHECK_EQ(bfq_dispatch_request(s), BLK_NIL); /* b waits: the disk is idled for job 0 */
	/* job 0's next at 5 ms ends the wait and is served before b */
	s->now_ns = 5000000;
	c = bfq_add(s, 0, 8);
	CHECK_EQ(s->bfqd.wait_request, 0);
	CHECK_EQ(bfq_dispatch_request(s), c);
	s->now_ns = 6000000;
	bfq_completed_request(s, c);
	CHECK_EQ(s->bfqd.idle_until_ns, 14000000);
	/* job 0 stops issuing: the timer is not due before 14 ms, then fires: TOO_IDLE */
	CHECK_EQ(bfq_timer_due(s, 13999999), 0);
	CHECK_EQ(bfq_dispatch_request(s), BLK_NIL);
	CHECK_EQ(bfq_timer_due(s, 20000000), 1);
	CHECK_EQ(s->now_ns, 14000000);
	CHECK_EQ(s->bfqd.expired[BFQQE_TOO_IDLE], 1);
	/* __bfq_bfqq_recalc_budget, TOO_IDLE, nothing in flight: 10922 > 5 * 512, so 10922 - 4 * 512 */
	CHECK_EQ(s->bfqd.q[0].max_budget, 10922 - 2048);
	CHECK_EQ(s->bfqd.q[0].busy, 0);
	CHECK_EQ(bfq_dispatch_request(s), b);
	blk_sim_free(s);

	/* a process that has issued all it will (exited: no process refs) is not idled for */
	jobs[0].ios = 1;
	s = blk_sim_new(BLK_SCHED_BFQ, &DEFAULTS, &DEV, jobs, 2, 1000, 1);
	a = bfq_add(s, 0, 0);
	b = bfq_add(s, 1, 1000);
	CHECK_EQ(bfq_dispatch_request(s), a);
	s->now_ns = 1000000;
	bfq_completed_request(s, a);
	CHECK_EQ(s->bfqd.wait_request, 0);
	CHECK_EQ(s->bfqd.expired[BFQQE_NO_MORE_REQUESTS], 1);
	CHECK_EQ(s->bfqd.q[0].max_budget, BFQ_MIN_BUDGET); /* NO_MORE_REQUESTS: max(service 8, 512) */
	CHECK_EQ(bfq_dispatch_request(s), b);
	blk_sim_free(s);
}

static void test_bfq_trace_idle(void)
{
	/* one process (a trace): a gap of 20 ms after a 1 ms request lets the timer fire at 9 ms */
	struct blk_trace_rq rq[3] = {
		{ 0, 0, 8, FSLAB_BLK_READ, 2, 0, 1000000 },
		{ 20000000, 8, 8, FSLAB_BLK_READ, 2, 0, 1000000 },
		{ 25000000, 16, 8, FSLAB_BLK_READ, 2, 0, 1000000 },
	};
	struct blk_sim *s = blk_sim_new_trace(BLK_SCHED_BFQ, &DEFAULTS, &DEV, rq, 3, 1000, 1);

	CHECK(s && blk_sim_run(s) == 0);
	CHECK_EQ(s->bfqd.timer_fired, 1);           /* 1 ms + 8: not for the 4 ms gap at 21..25 */
	CHECK_EQ(s->bfqd.expired[BFQQE_TOO_IDLE], 1);
	CHECK_EQ(s->rq[1].dispatch_ns, 20000000);
	CHECK_EQ(s->rq[2].dispatch_ns, 25000000);
	check_once(s);
	blk_sim_free(s);
}

/* The reasons our kernel's tracepoint reports, as the model records them, on the writes_starved case */
static void test_dispatch_reasons(void)
{
	struct dd_tunables t = DEFAULTS;
	struct blk_sim *s;
	uint32_t i, x;

	t.fifo_batch = 2;
	s = bare(&t, 64);
	for (i = 0; i < 6; i++)
		add(s, FSLAB_BLK_READ, i * 8, DD_BE_PRIO, 0);
	for (i = 0; i < 4; i++)
		add(s, FSLAB_BLK_WRITE, 1000 + i * 8, DD_BE_PRIO, 0);
	/* last_dir starts as WRITE, batching 0: the first write continues a "batch" */
	x = dd_dispatch_request(s, 0);
	CHECK_EQ(s->rq[x].op, FSLAB_BLK_WRITE);
	CHECK_EQ(s->dd.because, DD_BECAUSE_BATCH);
	dd_dispatch_request(s, 0); /* W1008: batching 2 */
	/* batch over: reads queued, writes passed over once (starved 0 -> 1): reads, sorted from 0 */
	x = dd_dispatch_request(s, 0);
	CHECK_EQ(s->rq[x].sector, 0);
	CHECK_EQ(s->dd.because, DD_BECAUSE_READS);
	CHECK_EQ(s->dd.pick, DD_PICK_SORTED);
	CHECK_EQ(s->dd.starved, 1);
	dd_dispatch_request(s, 0);
	x = dd_dispatch_request(s, 0); /* starved 1 -> 2: reads again */
	CHECK_EQ(s->dd.because, DD_BECAUSE_READS);
	CHECK_EQ(s->rq[x].sector, 16);
	dd_dispatch_request(s, 0);
	/* starved 2 >= writes_starved 2: writes are forced, on up from W1008 */
	x = dd_dispatch_request(s, 0);
	CHECK_EQ(s->dd.because, DD_BECAUSE_STARVED);
	CHECK_EQ(s->dd.pick, DD_PICK_SORTED);
	CHECK_EQ(s->rq[x].sector, 1016);
	CHECK_EQ(s->dd.starved, 0);
	dd_dispatch_request(s, 0); /* W1024 */
	/* no writes left: reads, with no starved++ */
	x = dd_dispatch_request(s, 0);
	CHECK_EQ(s->dd.because, DD_BECAUSE_READS);
	CHECK_EQ(s->rq[x].sector, 32);
	CHECK_EQ(s->dd.starved, 0);
	dd_dispatch_request(s, 0); /* R40 */
	/* only a write below the last write position: writes, nothing further up, the FIFO head */
	add(s, FSLAB_BLK_WRITE, 500, DD_BE_PRIO, 0);
	x = dd_dispatch_request(s, 0);
	CHECK_EQ(s->dd.because, DD_BECAUSE_WRITES);
	CHECK_EQ(s->dd.pick, DD_PICK_NO_NEXT);
	CHECK_EQ(s->rq[x].sector, 500);
	blk_sim_free(s);

	/* an expired FIFO head is taken though a request lies further up (HZ 1000: 500 jiffies) */
	s = bare(&DEFAULTS, 8);
	add(s, FSLAB_BLK_READ, 100, DD_BE_PRIO, 0);
	add(s, FSLAB_BLK_READ, 10, DD_BE_PRIO, 0);
	add(s, FSLAB_BLK_WRITE, 5, DD_BE_PRIO, 0);
	s->dd.batching = s->dd.fifo_batch; /* no batch to continue */
	x = dd_dispatch_request(s, 500);
	CHECK_EQ(s->rq[x].sector, 100);
	CHECK_EQ(s->dd.because, DD_BECAUSE_READS);
	CHECK_EQ(s->dd.pick, DD_PICK_EXPIRED);
	blk_sim_free(s);
}

/* dd_replay(): the model judged at each of the kernel's decisions from the kernel's state */
/* events that cannot have happened end the replay instead of linking a request twice
 * (fuzz/regressions/trace-treap-double-insert) */
static void test_dd_replay_refused(void)
{
	const uint32_t rq[8] = { 8, 0, 0, DD_BE_PRIO, 16, 0, 1, DD_BE_PRIO };
	const uint32_t twice[] = { 0, 0, 10, 0, 0, 1, 10, 0, 0, 0, 11, 0 };
	const uint32_t unqueued[] = { 0, 0, 10, 0, 1, 1, 11, 0 };
	const uint32_t early[] = { 0, 0, 10, 0, 2, 0, 0, 0 };
	const uint32_t kind[] = { 0, 0, 10, 0, 6, 0, 0, 0 };
	const uint32_t self_merge[] = { 0, 0, 10, 0, 3, 0, 0, 0 };
	const uint32_t merged_dispatched[] = { 0, 0, 10, 0, 0, 1, 10, 0, 3, 1, 0, 0, 1, 1, 11, 0 };
	const uint32_t head_new[] = { 5, 0, 10, 0 };
	const uint32_t fine[] = { 0, 0, 10, 0, 0, 1, 10, 0, 1, 0, 11, 0, 2, 0, 0, 0, 1, 1, 12, 0 };
	uint32_t out[5 * 4];

	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 2, twice, 3, out), -1);
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 2, unqueued, 2, out), -1);
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 2, early, 2, out), -1);
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 2, kind, 2, out), -1);
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 2, self_merge, 2, out), -1);
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 2, merged_dispatched, 4, out), -1);
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 2, head_new, 1, out), -1);
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 2, fine, 5, out), 2);
}

static void test_dd_replay(void)
{
	/* requests: R100, R10, R50 (sector low, high, op, prio) */
	static const uint32_t rq[] = { 100, 0, FSLAB_BLK_READ, DD_BE_PRIO, 10, 0, FSLAB_BLK_READ, DD_BE_PRIO,
				       50, 0, FSLAB_BLK_READ, DD_BE_PRIO };
	/* all three inserted at jiffy 0; the "kernel" dispatches R50 first, then R100, then R10 */
	static const uint32_t ev[] = {
		0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0,
		1, 2, 1, 1, /* R50, batching 1 starved 0 */
		1, 0, 1, 2,
		2, 2, 2, 0, /* R50 completes */
		1, 1, 60, 1,
	};
	uint32_t out[15];
	int n = dd_replay(&DEFAULTS, 100, NULL, rq, 3, ev, sizeof(ev) / sizeof(ev[0]) / 4, out);

	CHECK_EQ(n, 3);
	/* 1: from latest_pos 0 the model takes R10, not R50: a difference */
	CHECK_EQ(out[0], 1);
	CHECK_EQ(out[1], DD_BECAUSE_READS);
	CHECK_EQ(out[2], DD_PICK_SORTED);
	CHECK_EQ(out[3], 1);
	/* 2: from the kernel's state (latest_pos 50 after R50) the batch goes on up to R100; had
	 * the model's own R10 been kept it would have taken R50 */
	CHECK_EQ(out[5], 0);
	CHECK_EQ(out[6], DD_BECAUSE_BATCH);
	CHECK_EQ(out[8], 2);
	/* 3: R10 is all that is left; nothing above 100: the FIFO head, inside the batch? no:
	 * latest_pos 100, nothing further up, so not a batch: reads, no_next (expired at 60 >= 50 too) */
	CHECK_EQ(out[10], 1);
	CHECK_EQ(out[11], DD_BECAUSE_READS);
	CHECK_EQ(out[12], DD_PICK_NO_NEXT);
	CHECK_EQ(out[13], 1);
	/* the same trace begun mid-stream, a read batch of 15 already behind it at sector 60:
	 * the first decision goes on with that batch, from 60 up: R100, not R10 or R50 */
	{
		uint32_t start[15] = { 0, 15, 1 };

		start[3 + 2 * (DD_BE_PRIO * 2 + DD_READ)] = 60;
		CHECK_EQ(dd_replay(&DEFAULTS, 100, start, rq, 3, ev, sizeof(ev) / sizeof(ev[0]) / 4, out), 3);
		CHECK_EQ(out[0], 0);
		CHECK_EQ(out[1], DD_BECAUSE_BATCH);
		CHECK_EQ(out[3], 16);
		CHECK_EQ(out[4], 1);
	}
	/* bad input is refused */
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 3, (const uint32_t[]){ 0, 7, 0, 0 }, 1, out), -1);
	CHECK_EQ(dd_replay(&DEFAULTS, 0, NULL, rq, 3, ev, 1, out), -1);
}

/* merges, dispatch calls that dispatched nothing, and the at-head list (patch 0003) */
static void test_dd_replay_merge_none_head(void)
{
	/* R10, R20, R50: R20 merges into R10 before any dispatch */
	static const uint32_t rq[] = { 10, 0, FSLAB_BLK_READ, DD_BE_PRIO, 20, 0, FSLAB_BLK_READ, DD_BE_PRIO,
				       50, 0, FSLAB_BLK_READ, DD_BE_PRIO };
	static const uint32_t ev[] = {
		0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0,
		3, 1, 0, 0,   /* R20 merged into R10 */
		1, 0, 1, 1,   /* R10: the model's pick too (R20 is gone) */
		4, 1, 2, 5 | 1 << 16, /* a call that dispatched nothing left last_dir W, batching 5, starved 1 */
		1, 2, 2, 1 | 1 << 16, /* R50: a new batch of reads, not the old batch going on */
		5, 0, 3, 0,   /* R10 requeued, served from the at-head list: no decision */
		2, 0, 0, 0, 2, 2, 0, 0,
	};
	uint32_t out[10];

	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 3, ev, sizeof(ev) / sizeof(ev[0]) / 4, out), 2);
	CHECK_EQ(out[0], 0);
	CHECK_EQ(out[1], DD_BECAUSE_READS);
	CHECK_EQ(out[5], 2);
	/* without the none event the batch of reads from R10 would have gone on (batch, 2) */
	CHECK_EQ(out[6], DD_BECAUSE_READS);
	CHECK_EQ(out[8], 1);
	/* the merged request cannot be dispatched or merged again */
	CHECK_EQ(dd_replay(&DEFAULTS, 100, NULL, rq, 3, (const uint32_t[]){ 0, 0, 0, 0, 0, 1, 0, 0, 3, 1, 0, 0, 3, 1, 0, 0 }, 4, out), -1);
}

/* dd_replay() undoes the model's choice in place; the reference copies the lists and
 * restores them. On random traces with random "kernel" choices both must judge alike. */
static int dd_replay_by_copy(const struct dd_tunables *t, uint32_t hz, const uint32_t *rq, uint32_t nrq,
			     const uint32_t *ev, uint32_t n, uint32_t *out)
{
	struct blk_sim s;
	struct blk_rq *saved = calloc(nrq, sizeof(*saved));
	uint32_t i, k = 0;

	memset(&s, 0, sizeof(s));
	s.rq = calloc(nrq, sizeof(*s.rq));
	s.nrq = nrq;
	s.hz = hz;
	dd_init(&s.dd, t, hz);
	for (i = 0; i < nrq; i++) {
		s.rq[i].sector = rq[4 * i];
		s.rq[i].op = rq[4 * i + 2];
		s.rq[i].prio = rq[4 * i + 3];
		s.rq[i].fifo_prev = s.rq[i].fifo_next = s.rq[i].left = s.rq[i].right = BLK_NIL;
	}
	for (i = 0; i < n; i++) {
		const uint32_t *e = ev + 4 * i;
		if (e[0] == 0) {
			dd_insert_request(&s, e[1], e[2]);
		} else if (e[0] == 1) {
			struct deadline_data dd = s.dd;
			memcpy(saved, s.rq, nrq * sizeof(*saved));
			out[5 * k] = dd_dispatch_request(&s, e[2]);
			out[5 * k + 1] = s.dd.because;
			out[5 * k + 2] = s.dd.pick;
			out[5 * k + 3] = s.dd.batching;
			out[5 * k + 4] = s.dd.starved;
			memcpy(s.rq, saved, nrq * sizeof(*saved));
			s.dd = dd;
			dd_apply_dispatch(&s, e[1], e[3] & 0xffff, e[3] >> 16);
			k++;
		} else {
			dd_finish_request(&s, e[1]);
		}
	}
	free(s.rq);
	free(saved);
	return (int)k;
}

static void test_dd_replay_undo_in_place(void)
{
	uint64_t seed = 12345;
	int round, same = 0;
	struct dd_tunables t = DEFAULTS;

	t.fifo_batch = 4;
	for (round = 0; round < 200; round++) {
		enum { N = 120 };
		uint32_t rq[4 * N], ev[4 * 3 * N], out_a[5 * N], out_b[5 * N], queued[N], nq = 0, ne = 0, ins = 0, j = 0, i;
		int na, nb;

		for (i = 0; i < N; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			rq[4 * i] = (uint32_t)(seed >> 40) % 4096 * 8; /* repeats: equal sectors happen */
			rq[4 * i + 1] = 0;
			rq[4 * i + 2] = (seed >> 20) % 3 ? FSLAB_BLK_READ : FSLAB_BLK_WRITE;
			rq[4 * i + 3] = (seed >> 30) % 8 ? DD_BE_PRIO : DD_IDLE_PRIO;
		}
		/* inserts and dispatches interleaved; each dispatch takes a random queued request */
		while (ins < N || nq) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			j += (uint32_t)(seed >> 60) % 3; /* jiffies move on, deadlines pass */
			if (ins < N && (!nq || (seed >> 33) % 2)) {
				ev[ne * 4] = 0, ev[ne * 4 + 1] = ins, ev[ne * 4 + 2] = j, ev[ne * 4 + 3] = 0, ne++;
				queued[nq++] = ins++;
			} else {
				uint32_t pick = (uint32_t)(seed >> 41) % nq, x = queued[pick];
				queued[pick] = queued[--nq];
				ev[ne * 4] = 1, ev[ne * 4 + 1] = x, ev[ne * 4 + 2] = j, ev[ne * 4 + 3] = (uint32_t)(seed >> 50) % 5, ne++;
			}
		}
		na = dd_replay(&t, 100, NULL, rq, N, ev, ne, out_a);
		nb = dd_replay_by_copy(&t, 100, rq, N, ev, ne, out_b);
		if (na == nb && na == N && !memcmp(out_a, out_b, sizeof(uint32_t) * 5 * N))
			same++;
	}
	CHECK_EQ(same, 200);
}

int main(void)
{
	test_dd_replay_undo_in_place();
	test_dispatch_reasons();
	test_dd_replay();
	test_dd_replay_merge_none_head();
	test_dd_replay_refused();
	test_bfq_budget_timeout();
	test_bfq_budget_growth();
	test_bfq_idle_timer();
	test_bfq_trace_idle();
	test_trace_queue_times();
	test_trace_sector_order();
	test_trace_flush_and_writes();
	test_trace_open_loop();
	test_trace_measured_service();
	test_trace_refused();
	test_kyber_read_depth();
	test_kyber_round_robin();
	test_kyber_timer();
	test_kyber_shrink();
	test_kyber_simulation();
	test_steps();
	test_sector_order();
	test_writes_starved();
	test_expiry();
	test_priorities();
	test_simulation();
	return CHECK_DONE("test_blk");
}
