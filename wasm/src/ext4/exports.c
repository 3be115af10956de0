/* SPDX-License-Identifier: MIT */
/* The ext4 core's wasm surface (web/src/topics/ext4/ext4-core.ts). out[7]: allocations,
 * bitmap_updates, csum_bytes, clusters, bitmap_bytes, last_csum, zero_bytes. */
#include "fslab/ext4.h"

int fx_ext4_write_file(uint32_t block_size, uint32_t cluster_size, int direct, double bytes, uint32_t bs,
		       uint32_t extent_max, double *out)
{
	struct ext4_layout l = { block_size, cluster_size };
	struct ext4_write_result r;
	int ret = ext4_write_file(&l, direct ? EXT4_DIRECT : EXT4_BUFFERED, (uint64_t)bytes, bs, extent_max, &r);

	out[0] = (double)r.allocations;
	out[1] = (double)r.bitmap_updates;
	out[2] = (double)r.csum_bytes;
	out[3] = (double)r.clusters;
	out[4] = r.bitmap_bytes;
	out[5] = r.last_csum;
	out[6] = (double)r.zero_bytes;
	return ret;
}

/* The folios of a buffered write (folio.c): their count, the first cap orders in orders[]. */
int fx_ext4_write_folios(double pos, uint32_t len, uint32_t max_order, uint32_t *orders, int cap)
{
	return ext4_write_folios((uint64_t)pos, len, max_order, orders, cap);
}
