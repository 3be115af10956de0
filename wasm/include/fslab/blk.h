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
 * Every insert, issue and completion is an event (fslab/events.h BLK_RQ_*) and a row of
 * per-request times, so the page can draw queue depth and offset against time.
 */
#ifndef FSLAB_BLK_H
#define FSLAB_BLK_H

#include <stdint.h>
#include "fslab/events.h"

enum blk_sched { BLK_SCHED_NONE = 0, BLK_SCHED_MQ_DEADLINE = 1 };
enum dd_data_dir { DD_READ = 0, DD_WRITE = 1, DD_DIR_COUNT = 2 };
enum dd_prio { DD_RT_PRIO = 0, DD_BE_PRIO = 1, DD_IDLE_PRIO = 2, DD_PRIO_COUNT = 3 };
#define BLK_NIL 0xFFFFFFFFu /* no request: the end of a list, an empty tree */

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

struct blk_rq {
	uint32_t job, op, prio; /* op: FSLAB_BLK_READ / WRITE; prio: enum dd_prio */
	uint64_t sector;
	uint32_t nr_sectors;
	uint64_t insert_ns, dispatch_ns, complete_ns;
	uint64_t fifo_time; /* jiffies, as rq->fifo_time */
	/* links: fifo list (per prio, dir), sort tree (treap on sector, id) */
	uint32_t fifo_prev, fifo_next, left, right, heap;
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
};

struct blk_sim {
	enum blk_sched sched;
	uint32_t hz;
	struct deadline_data dd;
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
	struct fslab_events events;
};

void dd_init(struct deadline_data *dd, const struct dd_tunables *t, uint32_t hz);
void dd_insert_request(struct blk_sim *s, uint32_t rq, uint64_t jiffies);
uint32_t dd_dispatch_request(struct blk_sim *s, uint64_t jiffies); /* BLK_NIL if none */
void dd_finish_request(struct blk_sim *s, uint32_t rq);
int dd_has_work(const struct blk_sim *s);

struct blk_sim *blk_sim_new(enum blk_sched sched, const struct dd_tunables *t, const struct blk_device *dev,
			    const struct blk_job *jobs, uint32_t njobs, uint32_t hz, uint64_t seed);
void blk_sim_free(struct blk_sim *s);
/* one step: the jobs' first submissions, then one completion and what it sets off;
 * 1 after a step, 0 at the end, -errno */
int blk_sim_step(struct blk_sim *s);
/* runs to the end (every job's ios completed); 0 or -errno */
int blk_sim_run(struct blk_sim *s);

#endif
