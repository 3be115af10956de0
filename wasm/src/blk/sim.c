/* SPDX-License-Identifier: MIT */
/*
 * The blk-mq side and the world around the scheduler, in simulated nanoseconds:
 * fio-like jobs submit (closed loop: iodepth in flight each), blk_mq_run_hw_queue()
 * dispatches while a driver tag is free (blk_mq_do_dispatch_sched() / "none": straight
 * from a FIFO), the device serves `channels` requests at once with a seek-distance cost,
 * and a completion frees its tag, lets its job submit the next request and reruns the queue.
 * The scheduler is none, mq-deadline (mq_deadline.c), kyber (kyber_iosched.c), whose
 * timer runs between completions when it falls due, or bfq (bfq_iosched.c), whose idle
 * slice timer does too.
 *
 * A trace job (blk_sim_new_trace) is open loop instead: its requests arrive at recorded
 * times, however far the device has got, and a completion only reruns the queue.
 */
#include <stdlib.h>
#include <string.h>
#include "fslab/blk.h"
#include "fslab/errno.h"

uint32_t dd_prio_of_class(uint32_t ioprio_class);

static uint64_t rng_next(uint64_t *s) { return blk_splitmix64(s); }

static uint64_t jiffies(const struct blk_sim *s) { return s->now_ns * s->hz / 1000000000ull; }

/* what both kinds of simulation hold: room for `cap` requests, the scheduler set up */
static struct blk_sim *sim_alloc(enum blk_sched sched, const struct dd_tunables *t, const struct blk_device *dev,
				 uint32_t cap, uint32_t hz, uint64_t seed)
{
	struct blk_sim *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->sched = sched;
	s->hz = hz;
	s->dev = *dev;
	s->cap = cap;
	s->rq = malloc(sizeof(struct blk_rq) * s->cap);
	s->devq = malloc(sizeof(uint32_t) * s->cap);
	s->heap = malloc(sizeof(uint32_t) * s->cap);
	s->order = malloc(sizeof(uint32_t) * s->cap);
	if (!s->rq || !s->devq || !s->heap || !s->order) {
		blk_sim_free(s);
		return NULL;
	}
	s->none_head = s->none_tail = BLK_NIL;
	s->dispatch_head = BLK_NIL;
	dd_init(&s->dd, t, hz);
	if (sched == BLK_SCHED_KYBER)
		kyber_init(s, seed);
	return s;
}

/* HZ at least BLK_MIN_HZ: bfq's budget timeout is HZ / 8 jiffies, and at 0 jiffies a queue
 * would expire the moment it is selected, again and again (found by fuzz/fuzz_trace.c) */
static int sim_params_ok(enum blk_sched sched, const struct blk_device *dev, uint32_t hz)
{
	return dev->queue_depth && dev->channels && hz >= BLK_MIN_HZ && (unsigned)sched <= BLK_SCHED_BFQ;
}

struct blk_sim *blk_sim_new(enum blk_sched sched, const struct dd_tunables *t, const struct blk_device *dev,
			    const struct blk_job *jobs, uint32_t njobs, uint32_t hz, uint64_t seed)
{
	struct blk_sim *s;
	uint64_t total = 0;
	uint32_t j;

	for (j = 0; j < njobs; j++)
		total += jobs[j].ios;
	if (!njobs || total == 0 || total >= BLK_NIL || !sim_params_ok(sched, dev, hz))
		return NULL;
	s = sim_alloc(sched, t, dev, (uint32_t)total, hz, seed);
	if (!s)
		return NULL;
	s->njobs = njobs;
	s->jobs = malloc(sizeof(*jobs) * njobs);
	s->job_issued = calloc(njobs, sizeof(uint32_t));
	s->job_done = calloc(njobs, sizeof(uint32_t));
	s->job_next_sector = calloc(njobs, sizeof(uint64_t));
	s->job_rng = calloc(njobs, sizeof(uint64_t));
	if (!s->jobs || !s->job_issued || !s->job_done || !s->job_next_sector || !s->job_rng) {
		blk_sim_free(s);
		return NULL;
	}
	memcpy(s->jobs, jobs, sizeof(*jobs) * njobs);
	for (j = 0; j < njobs; j++) {
		s->job_next_sector[j] = jobs[j].offset;
		s->job_rng[j] = seed * 0x100000001B3ull + j;
	}
	if (sched == BLK_SCHED_BFQ && bfq_init(s, njobs)) {
		blk_sim_free(s);
		return NULL;
	}
	return s;
}

