/* SPDX-License-Identifier: MIT */
/*
 * blk core: the blk-mq dispatch loop and the mq-deadline scheduler as Linux 7.2 has them
 * (block/blk-mq-sched.c, block/mq-deadline.c), driven by fio-like jobs against a simple
 * device model, in simulated time. Deterministic for a seed.
 *
 *   jobs submit (closed loop, iodepth each) -> dd_insert_request / none: a FIFO
 *   queue run: while a driver tag is free -> dd_dispatch_request -> device
 *   completion -> dd_finish_request, free the tag, the job submits its next, run the queue
 *
 * or, for a recorded trace (blk_sim_new_trace), an open-loop job: each request arrives at
 * its time, whatever has completed by then, and takes the same insert -> dispatch -> device path.
 *
 * Every request's insert, issue and completion times are a row (struct blk_rq), so the page
 * can draw queue depth and offset against time; the kernel's own are read from its trace
 * (web/src/topics/blk/blk-trace.ts), into the same rows.
 *
 * kyber (block/kyber-iosched.c) is the third choice: per-domain (read, write, ...) FIFOs and
 * token pools whose depths its timer rescales from latency histograms (kyber_iosched.c;
 * the tokens are lib/sbitmap.c's bitmaps, sbitmap.c).
 *
 * bfq (block/bfq-iosched.c, bfq-wf2q.c) is the fourth, a small model of its core only: one
 * sync queue per job, B-WF2Q+ in sectors, budgets, the budget timeout and idling
 * (bfq_iosched.c says what is left out).
 */
#ifndef FSLAB_BLK_H
#define FSLAB_BLK_H

#include <stdint.h>
#include "fslab/events.h"

enum blk_sched { BLK_SCHED_NONE = 0, BLK_SCHED_MQ_DEADLINE = 1, BLK_SCHED_KYBER = 2, BLK_SCHED_BFQ = 3 };
enum dd_data_dir { DD_READ = 0, DD_WRITE = 1, DD_DIR_COUNT = 2 };
enum dd_prio { DD_RT_PRIO = 0, DD_BE_PRIO = 1, DD_IDLE_PRIO = 2, DD_PRIO_COUNT = 3 };
#define BLK_NIL 0xFFFFFFFFu /* no request: the end of a list, an empty tree */
#define BLK_MIN_HZ 8 /* the smallest HZ a simulation takes: bfq's timeout, HZ / 8, is a jiffy */

/* mq-deadline's tunables (/sys/block/<dev>/queue/iosched/), defaults as in the kernel */
struct dd_tunables {
	uint32_t read_expire_ms;       /* 500 (HZ / 2) */
	uint32_t write_expire_ms;      /* 5000 (5 * HZ) */
	uint32_t prio_aging_expire_ms; /* 10000 (10 * HZ) */
	uint32_t writes_starved;       /* 2 */
	uint32_t fifo_batch;           /* 16 */
};

/* a device: `channels` requests in service at once, each taking
 * base + sectors * per_sector + min(|sector - head|, seek_max) * per_seek_sector */
struct blk_device {
	uint32_t queue_depth; /* driver tags */
	uint32_t channels;
	uint64_t base_ns, per_sector_ns, seek_max_sectors;
	double per_seek_sector_ns;
	uint64_t capacity_sectors;
};

/* one fio job: iodepth requests in flight, each of bs sectors */
struct blk_job {
	uint32_t iodepth, bs_sectors, ios;
	uint32_t random;        /* 0: sequential from offset, 1: uniformly random in [offset, offset + span) */
	uint32_t write_pct;     /* 0: reads only, 100: writes only, between: mixed */
	uint32_t ioprio_class;  /* IOPRIO_CLASS_NONE 0, RT 1, BE 2, IDLE 3 */
	uint64_t offset, span;  /* sectors */
};

