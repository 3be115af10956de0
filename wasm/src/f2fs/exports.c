/* SPDX-License-Identifier: MIT */
/*
 * The f2fs core's wasm surface (web/src/topics/f2fs/fxmark.ts and nid.ts):
 *   costs[9]  vfs_ns unlink_ns check_ns bitmap_scan_ns heuristic_pct nat_scan_ns remote_ns
 *             cores_per_socket low_pct
 *   out[16]   seconds unlinks_per_sec unlinks bitmap_scans nat_scans scans_skipped nat_deferred
 *             wait_ns[dir build bitmap list] acquired[dir build bitmap list] _
 *   the same run traced: win[4] from_ns until_ns (<= 0: the whole run) every max_spans, and
 *   words[]  traced dropped_lo dropped_hi, then per traced core: core n done_lo done_hi and
 *             n spans of lock|kind<<8|depth<<16 from_lo from_hi to_lo to_hi (ns, 64-bit)
 * and the free-NID model (fslab/f2fs_nid.h) over a struct f2fs_nm_info pointer:
 *   stats[17] nat_blocks max_nid clue free prealloc available_nids next_scan_nid
 *             next_bitmap_blk nat_scan_deferred valid_node_count dirty_nat
 *             bitmap_scans nat_scans scans_skipped nat_deferred nids_scanned walks_avoided
 *   per NAT block, read in place: loaded (u8), free_nid_count (u16), free_nid_bitmap
 *             (F2FS_NID_BITMAP_BYTES each)
 */
#include "fslab/errno.h"
#include "fslab/f2fs.h"
#include "fslab/f2fs_nid.h"

static void put_result(const struct f2fs_fxmark_result *r, double *out)
{
	int k;

	out[0] = r->seconds;
	out[1] = r->unlinks_per_sec;
	out[2] = (double)r->unlinks;
	out[3] = (double)r->bitmap_scans;
	out[4] = (double)r->nat_scans;
	out[5] = (double)r->scans_skipped;
	out[6] = (double)r->nat_deferred;
	for (k = 0; k < LOCK_COUNT; k++) {
		out[7 + k] = r->wait_ns[k];
		out[11 + k] = (double)r->acquired[k];
	}
}

#define COSTS(p) { p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8] }

int fx_f2fs_fxmark(uint32_t workload, uint32_t clue, uint32_t cores, uint32_t unlinks, const uint32_t *costs,
		   uint32_t seed, double *out)
{
	struct f2fs_unlink_costs c = COSTS(costs);
	struct f2fs_fxmark_result r;
	int ret = f2fs_fxmark_unlink(workload ? FXMARK_MWUM : FXMARK_MWUL, clue, cores, unlinks, &c, seed, &r);

	put_result(&r, out);
	return ret;
}

/* the words written, or -errno (-FSLAB_ENOSPC: cap below 3 + traced * (4 + 5 * max_spans)) */
int fx_f2fs_fxmark_trace(uint32_t workload, uint32_t clue, uint32_t cores, uint32_t unlinks, const uint32_t *costs,
			 uint32_t seed, const double *win, double *out, uint32_t *words, uint32_t cap)
{
	struct f2fs_unlink_costs c = COSTS(costs);
	struct f2fs_fxmark_result r;
	struct f2fs_fxmark_trace t = {
		.from_ns = win[0] >= 1.8e19 ? UINT64_MAX : win[0] > 0 ? (uint64_t)win[0] : 0,
		.until_ns = win[1] > 0 && win[1] < 1.8e19 ? (uint64_t)win[1] : UINT64_MAX,
		.every = win[2] >= 1 && win[2] <= 4096 ? (uint32_t)win[2] : 0,
		.max_spans = win[3] >= 1 && win[3] <= F2FS_TRACE_MAX_SPANS ? (uint32_t)win[3] : 0,
	};
	int ret = f2fs_fxmark_unlink_traced(workload ? FXMARK_MWUM : FXMARK_MWUL, clue, cores, unlinks, &c, seed, &r, &t);
	uint32_t n = 0, i, j;

	put_result(&r, out);
	if (ret < 0)
		return ret;
	if (3 + (uint64_t)t.traced * (4 + 5ull * t.max_spans) > cap) {
		f2fs_fxmark_trace_free(&t);
		return -FSLAB_ENOSPC;
	}
	words[n++] = t.traced;
	words[n++] = (uint32_t)t.dropped;
	words[n++] = (uint32_t)(t.dropped >> 32);
	for (i = 0; i < t.traced; i++) {
		words[n++] = i * t.every;
		words[n++] = t.len[i];
		words[n++] = (uint32_t)t.done_ns[i];
		words[n++] = (uint32_t)(t.done_ns[i] >> 32);
		for (j = 0; j < t.len[i]; j++) {
			const struct f2fs_lock_span *sp = &t.spans[(size_t)i * t.max_spans + j];
			words[n++] = sp->lock | (uint32_t)sp->kind << 8 | (uint32_t)sp->depth << 16;
			words[n++] = (uint32_t)sp->from;
			words[n++] = (uint32_t)(sp->from >> 32);
			words[n++] = (uint32_t)sp->to;
			words[n++] = (uint32_t)(sp->to >> 32);
		}
	}
	f2fs_fxmark_trace_free(&t);
	return (int)n;
}

