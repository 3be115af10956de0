/* SPDX-License-Identifier: MIT */
/*
 * The blk core's wasm surface (web/src/topics/blk/blk-core.ts). Parameters arrive as flat u32
 * arrays so the TypeScript side needs no struct layout:
 *   sched    0 none, 1 mq-deadline, 2 kyber, 3 bfq
 *   tun[7]   mq-deadline: read_expire_ms write_expire_ms prio_aging_expire_ms writes_starved fifo_batch
 *            kyber: read_lat_nsec write_lat_nsec (read only for kyber: five words do for the others)
 *   dev[7]   queue_depth channels base_ns per_sector_ns seek_max_sectors per_seek_sector_ns(x1000) capacity
 *   jobs[9n] iodepth bs_sectors ios random write_pct ioprio_class offset span (sectors) _
 * or, for a recorded trace (fx_blk_new_trace), one array per field, n requests in arrival order:
 *   arrival_ns[n], sector[n], service_ns[n] (0: the device model's) as doubles (whole numbers,
 *   exact below 2^53); sectors[n], op[n] (FSLAB_BLK_*), ioprio_class[n], plugged[n] as u32
 * Results come back as rows of doubles, one per request in submission order.
 */
#include <stdlib.h>
#include "fslab/blk.h"


static struct dd_tunables tunables_of(const uint32_t *tun) { return (struct dd_tunables){ tun[0], tun[1], tun[2], tun[3], tun[4] }; }

static struct blk_device device_of(const uint32_t *dev)
{
	return (struct blk_device){ dev[0], dev[1], dev[2], dev[3], dev[4], dev[5] / 1000.0, dev[6] };
}

/* kyber's sysfs store writes the targets straight into kqd->latency_targets too */
static struct blk_sim *kyber_targets(struct blk_sim *s, const uint32_t *tun)
{
	if (s && s->sched == BLK_SCHED_KYBER) {
		s->kqd.latency_targets[KYBER_READ] = tun[5];
		s->kqd.latency_targets[KYBER_WRITE] = tun[6];
	}
	return s;
}

struct blk_sim *fx_blk_new(uint32_t sched, const uint32_t *tun, const uint32_t *dev, const uint32_t *jobs,
			   uint32_t njobs, uint32_t hz, uint32_t seed)
{
	struct dd_tunables t = tunables_of(tun);
	struct blk_device d = device_of(dev);
	struct blk_job *j = calloc(njobs ? njobs : 1, sizeof(*j));
	struct blk_sim *s;
	uint32_t i;

	if (!j)
		return NULL;
	for (i = 0; i < njobs; i++) {
		const uint32_t *p = jobs + 9 * i;
		j[i] = (struct blk_job){ p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7] };
	}
	s = blk_sim_new((enum blk_sched)sched, &t, &d, j, njobs, hz, seed);
	free(j);
	return kyber_targets(s, tun);
}

/* negative, NaN or past 2^64: refused rather than wrapped */
static int in_u64(double x) { return x >= 0 && x < 18446744073709551616.0; }

struct blk_sim *fx_blk_new_trace(uint32_t sched, const uint32_t *tun, const uint32_t *dev, const double *arrival_ns,
				 const double *sector, const double *service_ns, const uint32_t *sectors, const uint32_t *op,
				 const uint32_t *ioprio_class, const uint32_t *plugged, uint32_t n, uint32_t hz, uint32_t seed)
{
	struct dd_tunables t = tunables_of(tun);
	struct blk_device d = device_of(dev);
	struct blk_trace_rq *rq = calloc(n ? n : 1, sizeof(*rq));
	struct blk_sim *s;
	uint32_t i;

	if (!rq)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!in_u64(arrival_ns[i]) || !in_u64(sector[i]) || !in_u64(service_ns[i])) {
			free(rq);
			return NULL;
		}
		rq[i] = (struct blk_trace_rq){ (uint64_t)arrival_ns[i], (uint64_t)sector[i], sectors[i], op[i], ioprio_class[i],
					       plugged[i], (uint64_t)service_ns[i] };
	}
	s = blk_sim_new_trace((enum blk_sched)sched, &t, &d, rq, n, hz, seed);
	free(rq);
	return kyber_targets(s, tun);
}

void fx_blk_free(struct blk_sim *s) { blk_sim_free(s); }
int fx_blk_run(struct blk_sim *s) { return blk_sim_run(s); }
uint32_t fx_blk_count(const struct blk_sim *s) { return s->nrq; }
const uint32_t *fx_blk_order(const struct blk_sim *s) { return s->order; }

#define BLK_ROW 8 /* job op prio sector sectors insert_us dispatch_us complete_us */
/* a fresh array of BLK_ROW doubles per request (caller frees with fx_free) */
double *fx_blk_rows(const struct blk_sim *s)
{
	double *out = malloc(sizeof(double) * BLK_ROW * (s->nrq ? s->nrq : 1));
	uint32_t i;

	for (i = 0; out && i < s->nrq; i++) {
		const struct blk_rq *r = &s->rq[i];
		double *o = out + (size_t)BLK_ROW * i;
		o[0] = r->job;
		o[1] = r->op;
		o[2] = r->prio;
		o[3] = (double)r->sector;
		o[4] = r->nr_sectors;
		o[5] = r->insert_ns / 1000.0;
		o[6] = r->dispatch_ns / 1000.0;
		o[7] = r->complete_ns / 1000.0;
	}
	return out;
}