/* one request of an open-loop trace job: it arrives at arrival_ns (a trace's block_rq_insert) */
struct blk_trace_rq {
	uint64_t arrival_ns, sector;
	uint32_t nr_sectors, op; /* op: FSLAB_BLK_READ / WRITE / DISCARD / FLUSH / OTHER */
	uint32_t ioprio_class;   /* IOPRIO_CLASS_NONE 0, RT 1, BE 2, IDLE 3 */
	/* 1: no queue run after this insert; the next arrival's comes first, as for the requests
	 * of one plug, or inserts whose async queue run (kblockd) had not happened yet */
	uint32_t plugged;
	uint64_t service_ns; /* the device's time for it (the kernel's issue -> complete); 0: the device model's */
};

struct blk_rq {
	uint32_t job, op, prio; /* op: FSLAB_BLK_READ / WRITE; prio: enum dd_prio */
	uint64_t sector;
	uint32_t nr_sectors;
	uint64_t insert_ns, dispatch_ns, complete_ns;
	uint64_t fifo_time; /* jiffies, as rq->fifo_time */
	/* links: fifo list (per prio, dir; kyber: its domain list), sort tree (treap on sector, id) */
	uint32_t fifo_prev, fifo_next, left, right, heap;
	uint32_t token; /* kyber: the domain token it holds (rq->elv.priv[0]); BLK_NIL: none */
	uint64_t service_ns; /* a trace job's measured service time; 0: the device model's */
};

struct dd_per_prio {
	uint32_t fifo_head[DD_DIR_COUNT], fifo_tail[DD_DIR_COUNT];
	uint32_t sort_root[DD_DIR_COUNT];
	uint64_t latest_pos[DD_DIR_COUNT];
	uint32_t inserted, dispatched, completed;
};

struct deadline_data {
	struct dd_per_prio per_prio[DD_PRIO_COUNT];
	enum dd_data_dir last_dir;
	uint32_t batching, starved;
	uint64_t fifo_expire[DD_DIR_COUNT]; /* jiffies */
	uint64_t prio_aging_expire;         /* jiffies */
	uint32_t fifo_batch, writes_starved;
	/* why the last dispatch went the way it did, as our kernel's mq_deadline:dd_dispatch_request says */
	uint32_t because, pick; /* DD_BECAUSE_*, DD_PICK_* */
};
/* which direction: still in a batch, reads first, writes after starving writes_starved times, only writes */
enum { DD_BECAUSE_BATCH, DD_BECAUSE_READS, DD_BECAUSE_STARVED, DD_BECAUSE_WRITES };
/* which request: next in sector order, the FIFO head because its deadline passed or nothing lies ahead */
enum { DD_PICK_SORTED, DD_PICK_EXPIRED, DD_PICK_NO_NEXT };

/* --- kyber (block/kyber-iosched.c) */
enum kyber_domain { KYBER_READ, KYBER_WRITE, KYBER_DISCARD, KYBER_OTHER, KYBER_NUM_DOMAINS };
enum {
	KYBER_LATENCY_SHIFT = 2,                         /* bucket width: target >> 2 */
	KYBER_GOOD_BUCKETS = 1 << KYBER_LATENCY_SHIFT,   /* buckets 0..3: <= target */
	KYBER_LATENCY_BUCKETS = 2 << KYBER_LATENCY_SHIFT,
};
enum { KYBER_TOTAL_LATENCY, KYBER_IO_LATENCY };
extern const uint32_t kyber_depth[KYBER_NUM_DOMAINS];      /* 256 128 64 16: initial and maximum */
extern const uint32_t kyber_batch_size[KYBER_NUM_DOMAINS]; /* 16 8 1 1 */

