/* SPDX-License-Identifier: MIT */
/* The allocation and checksum counts of fslab/ext4.h, worked by hand. */
#include "check.h"
#include "fslab/ext4.h"

int main(void)
{
	const struct ext4_layout k4 = { 4096, 4096 }, big = { 4096, 65536 }, lbs = { 65536, 65536 };
	struct ext4_write_result r;

	/* 1 MiB by direct 4 KiB writes on 4 KiB blocks: 256 allocations, each checksumming the
	 * 4 KiB bitmap and a 64-byte descriptor */
	CHECK_EQ(ext4_write_file(&k4, EXT4_DIRECT, 1 << 20, 4096, 1 << 25, &r), 0);
	CHECK_EQ(r.allocations, 256);
	CHECK_EQ(r.csum_bytes, 256 * (4096 + 64));
	CHECK_EQ(r.bitmap_bytes, 4096);
	/* bigalloc, 64 KiB clusters: a 4 KiB write allocates a whole cluster; the next 15 land in it */
	CHECK_EQ(ext4_write_file(&big, EXT4_DIRECT, 1 << 20, 4096, 1 << 25, &r), 0);
	CHECK_EQ(r.allocations, 16);
	CHECK_EQ(r.clusters, 16);
	CHECK_EQ(r.csum_bytes, 16 * (4096 + 64));
	/* 64 KiB blocks: as many allocations, but the bitmap is a 64 KiB block */
	CHECK_EQ(ext4_write_file(&lbs, EXT4_DIRECT, 1 << 20, 65536, 1 << 25, &r), 0);
	CHECK_EQ(r.allocations, 16);
	CHECK_EQ(r.csum_bytes, 16 * (65536 + 64));
	/* buffered: one allocation per 32 MiB writeback extent, whatever bs was */
	CHECK_EQ(ext4_write_file(&lbs, EXT4_BUFFERED, 256ull << 20, 4096, 32u << 20, &r), 0);
	CHECK_EQ(r.allocations, 8);
	/* a group of 4 KiB blocks holds 32768 (128 MiB): an extent across its end changes two bitmaps */
	CHECK_EQ(ext4_write_file(&k4, EXT4_BUFFERED, 160ull << 20, 4096, 96u << 20, &r), 0);
	CHECK_EQ(r.allocations, 2);
	CHECK_EQ(r.bitmap_updates, 3);
	/* direct 4 KiB writes on 64 KiB blocks: each extends the file, so iomap zeroes its block
	 * from the write's end to the block's end: 60+56+...+4 KiB = 480 KiB per block, 16 blocks.
	 * 1 MiB of data and 7680 KiB of zeros: 8704 KiB, what the guest's kernel wrote */
	CHECK_EQ(ext4_write_file(&lbs, EXT4_DIRECT, 1 << 20, 4096, 1 << 25, &r), 0);
	CHECK_EQ(r.zero_bytes, 16 * 480 * 1024);
	/* 16 KiB writes: 48+32+16 KiB per block (the guest: 2560 KiB in all) */
	CHECK_EQ(ext4_write_file(&lbs, EXT4_DIRECT, 1 << 20, 16384, 1 << 25, &r), 0);
	CHECK_EQ(r.zero_bytes, 16 * 96 * 1024);
	/* whole-block writes, and 4 KiB blocks (bigalloc's too), never write a block in part */
	CHECK_EQ(ext4_write_file(&lbs, EXT4_DIRECT, 1 << 20, 65536, 1 << 25, &r), 0);
	CHECK_EQ(r.zero_bytes, 0);
	CHECK_EQ(ext4_write_file(&big, EXT4_DIRECT, 1 << 20, 4096, 1 << 25, &r), 0);
	CHECK_EQ(r.zero_bytes, 0);
	/* a write that starts inside a new block: its head is zeroed too (24 KiB writes: the
	 * second starts at 24 KiB of block 0, mapped; the third, 48..72 KiB, reaches block 1,
	 * new, at its start). 72 KiB file: write 1 tail 40, write 2 tail 16, write 3 tail 56 */
	CHECK_EQ(ext4_write_file(&lbs, EXT4_DIRECT, 72 * 1024, 24 * 1024, 1 << 25, &r), 0);
	CHECK_EQ(r.zero_bytes, (40 + 16 + 56) * 1024);
	/* buffered writes go through the page cache: no iomap zeroing */
	CHECK_EQ(ext4_write_file(&lbs, EXT4_BUFFERED, 1 << 20, 4096, 1 << 25, &r), 0);
	CHECK_EQ(r.zero_bytes, 0);
	CHECK_EQ(ext4_write_file(&(struct ext4_layout){ 4096, 2048 }, EXT4_DIRECT, 1, 1, 1, &r), -22);

	/* the folios of a buffered write to an uncached range, as the guest's kernel (7.2) called
	 * ext4_da_write_begin() for it (function_graph, the write-path lab's setup): 4, 16, 64, 128
	 * KiB at 0 and 256 KiB at 256 KiB, one folio each; 12 KiB at 12: 4 + 8; 20 at 60: 4 + 16;
	 * 36 at 36: 4 + 8 + 16 + 8; 40 at 80: 16 + 16 + 8 */
	{
		uint32_t o[8];

		CHECK_EQ(ext4_write_folios(0, 4096, 8, o, 8), 1);
		CHECK_EQ(o[0], 0);
		CHECK_EQ(ext4_write_folios(0, 16384, 8, o, 8), 1);
		CHECK_EQ(o[0], 2);
		CHECK_EQ(ext4_write_folios(0, 65536, 8, o, 8), 1);
		CHECK_EQ(ext4_write_folios(0, 131072, 8, o, 8), 1);
		CHECK_EQ(ext4_write_folios(262144, 262144, 8, o, 8), 1);
		CHECK_EQ(o[0], 6);
		CHECK_EQ(ext4_write_folios(12288, 12288, 8, o, 8), 2);
		CHECK_EQ(o[0], 0);
		CHECK_EQ(o[1], 1);
		CHECK_EQ(ext4_write_folios(61440, 20480, 8, o, 8), 2);
		CHECK_EQ(o[1], 2);
		CHECK_EQ(ext4_write_folios(36864, 36864, 8, o, 8), 4);
		CHECK_EQ(o[0] * 100 + o[1] * 10 + o[2] + o[3] * 1000, 1000 + 0 + 10 + 2);
		CHECK_EQ(ext4_write_folios(81920, 40960, 8, o, 8), 3);
		CHECK_EQ(o[0] * 100 + o[1] * 10 + o[2], 221);
		/* a write beyond the largest folio goes in rounds of it; one page at a time with max 0 */
		CHECK_EQ(ext4_write_folios(0, 1u << 22, 8, o, 8), 4);
		CHECK_EQ(ext4_write_folios(0, 65536, 0, o, 8), 16);
		/* a write that ends inside a page still takes the page */
		CHECK_EQ(ext4_write_folios(100, 10, 8, o, 8), 1);
		CHECK_EQ(ext4_write_folios(0, 1, 21, o, 8), -22);
	}
	return CHECK_DONE("test_ext4");
}