int fx_blk_step(struct blk_sim *s) { return blk_sim_step(s); }

/* The queues as they stand, for the step-through view, as u32 words:
 *   now_us jiffies batching starved last_dir tags_used in_service fifo_batch writes_starved
 *   fifo_expire[READ] fifo_expire[WRITE]
 *   per prio (RT, BE, IDLE), per dir (READ, WRITE):
 *     n, n x (rq, fifo_time)   the FIFO list, oldest first, each with its deadline in jiffies
 *     n, n x rq                the sort list, by sector
 *   n, n x rq                  dispatched and not completed (waiting for a channel, then in service)
 *   n, n x rq                  "none": waiting for a tag, in order
 *   because pick               why the last dispatch chose its direction and request (DD_BECAUSE_*, DD_PICK_*)
 * Writes at most cap words; returns the number the whole state needs. */
struct words {
	uint32_t *out, cap, n;
};

static void put(struct words *w, uint32_t v)
{
	if (w->n < w->cap)
		w->out[w->n] = v;
	w->n++;
}

static uint32_t count_tree(const struct blk_sim *s, uint32_t x)
{
	return x == BLK_NIL ? 0 : 1 + count_tree(s, s->rq[x].left) + count_tree(s, s->rq[x].right);
}

static void put_tree(struct words *w, const struct blk_sim *s, uint32_t x)
{
	if (x == BLK_NIL)
		return;
	put_tree(w, s, s->rq[x].left);
	put(w, x);
	put_tree(w, s, s->rq[x].right);
}

uint32_t fx_blk_state(const struct blk_sim *s, uint32_t *out, uint32_t cap)
{
	struct words w = { out, cap, 0 };
	const struct deadline_data *dd = &s->dd;
	uint32_t p, d, x, n, i;

	put(&w, (uint32_t)(s->now_ns / 1000));
	put(&w, (uint32_t)(s->now_ns * s->hz / 1000000000ull));
	put(&w, dd->batching);
	put(&w, dd->starved);
	put(&w, dd->last_dir);
	put(&w, s->tags_used);
	put(&w, s->in_service);
	put(&w, dd->fifo_batch);
	put(&w, dd->writes_starved);
	put(&w, (uint32_t)dd->fifo_expire[DD_READ]);
	put(&w, (uint32_t)dd->fifo_expire[DD_WRITE]);
	for (p = 0; p < DD_PRIO_COUNT; p++)
		for (d = 0; d < DD_DIR_COUNT; d++) {
			const struct dd_per_prio *pp = &dd->per_prio[p];
			for (n = 0, x = pp->fifo_head[d]; x != BLK_NIL; x = s->rq[x].fifo_next)
				n++;
			put(&w, s->sched == BLK_SCHED_NONE ? 0 : n);
			for (x = pp->fifo_head[d]; s->sched != BLK_SCHED_NONE && x != BLK_NIL; x = s->rq[x].fifo_next) {
				put(&w, x);
				put(&w, (uint32_t)s->rq[x].fifo_time);
			}
			put(&w, s->sched == BLK_SCHED_NONE ? 0 : count_tree(s, pp->sort_root[d]));
			if (s->sched != BLK_SCHED_NONE)
				put_tree(&w, s, pp->sort_root[d]);
		}
	put(&w, s->devq_len + s->heap_len);
	for (i = 0; i < s->devq_len; i++)
		put(&w, s->devq[(s->devq_head + i) % s->cap]);
	for (i = 0; i < s->heap_len; i++)
		put(&w, s->heap[i]);
	for (n = 0, x = s->none_head; s->sched == BLK_SCHED_NONE && x != BLK_NIL; x = s->rq[x].fifo_next)
		n++;
	put(&w, n);
	for (x = s->none_head; s->sched == BLK_SCHED_NONE && x != BLK_NIL; x = s->rq[x].fifo_next)
		put(&w, x);
	put(&w, dd->because); /* of the last dispatch */
	put(&w, dd->pick);
	return w.n;
}

/* dd_replay() with the tunables as tun[] above; start 0: a scheduler just switched on */
int fx_dd_replay(const uint32_t *tun, uint32_t hz, const uint32_t *start, const uint32_t *rq, uint32_t nrq,
		 const uint32_t *ev, uint32_t n, uint32_t *out)
{
	struct dd_tunables t = tunables_of(tun);

	return dd_replay(&t, hz, start, rq, nrq, ev, n, out);
}