/* lib/sbitmap.c's sbitmap_queue as the domain tokens use it, with 64-bit words, on one CPU */
#define SB_MAX_WORDS 8 /* sbitmap_calculate_shift() gives at most 8 words for any depth */
struct sbitmap_word {
	uint64_t word, cleared; /* set bits; bits freed but not yet folded back (deferred clear) */
};
struct sbitmap {
	uint32_t depth, shift, map_nr;
	uint32_t alloc_hint; /* the per-cpu hint, one CPU */
	struct sbitmap_word map[SB_MAX_WORDS];
};
void sbitmap_queue_init(struct sbitmap *sb, uint32_t depth, uint64_t *rng);
int sbitmap_queue_get(struct sbitmap *sb, uint64_t *rng); /* __sbitmap_queue_get: a bit, or -1 */
void sbitmap_queue_clear(struct sbitmap *sb, uint32_t nr);
void sbitmap_queue_resize(struct sbitmap *sb, uint32_t depth);
uint32_t sbitmap_weight(const struct sbitmap *sb); /* busy bits below depth, as debugfs shows */
uint32_t sbitmap_held(const struct sbitmap *sb);   /* every bit held, above a shrunk depth too */

/* one run of kyber_timer_fn(): what trace_kyber_latency/trace_kyber_adjust would report */
struct kyber_timer_record {
	uint64_t ns;
	uint32_t bad;
	int32_t p90[KYBER_OTHER], p99[KYBER_OTHER]; /* bucket, -1: too few samples */
	uint32_t depth[KYBER_NUM_DOMAINS];          /* after the run */
};

struct kyber_queue_data {
	struct sbitmap domain_tokens[KYBER_NUM_DOMAINS];
	uint32_t cpu_latency[KYBER_OTHER][2][KYBER_LATENCY_BUCKETS]; /* the one CPU's, flushed by the timer */
	uint32_t latency_buckets[KYBER_OTHER][2][KYBER_LATENCY_BUCKETS];
	uint64_t latency_timeout[KYBER_OTHER]; /* jiffies, 0: not started */
	int32_t domain_p99[KYBER_OTHER];
	uint64_t latency_targets[KYBER_OTHER]; /* ns: read_lat_nsec, write_lat_nsec, discard's 5 s */
	int timer_pending;
	uint64_t timer_expires; /* jiffies: timer->expires */
	uint64_t timer_tick;    /* jiffies: when the timer wheel runs it (its bucket, rounded up) */
	uint64_t rng;           /* get_random_u32_below() for the tokens' alloc hints */
	uint32_t throttled[KYBER_NUM_DOMAINS]; /* trace_kyber_throttled */
	struct kyber_timer_record *trace;
	uint32_t trace_len, trace_cap;
};

struct kyber_hctx_data {
	/* one kyber_ctx_queue (one software queue): its rq_list per domain, then khd->rqs */
	uint32_t kcq_head[KYBER_NUM_DOMAINS], kcq_tail[KYBER_NUM_DOMAINS];
	uint32_t rqs_head[KYBER_NUM_DOMAINS], rqs_tail[KYBER_NUM_DOMAINS];
	uint32_t cur_domain, batching;
};

/* --- bfq (block/bfq-iosched.c, bfq-wf2q.c): the core only, see bfq_iosched.c */
enum bfqq_expiration { BFQQE_TOO_IDLE, BFQQE_BUDGET_TIMEOUT, BFQQE_BUDGET_EXHAUSTED, BFQQE_NO_MORE_REQUESTS, BFQQE_COUNT };
enum {
	BFQ_DEFAULT_MAX_BUDGET = 16 * 1024, /* bfq_default_max_budget, sectors */
	BFQ_MIN_BUDGET = BFQ_DEFAULT_MAX_BUDGET / 32, /* bfq_min_budget() before any peak-rate sample */
	BFQ_WEIGHT = 40,                    /* bfq_ioprio_to_weight(IOPRIO_BE_NORM): (8 - 4) * 10 */
	BFQ_WFQ_SERVICE_SHIFT = 22,         /* WFQ_SERVICE_SHIFT: virtual times in fixed point */
};
#define BFQ_SLICE_IDLE_NS 8000000ull   /* bfq_slice_idle: NSEC_PER_SEC / 125 */