struct f2fs_nm_info *fx_f2fs_nid_new(uint32_t nat_blocks, uint32_t clue, uint32_t avail_ram)
{
	return f2fs_nm_new(nat_blocks, clue, avail_ram);
}

void fx_f2fs_nid_free(struct f2fs_nm_info *nm) { f2fs_nm_free(nm); }
int fx_f2fs_nid_set_clue(struct f2fs_nm_info *nm, uint32_t clue) { return f2fs_nm_set_clue(nm, clue); }
void fx_f2fs_nid_reset_counters(struct f2fs_nm_info *nm) { f2fs_nm_reset_counters(nm); }

/* the NID (>= 4), or -errno */
int fx_f2fs_nid_alloc(struct f2fs_nm_info *nm)
{
	uint32_t nid;
	int err = f2fs_nm_alloc(nm, &nid);

	return err ? err : (int)nid;
}

int fx_f2fs_nid_alloc_failed(struct f2fs_nm_info *nm)
{
	uint32_t nid;
	int err = f2fs_nm_alloc_failed(nm, &nid);

	return err ? err : (int)nid;
}

int fx_f2fs_nid_unlink(struct f2fs_nm_info *nm, uint32_t nid) { return f2fs_nm_unlink(nm, nid); }
void fx_f2fs_nid_background(struct f2fs_nm_info *nm) { f2fs_nm_balance_fs_bg(nm); }
void fx_f2fs_nid_checkpoint(struct f2fs_nm_info *nm) { f2fs_nm_checkpoint(nm); }
uint32_t fx_f2fs_nid_shrink(struct f2fs_nm_info *nm, uint32_t nr) { return f2fs_nm_try_to_free_nids(nm, nr); }

int fx_f2fs_nid_run(struct f2fs_nm_info *nm, const uint32_t *ops, uint32_t n, uint32_t *done)
{
	return f2fs_nm_run(nm, ops, n, done);
}

void fx_f2fs_nid_stats(const struct f2fs_nm_info *nm, uint32_t *out)
{
	const uint32_t v[17] = { nm->nat_blocks, nm->max_nid, nm->clue, nm->nid_cnt[FREE_NID],
				 nm->nid_cnt[PREALLOC_NID], nm->available_nids, nm->next_scan_nid,
				 nm->next_bitmap_blk, (uint32_t)nm->nat_scan_deferred, nm->valid_node_count,
				 nm->dirty_cnt, nm->c.bitmap_scans, nm->c.nat_scans, nm->c.scans_skipped,
				 nm->c.nat_deferred, nm->c.nids_scanned, nm->c.walks_avoided };
	int k;

	for (k = 0; k < 17; k++)
		out[k] = v[k];
}

const struct fslab_event *fx_f2fs_nid_events_ptr(const struct f2fs_nm_info *nm) { return nm->events.ev; }
/* number of records; -1 if the stream lost records to an allocation failure */
int fx_f2fs_nid_events_len(const struct f2fs_nm_info *nm) { return nm->events.oom ? -1 : (int)nm->events.len; }
void fx_f2fs_nid_events_clear(struct f2fs_nm_info *nm) { fslab_events_clear(&nm->events); }

const uint8_t *fx_f2fs_nid_loaded_ptr(const struct f2fs_nm_info *nm) { return nm->nat_block_bitmap; }
const uint16_t *fx_f2fs_nid_free_count_ptr(const struct f2fs_nm_info *nm) { return nm->free_nid_count; }
const uint8_t *fx_f2fs_nid_bitmap_ptr(const struct f2fs_nm_info *nm) { return nm->free_nid_bitmap; }

uint32_t fx_f2fs_nid_free_list(const struct f2fs_nm_info *nm, uint32_t *out, uint32_t max)
{
	return f2fs_nm_free_list(nm, out, max);
}

void fx_f2fs_nid_block_counts(const struct f2fs_nm_info *nm, uint32_t *out) { f2fs_nm_block_counts(nm, out); }