/* kyber as it stands, for a step-through view, as u32 words:
 *   now_us jiffies cur_domain batching tags_used in_service timer_pending timer_expires timer_runs
 *   timer_tick (jiffies: timer->expires, and the tick the timer wheel runs it at)
 *   per domain (READ WRITE DISCARD OTHER):
 *     depth busy held batch_size max_depth throttled
 *     n, n x rq   the ctx queue's list (kcq->rq_list), oldest first
 *     n, n x rq   the hctx's list (khd->rqs), flushed from it, oldest first
 *   per domain with a latency target (READ WRITE DISCARD):
 *     target_us domain_p99 latency_timeout
 *     16 buckets not yet flushed (the CPU's): total[8] io[8]
 *     16 buckets flushed into the current window: total[8] io[8]
 *   n, n x (rq, token)   dispatched and not completed
 * (busy: tokens held below the depth, as debugfs shows; held: all, a shrink leaves some above;
 * domain_p99 is -1 as 0xffffffff.) Writes at most cap words; returns the number needed. */
uint32_t fx_blk_kyber_state(const struct blk_sim *s, uint32_t *out, uint32_t cap)
{
	struct words w = { out, cap, 0 };
	const struct kyber_queue_data *kqd = &s->kqd;
	const struct kyber_hctx_data *khd = &s->khd;
	uint32_t d, t, b, x, n, i;

	put(&w, (uint32_t)(s->now_ns / 1000));
	put(&w, (uint32_t)(s->now_ns * s->hz / 1000000000ull));
	put(&w, khd->cur_domain);
	put(&w, khd->batching);
	put(&w, s->tags_used);
	put(&w, s->in_service);
	put(&w, (uint32_t)kqd->timer_pending);
	put(&w, (uint32_t)kqd->timer_expires);
	put(&w, kqd->trace_len);
	put(&w, (uint32_t)kqd->timer_tick);
	for (d = 0; d < KYBER_NUM_DOMAINS; d++) {
		const uint32_t heads[2] = { khd->kcq_head[d], khd->rqs_head[d] };
		put(&w, kqd->domain_tokens[d].depth);
		put(&w, sbitmap_weight(&kqd->domain_tokens[d]));
		put(&w, sbitmap_held(&kqd->domain_tokens[d]));
		put(&w, kyber_batch_size[d]);
		put(&w, kyber_depth[d]);
		put(&w, kqd->throttled[d]);
		for (i = 0; i < 2; i++) {
			for (n = 0, x = heads[i]; s->sched == BLK_SCHED_KYBER && x != BLK_NIL; x = s->rq[x].fifo_next)
				n++;
			put(&w, n);
			for (x = heads[i]; s->sched == BLK_SCHED_KYBER && x != BLK_NIL; x = s->rq[x].fifo_next)
				put(&w, x);
		}
	}
	for (d = 0; d < KYBER_OTHER; d++) {
		put(&w, (uint32_t)(kqd->latency_targets[d] / 1000));
		put(&w, (uint32_t)kqd->domain_p99[d]);
		put(&w, (uint32_t)kqd->latency_timeout[d]);
		for (t = 0; t < 2; t++)
			for (b = 0; b < KYBER_LATENCY_BUCKETS; b++)
				put(&w, kqd->cpu_latency[d][t][b]);
		for (t = 0; t < 2; t++)
			for (b = 0; b < KYBER_LATENCY_BUCKETS; b++)
				put(&w, kqd->latency_buckets[d][t][b]);
	}
	put(&w, s->devq_len + s->heap_len);
	for (i = 0; i < s->devq_len; i++) {
		x = s->devq[(s->devq_head + i) % s->cap];
		put(&w, x);
		put(&w, s->rq[x].token);
	}
	for (i = 0; i < s->heap_len; i++) {
		put(&w, s->heap[i]);
		put(&w, s->rq[s->heap[i]].token);
	}
	return w.n;
}

/* Every run of kyber's timer so far, KYBER_TRACE_WORDS u32 each:
 *   ns_lo ns_hi bad p90[READ WRITE DISCARD] p99[READ WRITE DISCARD] depth[READ WRITE DISCARD OTHER]
 * (p90/p99: the bucket calculate_percentile() gave, -1 as 0xffffffff when too few samples;
 * depth: after the run.) Writes at most cap words; returns the number needed. */
#define KYBER_TRACE_WORDS 13
uint32_t fx_blk_kyber_trace(const struct blk_sim *s, uint32_t *out, uint32_t cap)
{
	struct words w = { out, cap, 0 };
	uint32_t i, d;

	for (i = 0; i < s->kqd.trace_len; i++) {
		const struct kyber_timer_record *r = &s->kqd.trace[i];
		put(&w, (uint32_t)r->ns);
		put(&w, (uint32_t)(r->ns >> 32));
		put(&w, r->bad);
		for (d = 0; d < KYBER_OTHER; d++)
			put(&w, (uint32_t)r->p90[d]);
		for (d = 0; d < KYBER_OTHER; d++)
			put(&w, (uint32_t)r->p99[d]);
		for (d = 0; d < KYBER_NUM_DOMAINS; d++)
			put(&w, r->depth[d]);
	}
	return w.n;
}