struct blk_sim *blk_sim_new_trace(enum blk_sched sched, const struct dd_tunables *t, const struct blk_device *dev,
				  const struct blk_trace_rq *rqs, uint32_t n, uint32_t hz, uint64_t seed)
{
	struct blk_sim *s;
	uint32_t i;

	if (!n || n >= BLK_NIL || !sim_params_ok(sched, dev, hz))
		return NULL;
	for (i = 0; i < n; i++) {
		uint32_t op = rqs[i].op;
		if ((i && rqs[i].arrival_ns < rqs[i - 1].arrival_ns) || rqs[i].ioprio_class > 3 ||
		    (op > FSLAB_BLK_FLUSH && op != FSLAB_BLK_OTHER))
			return NULL;
	}
	s = sim_alloc(sched, t, dev, n, hz, seed);
	if (!s)
		return NULL;
	s->trace = malloc(sizeof(*rqs) * n);
	if (!s->trace) {
		blk_sim_free(s);
		return NULL;
	}
	memcpy(s->trace, rqs, sizeof(*rqs) * n);
	s->ntrace = n;
	if (sched == BLK_SCHED_BFQ && bfq_init(s, 1)) { /* the trace is one process */
		blk_sim_free(s);
		return NULL;
	}
	return s;
}

void blk_sim_free(struct blk_sim *s)
{
	if (!s)
		return;
	free(s->jobs);
	free(s->job_issued);
	free(s->job_done);
	free(s->job_next_sector);
	free(s->job_rng);
	free(s->rq);
	free(s->devq);
	free(s->heap);
	free(s->order);
	free(s->trace);
	kyber_exit(s);
	bfq_exit(s);
	free(s);
}

/* --- completions: a min-heap of in-service requests on (complete_ns, index) */
static int earlier(const struct blk_sim *s, uint32_t a, uint32_t b)
{
	return s->rq[a].complete_ns < s->rq[b].complete_ns || (s->rq[a].complete_ns == s->rq[b].complete_ns && a < b);
}

static void heap_push(struct blk_sim *s, uint32_t x)
{
	uint32_t i = s->heap_len++;

	while (i && earlier(s, x, s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = x;
}

static uint32_t heap_pop(struct blk_sim *s)
{
	uint32_t top = s->heap[0], x = s->heap[--s->heap_len], i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= s->heap_len)
			break;
		if (c + 1 < s->heap_len && earlier(s, s->heap[c + 1], s->heap[c]))
			c++;
		if (!earlier(s, s->heap[c], x))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->heap_len)
		s->heap[i] = x;
	return top;
}

/* the device starts serving a request: seek from where the last one ended, then transfer
 * (or, for a traced request, the time the kernel measured for it) */
static void device_start(struct blk_sim *s, uint32_t x)
{
	struct blk_rq *r = &s->rq[x];
	uint64_t dist = r->sector > s->head_sector ? r->sector - s->head_sector : s->head_sector - r->sector;

	if (dist > s->dev.seek_max_sectors)
		dist = s->dev.seek_max_sectors;
	r->complete_ns = s->now_ns + (r->service_ns ? r->service_ns :
			 s->dev.base_ns + (uint64_t)r->nr_sectors * s->dev.per_sector_ns +
			 (uint64_t)((double)dist * s->dev.per_seek_sector_ns));
	s->head_sector = r->sector + r->nr_sectors;
	s->in_service++;
	heap_push(s, x);
}

/* REQ_OP_FLUSH goes around the scheduler (blk_mq_insert_request(): hctx->dispatch, at its head) */
static int bypasses_sched(const struct blk_rq *r) { return r->op == FSLAB_BLK_FLUSH; }