struct bfq_queue {
	uint32_t head, tail;           /* its requests, oldest first (fifo_next) */
	uint32_t queued, dispatched;   /* waiting in it; dispatched, not completed */
	uint32_t busy;                 /* on the active tree (bfq_bfqq_busy) */
	uint32_t weight;
	uint32_t budget, service;      /* entity->budget, entity->service: sectors */
	uint32_t max_budget;           /* bfqq->max_budget: the next budget */
	uint64_t start, finish;        /* virtual times, << BFQ_WFQ_SERVICE_SHIFT */
	uint64_t budget_timeout;       /* jiffies */
};

struct bfq_data {
	struct bfq_queue *q;           /* one per job (a trace job: one) */
	uint32_t nq;
	uint64_t vtime;                /* the service tree's V */
	uint32_t wsum;                 /* weights of the busy queues */
	uint32_t in_service;           /* a queue, or BLK_NIL */
	uint32_t wait_request;         /* idling: the slice timer is armed */
	uint64_t idle_until_ns;        /* when it fires */
	uint64_t last_budget_start_ns, last_idling_start_ns;
	uint32_t expired[BFQQE_COUNT]; /* expirations by reason */
	uint32_t timer_fired;
};

struct blk_sim {
	enum blk_sched sched;
	uint32_t hz;
	struct deadline_data dd;
	struct kyber_queue_data kqd;
	struct kyber_hctx_data khd;
	struct bfq_data bfqd;
	struct blk_device dev;
	struct blk_job *jobs;
	uint32_t njobs;
	uint32_t *job_issued, *job_done; /* per job */
	uint64_t *job_next_sector;
	uint64_t *job_rng; /* one random stream per job: its requests do not depend on the scheduler */
	struct blk_rq *rq;
	uint32_t nrq, cap;
	uint32_t none_head, none_tail; /* "none": the requests waiting for a tag, in order */
	uint32_t tags_used, in_service;
	uint32_t *devq; uint32_t devq_head, devq_len; /* dispatched, waiting for a channel */
	uint32_t *heap; uint32_t heap_len;            /* in service, by completion time */
	uint64_t head_sector, now_ns;
	uint32_t *order; uint32_t norder;             /* dispatch order */
	int started;                                  /* blk_sim_step: the jobs' first requests are in */
	/* an open-loop trace job (blk_sim_new_trace; njobs 0): its requests, the next to arrive */
	struct blk_trace_rq *trace; uint32_t ntrace, trace_next;
	/* hctx->dispatch: requests that bypass the scheduler (a REQ_OP_FLUSH, added at its head), dispatched first */
	uint32_t dispatch_head;
	uint32_t completed;                           /* completions so far (each request once) */
	int oom;                                      /* a record could not grow: the run reports -ENOSPC */
};

void dd_init(struct deadline_data *dd, const struct dd_tunables *t, uint32_t hz);
void dd_insert_request(struct blk_sim *s, uint32_t rq, uint64_t jiffies);
uint32_t dd_dispatch_request(struct blk_sim *s, uint64_t jiffies); /* BLK_NIL if none */
void dd_finish_request(struct blk_sim *s, uint32_t rq);
int dd_has_work(const struct blk_sim *s);
/* take rq off the lists as the kernel dispatched it, with the kernel's counters after it */
void dd_apply_dispatch(struct blk_sim *s, uint32_t rq, uint32_t batching, uint32_t starved);
/* put back a request dd_dispatch_request() took (counters not restored) */
void dd_undo_dispatch(struct blk_sim *s, uint32_t rq);
/* dd_merged_requests(): next (queued) merged into req (BLK_NIL: not known), next freed */
void dd_merged_requests(struct blk_sim *s, uint32_t req, uint32_t next);
/* a dispatch from the at-head list (dd->dispatch): no decision, no counters; listed: the
 * replay had put it in the lists (an at-head insert looks like any insert in a trace) */
