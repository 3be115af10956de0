/* SPDX-License-Identifier: MIT */
/*
 * F2FS inspector: the superblock, the valid checkpoint pack (of two, by version and CRC, as
 * f2fs_get_valid_checkpoint() chooses), and the NAT as the kernel reads it: each NAT block
 * from the copy its version bit selects (current_nat_addr()), then the entries still in the
 * checkpoint's NAT journal on top. Counts the valid NIDs, which must equal the checkpoint's
 * valid_node_count on a consistent volume. Layouts from include/linux/f2fs_fs.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/crc32.h"
#include "fslab/errno.h"
#include "fslab/inspect_report.h"
#include "fslab/le.h"

#define F2FS_SUPER_OFFSET 1024
#define F2FS_SUPER_MAGIC 0xF2F52010u
#define F2FS_BLKSIZE 4096
#define NAT_ENTRY_SIZE 9
#define NAT_ENTRY_PER_BLOCK (F2FS_BLKSIZE / NAT_ENTRY_SIZE) /* 455 */
#define SUM_ENTRY_SIZE (7 * 512)
#define SUM_JOURNAL_SIZE (F2FS_BLKSIZE - 5 - SUM_ENTRY_SIZE) /* 507 */
#define NAT_JOURNAL_ENTRIES ((SUM_JOURNAL_SIZE - 2) / 13)    /* 38 */
#define CP_UMOUNT_FLAG 0x1
#define CP_COMPACT_SUM_FLAG 0x4
#define CP_LARGE_NAT_BITMAP_FLAG 0x400
#define CP_CHKSUM_MAX 4092

#define fail inspect_error

static const uint8_t *block(const uint8_t *img, size_t len, uint64_t blk)
{
	return (blk + 1) * F2FS_BLKSIZE <= len ? img + blk * F2FS_BLKSIZE : NULL;
}

/* a NAT block never written holds only zeros: no entry in it points at a node */
static int zeroed(const uint8_t *b, size_t n)
{
	return b[0] == 0 && memcmp(b, b + 1, n - 1) == 0;
}

/* a checkpoint pack's version if its first and last blocks agree and their CRCs hold */
static int pack_version(const uint8_t *img, size_t len, uint64_t addr, uint64_t *ver)
{
	const uint8_t *cp = block(img, len, addr), *last;
	uint32_t off, total;

	if (!cp)
		return 0;
	off = le32(cp + 164);
	if (off < 192 || off > CP_CHKSUM_MAX || fslab_crc32_le(F2FS_SUPER_MAGIC, cp, off) != le32(cp + off))
		return 0;
	total = le32(cp + 136);
	if (total < 2 || total > 1024 || !(last = block(img, len, addr + total - 1)))
		return 0;
	if (le64(last) != le64(cp) || fslab_crc32_le(F2FS_SUPER_MAGIC, last, off) != le32(last + off))
		return 0;
	*ver = le64(cp);
	return 1;
}

static const struct { uint32_t bit; const char *name; } CP_FLAGS[] = {
	{ 0x1, "unmount" }, { 0x2, "orphan_present" }, { 0x4, "compacted_summary" }, { 0x8, "nat_bits" },
	{ 0x10, "quota_need_fsck" }, { 0x20, "fsck" }, { 0x40, "crc_recovery" }, { 0x80, "fastboot" },
	{ 0x100, "trimmed" }, { 0x200, "nocrc_recovery" }, { 0x400, "large_nat_bitmap" }, { 0x800, "disabled" },
	{ 0x1000, "disabled_quick" }, { 0x2000, "resizefs" },
};

