/* SPDX-License-Identifier: MIT */
/*
 * mq-deadline cases worked by hand from block/mq-deadline.c (7.2), then the whole
 * simulation: every request completes once, tags are respected, none is FIFO.
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
		CHECK_EQ(s[k]->events.len, 3 * 2000);
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
	CHECK_EQ(fx_blk_state(s, st, 3), 11 + 6 * 2 + 1 + 1); /* at the end: six empty lists, nothing in service or waiting */
	CHECK_EQ(st[3], 0xdeadbeef);
	blk_sim_free(s);
	blk_sim_free(whole);
}

int main(void)
{
	test_steps();
	test_sector_order();
	test_writes_starved();
	test_expiry();
	test_priorities();
	test_simulation();
	return CHECK_DONE("test_blk");
}
