/* SPDX-License-Identifier: MIT */
/*
 * What scan_free_nid_bits() uses of the free-NID model (nid.c): its own file, nid_scan.c,
 * because the f2fs-clue lab's code step has the learner write it, and the page builds their
 * file in its place (web/src/topics/f2fs/grader.ts). The walk's bookkeeping (the patch's count
 * of bits walked, CLUE's lazy-update generation, the counters and the tracepoint's record)
 * stays in the model: nid_walk_begin(), nid_walk_count() and nid_walk_end().
 */
#ifndef FSLAB_F2FS_NID_SCAN_H
#define FSLAB_F2FS_NID_SCAN_H

#include "fslab/f2fs_nid.h"

static inline int test_bit_le(uint32_t nr, const uint8_t *addr) { return (addr[nr >> 3] >> (nr & 7)) & 1; }

/* the first set bit at or after offset, or size */
static inline uint32_t find_next_bit_le(const uint8_t *addr, uint32_t size, uint32_t offset)
{
	for (; offset < size; offset++)
		if (test_bit_le(offset, addr))
			return offset;
	return size;
}

/* NAT block blk's free_nid_bitmap: bit i set = NID blk * NAT_ENTRY_PER_BLOCK + i is free */
static inline uint8_t *nid_bitmap(struct f2fs_nm_info *nm, uint32_t blk) { return nm->free_nid_bitmap + (size_t)blk * F2FS_NID_BITMAP_BYTES; }

/* add_free_nid(): puts a NID on the free list (build: as a scan finds it); 1 if it is free */
int add_free_nid(struct f2fs_nm_info *nm, uint32_t nid, int build, int update);

struct nid_walk {
	uint32_t scanned, before, gen;
};

void nid_walk_begin(struct f2fs_nm_info *nm, struct nid_walk *w);
/* the bits one find_next_bit_le() passed, from `from` to the bit it returned */
void nid_walk_count(struct nid_walk *w, uint32_t from, uint32_t idx);
/* the walk's end: it started at block first, visited `visited` blocks and stopped in block
 * stop (visited == nat_blocks: it went all the way round); sets nm->next_bitmap_blk, where
 * CLUE's heuristic starts the next walk, and writes the walk's f2fs_free_nid_scan record */
void nid_walk_end(struct f2fs_nm_info *nm, struct nid_walk *w, uint32_t first, uint32_t stop, uint32_t visited, int sync);

/* scan_free_nid_bits() (nid_scan.c): the loaded NAT blocks' free bits into the free list */
void scan_free_nid_bits(struct f2fs_nm_info *nm, uint32_t clue, int sync);

#endif
