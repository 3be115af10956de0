/* SPDX-License-Identifier: MIT */
/*
 * The f2fs core's wasm surface (web/src/cores/f2fs-core.ts):
 *   costs[9]  vfs_ns unlink_ns check_ns bitmap_scan_ns heuristic_pct nat_scan_ns remote_ns
 *             cores_per_socket low_pct
 *   out[16]   seconds unlinks_per_sec unlinks bitmap_scans nat_scans scans_skipped nat_deferred
 *             wait_ns[dir build bitmap list] acquired[dir build bitmap list] _
 */
#include "fslab/f2fs.h"

int fx_f2fs_fxmark(uint32_t workload, uint32_t clue, uint32_t cores, uint32_t unlinks, const uint32_t *costs,
		   uint32_t seed, double *out)
{
	struct f2fs_unlink_costs c = { costs[0], costs[1], costs[2], costs[3], costs[4], costs[5], costs[6], costs[7], costs[8] };
	struct f2fs_fxmark_result r;
	int ret = f2fs_fxmark_unlink(workload ? FXMARK_MWUM : FXMARK_MWUL, clue, cores, unlinks, &c, seed, &r);
	int k;

	out[0] = r.seconds;
	out[1] = r.unlinks_per_sec;
	out[2] = (double)r.unlinks;
	out[3] = (double)r.bitmap_scans;
	out[4] = (double)r.nat_scans;
	out[5] = (double)r.scans_skipped;
	out[6] = (double)r.nat_deferred;
	for (k = 0; k < LOCK_COUNT; k++) {
		out[7 + k] = r.wait_ns[k];
		out[11 + k] = (double)r.acquired[k];
	}
	return ret;
}