/* blk_mq_run_hw_queue(): dispatch while the scheduler has a request and a driver tag is free */
static void run_queue(struct blk_sim *s)
{
	while (s->tags_used < s->dev.queue_depth) {
		uint32_t x;

		if (s->dispatch_head != BLK_NIL) {
			/* blk_mq_sched_dispatch_requests(): hctx->dispatch before the scheduler */
			x = s->dispatch_head;
			s->dispatch_head = s->rq[x].fifo_next;
		} else if (s->sched == BLK_SCHED_NONE) {
			x = s->none_head;
			if (x == BLK_NIL)
				break;
			s->none_head = s->rq[x].fifo_next;
			if (s->none_head == BLK_NIL)
				s->none_tail = BLK_NIL;
		} else if (s->sched == BLK_SCHED_KYBER) {
			/* no token in any domain with requests: a completion reruns the queue */
			if (!kyber_has_work(s))
				break;
			x = kyber_dispatch_request(s);
			if (x == BLK_NIL)
				break;
		} else if (s->sched == BLK_SCHED_BFQ) {
			/* nothing queued, or idling for the in-service queue: its arrival or timer reruns it */
			x = bfq_dispatch_request(s);
			if (x == BLK_NIL)
				break;
		} else {
			if (!dd_has_work(s))
				break;
			x = dd_dispatch_request(s, jiffies(s));
			if (x == BLK_NIL)
				break;
		}
		s->tags_used++;
		s->rq[x].dispatch_ns = s->now_ns;
		s->order[s->norder++] = x;
		if (s->in_service < s->dev.channels)
			device_start(s, x);
		else
			s->devq[(s->devq_head + s->devq_len++) % s->cap] = x;
	}
}

/* into the scheduler (or none's FIFO, or hctx->dispatch for a flush) */
static void insert(struct blk_sim *s, uint32_t x)
{
	if (bypasses_sched(&s->rq[x])) {
		s->rq[x].fifo_next = s->dispatch_head;
		s->dispatch_head = x;
	} else if (s->sched == BLK_SCHED_NONE) {
		if (s->none_tail == BLK_NIL)
			s->none_head = x;
		else
			s->rq[s->none_tail].fifo_next = x;
		s->none_tail = x;
	} else if (s->sched == BLK_SCHED_KYBER) {
		kyber_insert_request(s, x);
	} else if (s->sched == BLK_SCHED_BFQ) {
		bfq_insert_request(s, x);
	} else {
		dd_insert_request(s, x, jiffies(s));
	}
}

/* a job submits its next request: blk_mq_submit_bio() -> insert -> run the queue */
static void submit(struct blk_sim *s, uint32_t j)
{
	const struct blk_job *job = &s->jobs[j];
	uint32_t x = s->nrq++;
	struct blk_rq *r = &s->rq[x];
	uint64_t slots;

	memset(r, 0, sizeof(*r));
	r->job = j;
	r->nr_sectors = job->bs_sectors;
	r->op = (job->write_pct >= 100 || (job->write_pct && rng_next(&s->job_rng[j]) % 100 < job->write_pct))
		? FSLAB_BLK_WRITE : FSLAB_BLK_READ;
	r->prio = dd_prio_of_class(job->ioprio_class);
	slots = job->span / job->bs_sectors;
	if (job->random && slots) {
		r->sector = job->offset + rng_next(&s->job_rng[j]) % slots * job->bs_sectors;
	} else {
		r->sector = s->job_next_sector[j];
		s->job_next_sector[j] += job->bs_sectors;
		if (slots && s->job_next_sector[j] + job->bs_sectors > job->offset + job->span)
			s->job_next_sector[j] = job->offset;
	}
	r->insert_ns = s->now_ns;
	r->fifo_next = r->fifo_prev = BLK_NIL;
	r->token = BLK_NIL;
	s->job_issued[j]++;
	insert(s, x);
	run_queue(s);
}

/* a trace job's next request arrives: it is inserted; the caller decides when the queue runs */
static void arrive(struct blk_sim *s)
{
	const struct blk_trace_rq *t = &s->trace[s->trace_next++];
	uint32_t x = s->nrq++;
	struct blk_rq *r = &s->rq[x];

	memset(r, 0, sizeof(*r));
	r->op = t->op;
	r->prio = dd_prio_of_class(t->ioprio_class);
	r->sector = t->sector;
	r->nr_sectors = t->nr_sectors;
	r->service_ns = t->service_ns;
	r->insert_ns = s->now_ns;
	r->fifo_next = r->fifo_prev = BLK_NIL;
	r->token = BLK_NIL;
	insert(s, x);
}