static int f2fs_inspect(const uint8_t *img, size_t len, struct fslab_json *j, char *err)
{
	const uint8_t *sb = img + F2FS_SUPER_OFFSET;

	err[0] = 0;
	if (len < F2FS_SUPER_OFFSET + 2048 || le32(sb) != F2FS_SUPER_MAGIC)
		return fail(err, "not an F2FS volume: no magic 0xF2F52010 at 1024");
	if (le32(sb + 16) != 12 || le32(sb + 20) != 9)
		return fail(err, "unsupported geometry: 2^%u-byte blocks, 2^%u blocks per segment (4096 and 512 expected)",
			    le32(sb + 16), le32(sb + 20));
	uint32_t blocks_per_seg = 512;
	uint32_t cp_blkaddr = le32(sb + 76), nat_blkaddr = le32(sb + 84), seg_nat = le32(sb + 60), cp_payload = le32(sb + 1664);
	uint64_t block_count = le64(sb + 36);
	if (seg_nat < 2 || seg_nat > (1u << 16) || !block(img, len, cp_blkaddr) || cp_payload > 1024)
		return fail(err, "bad superblock: NAT of %u segments, checkpoint at block %u", seg_nat, cp_blkaddr);

	/* the two checkpoint packs: the valid one with the higher version */
	uint64_t v1 = 0, v2 = 0, cp_addr;
	int ok1 = pack_version(img, len, cp_blkaddr, &v1), ok2 = pack_version(img, len, (uint64_t)cp_blkaddr + blocks_per_seg, &v2);
	if (!ok1 && !ok2)
		return fail(err, "no valid checkpoint: both packs fail their CRC or version check");
	int pack = ok1 && (!ok2 || v1 >= v2) ? 1 : 2;
	cp_addr = pack == 1 ? cp_blkaddr : (uint64_t)cp_blkaddr + blocks_per_seg;
	const uint8_t *cp = block(img, len, cp_addr);
	uint32_t flags = le32(cp + 132), sit_bm = le32(cp + 156), nat_bm = le32(cp + 160);
	uint32_t nat_blocks = seg_nat / 2 * blocks_per_seg;
	uint64_t max_nid = (uint64_t)nat_blocks * NAT_ENTRY_PER_BLOCK;

	/* __bitmap_ptr(NAT_BITMAP) */
	const uint8_t *nat_bitmap = (flags & CP_LARGE_NAT_BITMAP_FLAG) ? cp + 192 + 4 : cp_payload ? cp + 192 : cp + 192 + sit_bm;
	if (nat_bm < (nat_blocks + 7) / 8 || (size_t)(nat_bitmap - cp) + (nat_blocks + 7) / 8 > F2FS_BLKSIZE)
		return fail(err, "the checkpoint's NAT version bitmap (%u bytes) does not cover %u NAT blocks", nat_bm, nat_blocks);

	fslab_json_open(j, NULL, '{');
	fslab_json_str(j, "fs", "f2fs");
	fslab_json_open(j, "superblock", '{');
	fslab_json_u64(j, "major_ver", le16(sb + 4));
	fslab_json_u64(j, "minor_ver", le16(sb + 6));
	fslab_json_u64(j, "block_count", block_count);
	fslab_json_u64(j, "section_count", le32(sb + 44));
	fslab_json_u64(j, "segment_count", le32(sb + 48));
	fslab_json_u64(j, "segment_count_ckpt", le32(sb + 52));
	fslab_json_u64(j, "segment_count_sit", le32(sb + 56));
	fslab_json_u64(j, "segment_count_nat", seg_nat);
	fslab_json_u64(j, "segment_count_ssa", le32(sb + 64));
	fslab_json_u64(j, "segment_count_main", le32(sb + 68));
	fslab_json_u64(j, "cp_blkaddr", cp_blkaddr);
	fslab_json_u64(j, "sit_blkaddr", le32(sb + 80));
	fslab_json_u64(j, "nat_blkaddr", nat_blkaddr);
	fslab_json_u64(j, "ssa_blkaddr", le32(sb + 88));
	fslab_json_u64(j, "main_blkaddr", le32(sb + 92));
	fslab_json_u64(j, "root_ino", le32(sb + 96));
	fslab_json_u64(j, "cp_payload", cp_payload);
	{ /* the volume name: UTF-16, up to its first NUL */
		size_t n = 0;
		while (n < 512 && le16(sb + 124 + 2 * n))
			n++;
		fslab_json_utf16(j, "volume_name", sb + 124, n);
	}
	fslab_json_close(j, '}');

	fslab_json_open(j, "checkpoint", '{');
	fslab_json_u64(j, "pack", (uint64_t)pack);
	fslab_json_u64(j, "checkpoint_ver", le64(cp));
	fslab_json_u64(j, "user_block_count", le64(cp + 8));
	fslab_json_u64(j, "valid_block_count", le64(cp + 16));
	fslab_json_u64(j, "rsvd_segment_count", le32(cp + 24));
	fslab_json_u64(j, "overprov_segment_count", le32(cp + 28));
	fslab_json_u64(j, "free_segment_count", le32(cp + 32));
	fslab_json_u64(j, "ckpt_flags", flags);
	fslab_json_open(j, "flags", '[');
	for (size_t f = 0; f < sizeof(CP_FLAGS) / sizeof(CP_FLAGS[0]); f++)
		if (flags & CP_FLAGS[f].bit)
			fslab_json_str(j, NULL, CP_FLAGS[f].name);
	fslab_json_close(j, ']');
	fslab_json_u64(j, "cp_pack_total_block_count", le32(cp + 136));
	fslab_json_u64(j, "cp_pack_start_sum", le32(cp + 140));
	fslab_json_u64(j, "valid_node_count", le32(cp + 144));
	fslab_json_u64(j, "valid_inode_count", le32(cp + 148));
	fslab_json_u64(j, "next_free_nid", le32(cp + 152));
	fslab_json_u64(j, "sit_ver_bitmap_bytesize", sit_bm);
	fslab_json_u64(j, "nat_ver_bitmap_bytesize", nat_bm);
	fslab_json_close(j, '}');

	/* the NAT, each block from its current copy; free/valid NIDs per block */
	uint8_t *valid = calloc(max_nid / 8 + 1, 1);
	uint32_t *valid_per_block = calloc(nat_blocks, sizeof(uint32_t));
	if (!valid || !valid_per_block) {
		free(valid);
		free(valid_per_block);
		return fail(err, "out of memory for %llu NIDs", (unsigned long long)max_nid);
	}
	uint64_t valid_nids = 0, unreadable = 0;
	/* what is wrong, in words (the first few; "damage_more" counts the rest), as fsck.f2fs would name it */
	char damage[8][160];
	uint32_t ndamage = 0, more = 0;
#define DAMAGE(...) ((void)(ndamage < 8 ? snprintf(damage[ndamage++], sizeof(damage[0]), __VA_ARGS__) : (more++, 0)))
	/* the node and meta inodes hold NAT entries (block address 1) but no node blocks */
	uint32_t node_ino = le32(sb + 100), meta_ino = le32(sb + 104);
	for (uint32_t b = 0; b < nat_blocks; b++) {
		uint64_t addr = nat_blkaddr + ((uint64_t)(b / blocks_per_seg) * 2 * blocks_per_seg) + b % blocks_per_seg +
				((nat_bitmap[b >> 3] >> (7 - (b & 7))) & 1 ? blocks_per_seg : 0); /* f2fs_test_bit: MSB first */
		const uint8_t *nb = block(img, len, addr);
		if (!nb) {
			unreadable++;
			continue;
		}
		/* most of a fresh volume's NAT: its blocks are read for every NID the volume could have */
		if (zeroed(nb, F2FS_BLKSIZE))
			continue;
		for (uint32_t e = 0; e < NAT_ENTRY_PER_BLOCK; e++) {
			uint64_t nid = (uint64_t)b * NAT_ENTRY_PER_BLOCK + e;
			if (nid == 0 || nid == node_ino || nid == meta_ino)
				continue;
			uint32_t blk = le32(nb + e * NAT_ENTRY_SIZE + 5);
			if (blk >= block_count && blk != 0xFFFFFFFFu) {
				DAMAGE("NID %llu's node is at block %u, past the volume's %llu blocks (NAT block %u)", (unsigned long long)nid, blk,
				       (unsigned long long)block_count, b);
				continue;
			}
			if (blk != 0) {
				valid[nid >> 3] |= (uint8_t)(1u << (nid & 7));
				valid_nids++;
				valid_per_block[b]++;
			}
		}
	}
	/* the NAT journal, in the hot data summary (compacted: the first block's start) */
	uint64_t sum_addr = cp_addr + le32(cp + 140);
	const uint8_t *sum = block(img, len, sum_addr);
	uint32_t n_nats = 0;
	if (!sum)
		DAMAGE("the checkpoint's summary block %llu lies past the image's end: the NAT journal is not read", (unsigned long long)sum_addr);
	if (sum) {
		const uint8_t *journal = (flags & CP_COMPACT_SUM_FLAG) ? sum : sum + SUM_ENTRY_SIZE;
		n_nats = le16(journal);
		if (n_nats > NAT_JOURNAL_ENTRIES) {
			DAMAGE("the NAT journal says it holds %u entries, more than the %u a summary block has room for", n_nats, NAT_JOURNAL_ENTRIES);
			n_nats = 0; /* not a journal we can trust */
		}
		for (uint32_t k = 0; k < n_nats; k++) {
			const uint8_t *je = journal + 2 + 13 * k;
			uint64_t nid = le32(je);
			if (nid >= max_nid) {
				DAMAGE("NAT journal entry %u names NID %llu, past the NAT (NIDs 0-%llu)", k, (unsigned long long)nid,
				       (unsigned long long)max_nid - 1);
				continue;
			}
			if (nid == 0 || nid == node_ino || nid == meta_ino)
				continue;
			int was = (valid[nid >> 3] >> (nid & 7)) & 1, now = le32(je + 9) != 0;
			if (was != now) {
				valid[nid >> 3] ^= (uint8_t)(1u << (nid & 7));
				valid_nids += now ? 1 : (uint64_t)-1;
				valid_per_block[nid / NAT_ENTRY_PER_BLOCK] += now ? 1 : (uint32_t)-1;
			}
		}
	}
	fslab_json_open(j, "nat", '{');
	fslab_json_u64(j, "blocks", nat_blocks);
	fslab_json_u64(j, "max_nid", max_nid);
	fslab_json_u64(j, "journal_entries", n_nats);
	fslab_json_u64(j, "valid_nids", valid_nids);
	fslab_json_u64(j, "unreadable_blocks", unreadable);
	/* blocks holding any valid NID, as [first block, count] runs: where the free-NID scans look */
	fslab_json_open(j, "used_blocks", '[');
	for (uint32_t b = 0, start = 0, run = 0; b <= nat_blocks; b++) {
		int used = b < nat_blocks && valid_per_block[b];
		if (used && !run)
			start = b;
		run = used ? run + 1 : (run ? (inspect_json_run(j, start, run), 0) : 0);
	}
	fslab_json_close(j, ']');
	/* valid NIDs in each NAT block, to the last block that has any: what a NAT strip draws */
	uint32_t last = nat_blocks;
	while (last && !valid_per_block[last - 1])
		last--;
	fslab_json_open(j, "valid_per_block", '[');
	for (uint32_t b = 0; b < last; b++)
		fslab_json_u64(j, NULL, valid_per_block[b]);
	fslab_json_close(j, ']');
	fslab_json_close(j, '}');
	fslab_json_open(j, "counts", '{');
	fslab_json_bool(j, "nat_matches_checkpoint", valid_nids == le32(cp + 144));
	fslab_json_close(j, '}');
	if (unreadable)
		DAMAGE("%llu NAT block%s lie past the image's end", (unsigned long long)unreadable, unreadable == 1 ? "" : "s");
	if (valid_nids != le32(cp + 144))
		DAMAGE("the NAT holds %llu valid NIDs, the checkpoint counts %u nodes", (unsigned long long)valid_nids, le32(cp + 144));
	fslab_json_open(j, "damage", '[');
	for (uint32_t k = 0; k < ndamage; k++)
		fslab_json_str(j, NULL, damage[k]);
	fslab_json_close(j, ']');
	fslab_json_u64(j, "damage_more", more);
#undef DAMAGE
	fslab_json_close(j, '}');
	free(valid);
	free(valid_per_block);
	return 0;
}

/* the magic the kernel's own probe looks at */
static int f2fs_probe(const uint8_t *img, size_t len)
{
	return len >= 1028 && img[1024] == 0x10 && img[1025] == 0x20 && img[1026] == 0xF5 && img[1027] == 0xF2;
}

const struct fslab_inspector fslab_inspector_f2fs = {
	.name = "F2FS",
	.probe = f2fs_probe,
	.absent = "no 0xF2F52010 at 1024",
	.inspect = f2fs_inspect,
};
