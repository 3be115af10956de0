/* SPDX-License-Identifier: MIT */
/*
 * ext4 core: block allocation into per-group bitmaps at three layouts (4 KiB blocks, bigalloc
 * clusters over 4 KiB blocks, and blocks larger than the page: LBS), and what every bitmap
 * change costs with metadata_csum: ext4_block_bitmap_csum_set() recomputes crc32c over the
 * whole bitmap, EXT4_CLUSTERS_PER_GROUP / 8 bytes - one block, so 16 times more bytes per
 * allocation with 64 KiB blocks than with 4 KiB blocks or 64 KiB bigalloc clusters. That is
 * seed 001's account of direct I/O getting slower with LBS: direct writes allocate a little
 * at a time, each allocation paying for a whole-bitmap checksum; buffered writes allocate in
 * large extents at writeback and hardly notice.
 *
 * The model really keeps the bitmaps and really computes the checksums (fslab_crc32c), so
 * the counts are exact for the model's allocation pattern and the time is measured.
 *
 * Direct writes smaller than a block also make the device write zeros: iomap_dio_bio_iter()
 * (fs/iomap/direct-io.c) zeroes a sub-block write's head when its block is new, and its tail,
 * up to the block's end, when the block is new or the write ends at or past EOF. Writing a
 * file sequentially, every write extends it, so with 64 KiB blocks and 4 KiB writes each
 * write also writes zeros to the end of its block: 8.5 times the data reaches the device
 * (the guest's kernel measured: 8704 KiB for a 1 MiB file). 4 KiB blocks, bigalloc's
 * included, are never written in part by 4 KiB-aligned writes.
 */
#ifndef FSLAB_EXT4_H
#define FSLAB_EXT4_H

#include <stdint.h>

struct ext4_layout {
	uint32_t block_size;   /* 4096 .. 65536 */
	uint32_t cluster_size; /* = block_size, or bigalloc's larger cluster */
};

enum ext4_write_mode { EXT4_BUFFERED = 0, EXT4_DIRECT = 1 };

struct ext4_write_result {
	uint64_t allocations;     /* ext4_mb_new_blocks() calls */
	uint64_t bitmap_updates;  /* bitmaps changed (a call spanning two groups changes two) */
	uint64_t csum_bytes;      /* bytes crc32c went over: bitmaps, and descriptors */
	uint64_t clusters;        /* clusters allocated */
	uint32_t bitmap_bytes;    /* one group's block bitmap */
	uint32_t last_csum;       /* the last bitmap checksum, so the work cannot be skipped */
	uint64_t zero_bytes;      /* direct: zeros iomap writes around sub-block writes */
};

/*
 * Writes `bytes` to a new file with writes of bs bytes: buffered (delayed allocation: one
 * allocation per writeback extent of up to extent_max bytes) or direct (one allocation per
 * write, rounded up to whole clusters). 0, or -FSLAB_EINVAL for a layout it refuses.
 */
int ext4_write_file(const struct ext4_layout *l, enum ext4_write_mode mode, uint64_t bytes, uint32_t bs,
		    uint32_t extent_max, struct ext4_write_result *out);

/*
 * A buffered write of len bytes at pos, to a file with nothing of that range in the page cache:
 * the folios it is copied into, one per ext4_da_write_begin() (folio.c). orders[] gets each
 * folio's order (pages = 1 << order) for the first cap of them; returns how many there are, or
 * -FSLAB_EINVAL for a max_order above 20. max_order: the mapping's largest folio.
 */
int ext4_write_folios(uint64_t pos, uint32_t len, unsigned max_order, uint32_t *orders, int cap);

#endif
