/* SPDX-License-Identifier: MIT */
/*
 * The ext4 allocation model of fslab/ext4.h. Groups hold 8 x block_size clusters (the bitmap
 * is one block, as mke2fs makes it); allocation is goal-directed and contiguous, as mballoc
 * gives a lone writer; every changed bitmap is checksummed whole (ext4_block_bitmap_csum_set)
 * and so is the group's descriptor (ext4_group_desc_csum_set, 64 bytes).
 */
#include <stdlib.h>
#include <string.h>
#include "fslab/crc32c.h"
#include "fslab/errno.h"
#include "fslab/ext4.h"

#define DESC_SIZE 64

static void set_bits(uint8_t *map, uint32_t from, uint32_t n)
{
	for (uint32_t i = from; i < from + n; i++)
		map[i >> 3] |= (uint8_t)(1u << (i & 7));
}

int ext4_write_file(const struct ext4_layout *l, enum ext4_write_mode mode, uint64_t bytes, uint32_t bs,
		    uint32_t extent_max, struct ext4_write_result *out)
{
	uint32_t B = l->block_size, C = l->cluster_size;
	uint8_t desc[DESC_SIZE] = { 0 };

	memset(out, 0, sizeof(*out));
	if (B < 1024 || B > 65536 || (B & (B - 1)) || C < B || (C & (C - 1)) || C / B > 65536 || !bs || !extent_max)
		return -FSLAB_EINVAL;
	uint32_t per_group = 8 * B; /* clusters per group: one bitmap block of bits */
	uint8_t *bitmap = calloc(B, 1);
	if (!bitmap)
		return -FSLAB_ENOSPC;
	out->bitmap_bytes = B;

	uint64_t allocated = 0; /* bytes of the file that have clusters */
	uint64_t mapped = 0;    /* bytes of the file whose blocks a write has mapped (iomap: not new) */
	uint64_t pos = 0, group = 0, goal = 0;
	uint64_t step = mode == EXT4_DIRECT ? bs : extent_max;
	while (pos < bytes) {
		uint64_t end = pos + step < bytes ? pos + step : bytes;

		if (mode == EXT4_DIRECT) {
			/* iomap_dio_bio_iter(), block by block of this write: a block not mapped before
			 * is IOMAP_F_NEW (need_zeroout: its head is zeroed); its tail is zeroed when new
			 * or when the write reaches EOF, which every write of a new file does */
			uint64_t a = pos;
			while (a < end) {
				uint64_t blk_end = (a / B + 1) * B, b = end < blk_end ? end : blk_end;
				int is_new = a >= mapped;

				if (is_new && a % B)
					out->zero_bytes += a % B;
				if (b % B && (is_new || b == end))
					out->zero_bytes += B - b % B;
				a = b;
			}
			if ((end + B - 1) / B * B > mapped)
				mapped = (end + B - 1) / B * B;
		}
		pos = end;
		if (end <= allocated)
			continue; /* this write lands in clusters an earlier one allocated */
		uint64_t need = (end - allocated + C - 1) / C; /* clusters */
		allocated += need * C;
		out->allocations++;
		out->clusters += need;
		while (need) {
			uint64_t room = per_group - goal, n = need < room ? need : room;
			set_bits(bitmap, (uint32_t)goal, (uint32_t)n);
			out->last_csum = fslab_crc32c(~0u, bitmap, B);
			memcpy(desc, &out->last_csum, 4);
			out->last_csum ^= fslab_crc32c(~0u, desc, DESC_SIZE);
			out->csum_bytes += B + DESC_SIZE;
			out->bitmap_updates++;
			need -= n;
			goal += n;
			if (goal == per_group) { /* on to the next group's (empty) bitmap */
				goal = 0;
				group++;
				memset(bitmap, 0, B);
			}
		}
	}
	(void)group;
	free(bitmap);
	return 0;
}