void dd_head_dispatch(struct blk_sim *s, uint32_t rq, int listed);
/*
 * The kernel's mq-deadline decisions, replayed (dd_replay.c). ev: n events in the kernel's
 * order, 4 words each: kind (0 insert, 1 dispatch, 2 complete, 3 merge, 4 none, 5 at-head
 * dispatch), request (none: last_dir), jiffies (insert: the one its fifo_time comes from;
 * dispatch, none: jiffies then; merge: the request that took it over, or BLK_NIL), and for
 * a dispatch or none the kernel's batching | starved << 16 after it. rq: nrq requests, 4 words each: sector low, sector
 * high, op, dd_prio. At each dispatch the model decides from the same lists, then takes the
 * kernel's request and counters, so one difference does not carry into the next decision.
 * out: per dispatch, 5 words: the model's request (BLK_NIL: none), because, pick,
 * batching, starved. start: the scheduler as the trace began (NULL: as dd_init() leaves it,
 * a scheduler just switched on), 15 words: last_dir, batching, starved, then per prio and
 * dir latest_pos low, high. Returns the number of dispatches, or -1 (out of memory, or bad input:
 * a request past nrq, an unknown kind, a request inserted twice or dispatched while not queued).
 */
int dd_replay(const struct dd_tunables *t, uint32_t hz, const uint32_t *start, const uint32_t *rq, uint32_t nrq,
	      const uint32_t *ev, uint32_t n, uint32_t *out);

uint32_t kyber_sched_domain(uint32_t op);
void kyber_init(struct blk_sim *s, uint64_t seed);
void kyber_exit(struct blk_sim *s);
void kyber_insert_request(struct blk_sim *s, uint32_t rq);
uint32_t kyber_dispatch_request(struct blk_sim *s); /* BLK_NIL if none (no request or no token) */
int kyber_has_work(const struct blk_sim *s);
void kyber_completed_request(struct blk_sim *s, uint32_t rq); /* latency samples at s->now_ns */
void kyber_finish_request(struct blk_sim *s, uint32_t rq);    /* gives the token back */
void kyber_resize_domain(struct kyber_queue_data *kqd, uint32_t sched_domain, uint32_t depth);
void kyber_timer_fn(struct blk_sim *s); /* at s->now_ns */
/* runs the timer if it is due by `until_ns` (at its own expiry time); 1 if it ran */
int kyber_timer_due(struct blk_sim *s, uint64_t until_ns);

int bfq_init(struct blk_sim *s, uint32_t nq); /* 0, or -1 out of memory */
void bfq_exit(struct blk_sim *s);
void bfq_insert_request(struct blk_sim *s, uint32_t rq);
uint32_t bfq_dispatch_request(struct blk_sim *s); /* BLK_NIL if none (nothing queued, or idling) */
void bfq_completed_request(struct blk_sim *s, uint32_t rq);
/* fires the idle slice timer if it is due by `until_ns` (at its own time); 1 if it fired */
int bfq_timer_due(struct blk_sim *s, uint64_t until_ns);

static inline uint64_t blk_splitmix64(uint64_t *s) /* deterministic for a seed */
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

struct blk_sim *blk_sim_new(enum blk_sched sched, const struct dd_tunables *t, const struct blk_device *dev,
			    const struct blk_job *jobs, uint32_t njobs, uint32_t hz, uint64_t seed);
/* An open-loop trace job: rqs[n] arrive at their arrival_ns (not decreasing), their rq
 * indices in that order; NULL if refused (no requests, times out of order, a bad op, a
 * device without tags or channels, hz below BLK_MIN_HZ). */
struct blk_sim *blk_sim_new_trace(enum blk_sched sched, const struct dd_tunables *t, const struct blk_device *dev,
				  const struct blk_trace_rq *rqs, uint32_t n, uint32_t hz, uint64_t seed);
void blk_sim_free(struct blk_sim *s);
/* one step: the jobs' first submissions, then one completion and what it sets off (a trace
 * job: the next arrival or completion); 1 after a step, 0 at the end, -errno */
int blk_sim_step(struct blk_sim *s);
/* runs to the end (every request completed); 0 or -errno */
int blk_sim_run(struct blk_sim *s);

#endif
