/* SPDX-License-Identifier: MIT */
/*
 * scan_free_nid_bits(), after fs/f2fs/node.c (7.2 + our CLUE patch): the loaded NAT blocks'
 * free bits into the free-NID list, up to MAX_FREE_NIDS; from block 0, or under CLUE's
 * heuristic (clue bit 2) from where the last walk stopped, going round. Its own file because
 * the f2fs-clue lab's code step has the learner write it (fslab/f2fs_nid_scan.h); this one is
 * the step's reference.
 */
#include "fslab/f2fs_nid_scan.h"

void scan_free_nid_bits(struct f2fs_nm_info *nm, uint32_t clue, int sync)
{
	struct nid_walk w;
	uint32_t i, idx, n, first = 0;

	/* CLUE's heuristic: where the last walk stopped, if that is a block */
	if ((clue & F2FS_CLUE_HEURISTIC) && nm->next_bitmap_blk < nm->nat_blocks)
		first = nm->next_bitmap_blk;
	nid_walk_begin(nm, &w);
	/* every block once, from first, going round past the last one */
	for (n = 0, i = first; n < nm->nat_blocks; n++, i = (i + 1 == nm->nat_blocks) ? 0 : i + 1) {
		if (!nm->nat_block_bitmap[i] || !nm->free_nid_count[i])
			continue;
		for (idx = 0; idx < NAT_ENTRY_PER_BLOCK; idx++) {
			uint32_t from = idx;

			idx = find_next_bit_le(nid_bitmap(nm, i), NAT_ENTRY_PER_BLOCK, idx);
			nid_walk_count(&w, from, idx);
			if (idx >= NAT_ENTRY_PER_BLOCK)
				break;
			add_free_nid(nm, i * NAT_ENTRY_PER_BLOCK + idx, 1, 0);
			if (nm->nid_cnt[FREE_NID] >= MAX_FREE_NIDS)
				goto out;
		}
	}
out:
	nid_walk_end(nm, &w, first, i, n, sync);
}
