/* SPDX-License-Identifier: MIT */
/*
 * The blk core's wasm surface (web/src/cores/blk-core.ts). Parameters arrive as flat u32
 * arrays so the TypeScript side needs no struct layout:
 *   tun[5]   read_expire_ms write_expire_ms prio_aging_expire_ms writes_starved fifo_batch
 *   dev[7]   queue_depth channels base_ns per_sector_ns seek_max_sectors per_seek_sector_ns(x1000) capacity
 *   jobs[9n] iodepth bs_sectors ios random write_pct ioprio_class offset span (sectors) _
 * Results come back as rows of doubles, one per request in submission order.
 */
#include <stdlib.h>
#include "fslab/blk.h"


struct blk_sim *fx_blk_new(uint32_t sched, const uint32_t *tun, const uint32_t *dev, const uint32_t *jobs,
			   uint32_t njobs, uint32_t hz, uint32_t seed)
{
	struct dd_tunables t = { tun[0], tun[1], tun[2], tun[3], tun[4] };
	struct blk_device d = { dev[0], dev[1], dev[2], dev[3], dev[4], dev[5] / 1000.0, dev[6] };
	struct blk_job *j = calloc(njobs ? njobs : 1, sizeof(*j));
	struct blk_sim *s;
	uint32_t i;

	if (!j)
		return NULL;
	for (i = 0; i < njobs; i++) {
		const uint32_t *p = jobs + 9 * i;
		j[i] = (struct blk_job){ p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7] };
	}
	s = blk_sim_new(sched ? BLK_SCHED_MQ_DEADLINE : BLK_SCHED_NONE, &t, &d, j, njobs, hz, seed);
	free(j);
	return s;
}

void fx_blk_free(struct blk_sim *s) { blk_sim_free(s); }
int fx_blk_run(struct blk_sim *s) { return blk_sim_run(s); }
uint32_t fx_blk_count(const struct blk_sim *s) { return s->nrq; }
const uint32_t *fx_blk_order(const struct blk_sim *s) { return s->order; }
const struct fslab_event *fx_blk_events_ptr(const struct blk_sim *s) { return s->events.ev; }
int fx_blk_events_len(const struct blk_sim *s) { return s->events.oom ? -1 : (int)s->events.len; }

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