/* the request that finishes first completes: its tag is freed, a waiting one takes the channel */
static uint32_t complete_next(struct blk_sim *s)
{
	uint32_t x = heap_pop(s);
	struct blk_rq *r = &s->rq[x];

	s->now_ns = r->complete_ns;
	s->in_service--;
	s->completed++;
	if (bypasses_sched(r)) {
		/* never the scheduler's: nothing to finish */
	} else if (s->sched == BLK_SCHED_MQ_DEADLINE) {
		dd_finish_request(s, x);
	} else if (s->sched == BLK_SCHED_KYBER) {
		/* __blk_mq_end_request(): completed_request (the samples), then finish_request (the token) */
		kyber_completed_request(s, x);
		kyber_finish_request(s, x);
	} else if (s->sched == BLK_SCHED_BFQ) {
		bfq_completed_request(s, x);
	}
	s->tags_used--;
	if (s->devq_len) {
		uint32_t next = s->devq[s->devq_head];
		s->devq_head = (s->devq_head + 1) % s->cap;
		s->devq_len--;
		device_start(s, next);
	}
	return x;
}

/*
 * A trace job's step: the next arrival or the next completion, whichever comes first (the
 * arrival on a tie: its insert, then the completion's run sees it, as a closed-loop job's
 * next request is in before the queue runs). An arrival runs the queue unless plugged.
 */
static int trace_step(struct blk_sim *s)
{
	int more = s->trace_next < s->ntrace;
	uint64_t at = more ? s->trace[s->trace_next].arrival_ns : 0;
	int done_first = s->heap_len && (!more || s->rq[s->heap[0]].complete_ns < at);

	if (s->sched == BLK_SCHED_BFQ) {
		/* bfq's idle slice timer, if it fires before the next completion and arrival (not on a tie) */
		uint64_t next = done_first ? s->rq[s->heap[0]].complete_ns : more ? at : ~0ull;
		if (next && bfq_timer_due(s, next - 1)) {
			run_queue(s);
			return 1;
		}
	}
	if (!s->heap_len && !more)
		return 0;
	if (s->sched == BLK_SCHED_KYBER)
		kyber_timer_due(s, done_first ? s->rq[s->heap[0]].complete_ns : at);
	if (done_first) {
		complete_next(s);
		run_queue(s);
		return 1;
	}
	s->now_ns = at;
	arrive(s);
	if (!s->trace[s->trace_next - 1].plugged || s->trace_next == s->ntrace)
		run_queue(s);
	return 1;
}

/*
 * One step of the simulation: the first starts every job with its iodepth requests (fio
 * starts them one job after the other); each later one completes the request that finishes
 * first, which frees a tag, lets its job submit the next, and runs the queue (under kyber,
 * its timer first if it falls due by then, at its own time). Returns 1 after a step, 0 when
 * every job's ios have completed, -errno if a record (kyber's timer runs) could not be kept.
 */
int blk_sim_step(struct blk_sim *s)
{
	uint32_t j, d;

	if (s->oom)
		return -FSLAB_ENOSPC;
	if (s->trace)
		return trace_step(s);
	if (!s->started) {
		s->started = 1;
		for (j = 0; j < s->njobs; j++)
			for (d = 0; d < s->jobs[j].iodepth && s->job_issued[j] < s->jobs[j].ios; d++)
				submit(s, j);
		return 1;
	}
	if (s->sched == BLK_SCHED_BFQ &&
	    bfq_timer_due(s, s->heap_len ? s->rq[s->heap[0]].complete_ns - 1 : ~0ull)) {
		/* bfq's idle slice timer fired before the next completion (not on a tie): the queue runs */
		run_queue(s);
		return 1;
	}
	if (!s->heap_len)
		return 0;
	if (s->sched == BLK_SCHED_KYBER)
		kyber_timer_due(s, s->rq[s->heap[0]].complete_ns);

	const struct blk_rq *r = &s->rq[complete_next(s)];

	s->job_done[r->job]++;
	if (s->job_issued[r->job] < s->jobs[r->job].ios)
		submit(s, r->job);
	else
		run_queue(s);
	return 1;
}

int blk_sim_run(struct blk_sim *s)
{
	int ret;

	while ((ret = blk_sim_step(s)) > 0)
		;
	return ret;
}
