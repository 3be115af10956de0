/* SPDX-License-Identifier: MIT */
/*
 * ext4 inspector: the superblock, the group descriptors (32- and 64-bit), each group's block
 * and inode bitmaps with their free counts, and the metadata_csum checksums (superblock,
 * descriptors, block bitmaps) computed as fs/ext4 does. Layouts from fs/ext4/ext4.h.
 * Bigalloc bitmaps count clusters; groups flagged BLOCK_UNINIT have no bitmap on disk
 * (the kernel computes it), so only their descriptor's count is reported. Every inode in
 * use with extents has its extent tree walked, bounded as fs/ext4/extents.c checks it
 * (__ext4_ext_check: magic, entries against max, depth), and its damage named.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "fslab/crc32c.h"
#include "fslab/errno.h"
#include "fslab/inspect_report.h"
#include "fslab/le.h"

#define SB_OFFSET 1024
#define EXT4_MAGIC 0xEF53
/* feature bits */
#define COMPAT_SPARSE_SUPER2 0x0200
#define INCOMPAT_META_BG 0x0010
#define INCOMPAT_64BIT 0x0080
#define INCOMPAT_FLEX_BG 0x0200
#define INCOMPAT_CSUM_SEED 0x2000
#define RO_COMPAT_GDT_CSUM 0x0010
#define RO_COMPAT_BIGALLOC 0x0200
#define RO_COMPAT_METADATA_CSUM 0x0400
/* bg_flags */
#define BG_INODE_UNINIT 0x1
#define BG_BLOCK_UNINIT 0x2
#define BG_INODE_ZEROED 0x4

#define fail inspect_error

/* fs/ext4/ext4_extents.h, ext4.h */
#define EXT4_EXT_MAGIC 0xF30A
#define EXT4_MAX_EXTENT_DEPTH 5
#define EXT4_EXTENTS_FL 0x80000
#define EXT_INIT_MAX_LEN 32768
#define MAX_EXTENT_NODES 65536 /* per inode: a bound on fan-out a damaged tree could claim */
#define MAX_DAMAGE 8
#define MAX_FILES 4096

struct ext {
	const uint8_t *img;
	size_t len;
	uint64_t bs, blocks;
	uint32_t ino;
	uint32_t nodes, extents, depth;
	uint64_t mapped;
	char (*damage)[160];
	uint32_t *ndamage, *more;
};

static void damage(struct ext *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void damage(struct ext *e, const char *fmt, ...)
{
	va_list ap;

	if (*e->ndamage >= MAX_DAMAGE) {
		(*e->more)++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(e->damage[(*e->ndamage)++], 160, fmt, ap);
	va_end(ap);
}

/*
 * One node of an extent tree (the inode's i_block, or a block), `want` its depth (-1 at the
 * root). Returns 0, or -1 when the node is damaged and its subtree not walked.
 */
static int walk_extents(struct ext *e, const uint8_t *node, size_t room, int want)
{
	uint16_t magic = le16(node), entries = le16(node + 2), max = le16(node + 4), depth = le16(node + 6);
	uint32_t cap = (uint32_t)(room - 12) / 12;

	if (magic != EXT4_EXT_MAGIC) {
		damage(e, "inode %u: extent header has bad magic 0x%04X (0x%04X)", e->ino, magic, EXT4_EXT_MAGIC);
		return -1;
	}
	if (want < 0) {
		e->depth = depth;
		if (depth > EXT4_MAX_EXTENT_DEPTH) {
			damage(e, "inode %u: extent tree depth %u is deeper than ext4 allows (%d)", e->ino, depth, EXT4_MAX_EXTENT_DEPTH);
			return -1;
		}
	} else if (depth != (uint16_t)want) {
		damage(e, "inode %u: a node at depth %d says it is at depth %u", e->ino, want, depth);
		return -1;
	}
	if (max > cap || entries > max) {
		damage(e, "inode %u: an extent node at depth %u holds %u entries, its header allows %u (room for %u)", e->ino, depth, entries, max, cap);
		return -1;
	}
	if (++e->nodes > MAX_EXTENT_NODES) {
		damage(e, "inode %u: more than %u extent nodes", e->ino, MAX_EXTENT_NODES);
		return -1;
	}
	for (uint32_t k = 0; k < entries; k++) {
		const uint8_t *x = node + 12 + 12 * k;
		if (depth == 0) {
			uint32_t len = le16(x + 4);
			uint64_t start = le32(x + 8) | (uint64_t)le16(x + 6) << 32;
			len = len > EXT_INIT_MAX_LEN ? len - EXT_INIT_MAX_LEN : len; /* unwritten */
			e->extents++;
			e->mapped += len;
			if (start + len > e->blocks)
				damage(e, "inode %u: an extent of %u blocks at block %llu runs past the volume's end (%llu blocks)", e->ino, len,
				       (unsigned long long)start, (unsigned long long)e->blocks);
		} else {
			uint64_t leaf = le32(x + 4) | (uint64_t)le16(x + 8) << 32;
			if (leaf >= e->blocks || (leaf + 1) * e->bs > e->len) {
				damage(e, "inode %u: an index at depth %u points at block %llu, past the %s", e->ino, depth, (unsigned long long)leaf,
				       leaf >= e->blocks ? "volume's end" : "image's end");
				continue;
			}
			if (walk_extents(e, e->img + leaf * e->bs, e->bs, depth - 1) && e->nodes > MAX_EXTENT_NODES)
				return -1;
		}
	}
	return 0;
}

static const struct { uint32_t word, bit; const char *name; } FEATURES[] = {
	{ 0, 0x0004, "has_journal" }, { 0, 0x0008, "ext_attr" }, { 0, 0x0010, "resize_inode" },
	{ 0, 0x0020, "dir_index" }, { 0, COMPAT_SPARSE_SUPER2, "sparse_super2" },
	{ 1, 0x0002, "filetype" }, { 1, 0x0004, "needs_recovery" }, { 1, 0x0040, "extent" },
	{ 1, INCOMPAT_META_BG, "meta_bg" }, { 1, INCOMPAT_64BIT, "64bit" }, { 1, 0x0100, "mmp" },
	{ 1, INCOMPAT_FLEX_BG, "flex_bg" }, { 1, 0x0400, "ea_inode" }, { 1, 0x1000, "dirdata" },
	{ 1, INCOMPAT_CSUM_SEED, "metadata_csum_seed" }, { 1, 0x4000, "large_dir" }, { 1, 0x8000, "inline_data" },
	{ 1, 0x10000, "encrypt" }, { 1, 0x20000, "casefold" },
	{ 2, 0x0001, "sparse_super" }, { 2, 0x0002, "large_file" }, { 2, 0x0008, "huge_file" },
	{ 2, RO_COMPAT_GDT_CSUM, "uninit_bg" }, { 2, 0x0020, "dir_nlink" }, { 2, 0x0040, "extra_isize" },
	{ 2, 0x0100, "quota" }, { 2, RO_COMPAT_BIGALLOC, "bigalloc" }, { 2, RO_COMPAT_METADATA_CSUM, "metadata_csum" },
	{ 2, 0x2000, "project" }, { 2, 0x8000, "verity" }, { 2, 0x10000, "orphan_present" },
};

/* zero bits among the first n of a bitmap */
static uint32_t zero_bits(const uint8_t *map, uint32_t n)
{
	uint32_t i, z = 0;

	for (i = 0; i < n / 8; i++)
		z += 8 - (uint32_t)__builtin_popcount(map[i]);
	for (i = n / 8 * 8; i < n; i++)
		z += !((map[i >> 3] >> (i & 7)) & 1);
	return z;
}

static int ext4_inspect(const uint8_t *img, size_t len, struct fslab_json *j, char *err)
{
	const uint8_t *sb = img + SB_OFFSET;

	err[0] = 0;
	if (len < SB_OFFSET + 1024)
		return fail(err, "not an ext4 volume: the image is %zu bytes, too short for a superblock", len);
	if (le16(sb + 0x38) != EXT4_MAGIC)
		return fail(err, "not an ext4 volume: bad magic 0x%04x at 1080 (0xEF53)", le16(sb + 0x38));

	uint32_t log_block = le32(sb + 0x18), log_cluster = le32(sb + 0x1C);
	uint32_t compat = le32(sb + 0x5C), incompat = le32(sb + 0x60), ro = le32(sb + 0x64);
	if (log_block > 6)
		return fail(err, "bad s_log_block_size %u at 1048 (blocks up to 64 KiB)", log_block);
	uint64_t bs = 1024ull << log_block;
	int bigalloc = !!(ro & RO_COMPAT_BIGALLOC);
	if (bigalloc && (log_cluster < log_block || log_cluster > log_block + 16))
		return fail(err, "bad s_log_cluster_size %u at 1052 for %llu-byte blocks", log_cluster, (unsigned long long)bs);
	uint64_t cs = bigalloc ? 1024ull << log_cluster : bs, ratio = cs / bs;
	int is64 = !!(incompat & INCOMPAT_64BIT);
	uint64_t blocks = le32(sb + 0x04) | (is64 ? (uint64_t)le32(sb + 0x150) << 32 : 0);
	uint64_t free_blocks = le32(sb + 0x0C) | (is64 ? (uint64_t)le32(sb + 0x158) << 32 : 0);
	uint32_t first_data = le32(sb + 0x14), bpg = le32(sb + 0x20), cpg = le32(sb + 0x24), ipg = le32(sb + 0x28);
	uint32_t desc_size = is64 ? le16(sb + 0xFE) : 32;
	int csum = !!(ro & RO_COMPAT_METADATA_CSUM);

	if (!bpg || !ipg || (bigalloc ? cpg != bpg / ratio : cpg != bpg))
		return fail(err, "bad group geometry: %u blocks, %u clusters, %u inodes per group", bpg, cpg, ipg);
	if (cpg > bs * 8 || ipg > bs * 8)
		return fail(err, "a group of %u clusters and %u inodes does not fit one bitmap block", cpg, ipg);
	if (desc_size < 32 || desc_size > 1024 || (desc_size & (desc_size - 1)) || (is64 && desc_size < 64))
		return fail(err, "bad group descriptor size %u at 1278", desc_size);
	if (incompat & INCOMPAT_META_BG)
		return fail(err, "meta_bg group descriptors are not supported by this inspector");
	if (blocks <= first_data || first_data > 1)
		return fail(err, "bad block count %llu / first data block %u", (unsigned long long)blocks, first_data);
	uint64_t groups = (blocks - first_data + bpg - 1) / bpg;
	uint64_t gdt = (first_data + 1) * bs;
	if (groups > (1u << 24) || gdt + groups * desc_size > len)
		return fail(err, "%llu group descriptors at byte %llu lie beyond the end of the image (%zu bytes)",
			    (unsigned long long)groups, (unsigned long long)gdt, len);

	uint32_t seed = (incompat & INCOMPAT_CSUM_SEED) ? le32(sb + 0x270) : fslab_crc32c(~0u, sb + 0x68, 16);
	char name[17];
	memcpy(name, sb + 0x78, 16);
	name[16] = 0;
	for (int k = 0; k < 16 && name[k]; k++)
		if ((unsigned char)name[k] < 0x20 || (unsigned char)name[k] > 0x7E)
			name[k] = '?';

	fslab_json_open(j, NULL, '{');
	fslab_json_str(j, "fs", "ext4");
	fslab_json_open(j, "superblock", '{');
	fslab_json_u64(j, "inodes_count", le32(sb + 0x00));
	fslab_json_u64(j, "blocks_count", blocks);
	fslab_json_u64(j, "free_blocks_count", free_blocks);
	fslab_json_u64(j, "free_inodes_count", le32(sb + 0x10));
	fslab_json_u64(j, "first_data_block", first_data);
	fslab_json_u64(j, "blocks_per_group", bpg);
	fslab_json_u64(j, "clusters_per_group", cpg);
	fslab_json_u64(j, "inodes_per_group", ipg);
	fslab_json_u64(j, "inode_size", le16(sb + 0x58));
	fslab_json_u64(j, "desc_size", desc_size);
	fslab_json_u64(j, "log_groups_per_flex", sb[0x174]);
	fslab_json_str(j, "volume_name", name);
	fslab_json_open(j, "features", '[');
	for (size_t f = 0; f < sizeof(FEATURES) / sizeof(FEATURES[0]); f++) {
		uint32_t word = FEATURES[f].word == 0 ? compat : FEATURES[f].word == 1 ? incompat : ro;
		if (word & FEATURES[f].bit)
			fslab_json_str(j, NULL, FEATURES[f].name);
	}
	fslab_json_close(j, ']');
	if (csum)
		fslab_json_bool(j, "checksum_ok", fslab_crc32c(~0u, sb, 0x3FC) == le32(sb + 0x3FC));
	fslab_json_close(j, '}');
	fslab_json_u64(j, "block_size", bs);
	fslab_json_u64(j, "cluster_size", cs);
	fslab_json_u64(j, "groups_count", groups);

	uint64_t sum_free = 0, sum_bitmap_free = 0, sum_free_inodes = 0, bad_csums = 0;
	int bitmaps_complete = 1;
	fslab_json_open(j, "groups", '[');
	for (uint64_t g = 0; g < groups; g++) {
		const uint8_t *d = img + gdt + g * desc_size;
		int wide = desc_size >= 64;
		uint64_t bb = le32(d + 0x00) | (wide ? (uint64_t)le32(d + 0x20) << 32 : 0);
		uint64_t ib = le32(d + 0x04) | (wide ? (uint64_t)le32(d + 0x24) << 32 : 0);
		uint64_t it = le32(d + 0x08) | (wide ? (uint64_t)le32(d + 0x28) << 32 : 0);
		uint32_t fc = le16(d + 0x0C) | (wide ? (uint32_t)le16(d + 0x2C) << 16 : 0);
		uint32_t fi = le16(d + 0x0E) | (wide ? (uint32_t)le16(d + 0x2E) << 16 : 0);
		uint32_t dirs = le16(d + 0x10) | (wide ? (uint32_t)le16(d + 0x30) << 16 : 0);
		uint32_t unused = le16(d + 0x1C) | (wide ? (uint32_t)le16(d + 0x32) << 16 : 0);
		uint16_t flags = le16(d + 0x12);
		uint64_t gblocks = g + 1 < groups ? bpg : blocks - first_data - g * (uint64_t)bpg;
		uint32_t gclusters = (uint32_t)((gblocks + ratio - 1) / ratio);

		fslab_json_open(j, NULL, '{');
		fslab_json_u64(j, "group", g);
		fslab_json_u64(j, "first_block", first_data + g * (uint64_t)bpg);
		fslab_json_u64(j, "clusters", gclusters);
		fslab_json_u64(j, "block_bitmap", bb);
		fslab_json_u64(j, "inode_bitmap", ib);
		fslab_json_u64(j, "inode_table", it);
		fslab_json_u64(j, "free_clusters", fc);
		fslab_json_u64(j, "free_inodes", fi);
		fslab_json_u64(j, "used_dirs", dirs);
		fslab_json_u64(j, "itable_unused", unused);
		fslab_json_bool(j, "inode_uninit", flags & BG_INODE_UNINIT);
		fslab_json_bool(j, "block_uninit", flags & BG_BLOCK_UNINIT);
		fslab_json_bool(j, "itable_zeroed", flags & BG_INODE_ZEROED);
		if (csum) {
			uint8_t le_group[4] = { (uint8_t)g, (uint8_t)(g >> 8), (uint8_t)(g >> 16), (uint8_t)(g >> 24) };
			uint8_t zero[2] = { 0, 0 };
			uint32_t c = fslab_crc32c(seed, le_group, 4);
			c = fslab_crc32c(c, d, 0x1E);
			c = fslab_crc32c(c, zero, 2);
			if (desc_size > 0x20)
				c = fslab_crc32c(c, d + 0x20, desc_size - 0x20);
			int ok = (c & 0xFFFF) == le16(d + 0x1E);
			bad_csums += !ok;
			fslab_json_bool(j, "desc_checksum_ok", ok);
		}
		sum_free += fc;
		sum_free_inodes += fi;
		if (!(flags & BG_BLOCK_UNINIT) && bb < blocks && (bb + 1) * bs <= len) {
			const uint8_t *map = img + bb * bs;
			uint32_t z = zero_bits(map, gclusters);
			sum_bitmap_free += z;
			fslab_json_u64(j, "bitmap_free_clusters", z);
			if (csum) {
				uint32_t c = fslab_crc32c(seed, map, cpg / 8);
				uint32_t want = le16(d + 0x18) | (desc_size >= 0x3C ? (uint32_t)le16(d + 0x38) << 16 : 0);
				int ok = (desc_size >= 0x3C ? c : (c & 0xFFFF)) == want;
				bad_csums += !ok;
				fslab_json_bool(j, "block_bitmap_checksum_ok", ok);
			}
		} else {
			bitmaps_complete = 0;
			if (!(flags & BG_BLOCK_UNINIT))
				fslab_json_str(j, "error", "block bitmap lies outside the volume or the image");
		}
		if (!(flags & BG_INODE_UNINIT) && ib < blocks && (ib + 1) * bs <= len)
			fslab_json_u64(j, "bitmap_free_inodes", zero_bits(img + ib * bs, ipg));
		fslab_json_close(j, '}');
	}
	fslab_json_close(j, ']');
	fslab_json_open(j, "counts", '{');
	fslab_json_u64(j, "free_clusters_in_descriptors", sum_free);
	fslab_json_u64(j, "free_blocks_in_descriptors", sum_free * ratio);
	if (bitmaps_complete)
		fslab_json_u64(j, "free_clusters_in_bitmaps", sum_bitmap_free);
	fslab_json_u64(j, "free_inodes_in_descriptors", sum_free_inodes);
	fslab_json_u64(j, "bad_checksums", bad_csums);
	fslab_json_close(j, '}');

	/* every inode in use with extents: its tree walked (inode bitmaps of initialised groups) */
	char dmg[MAX_DAMAGE][160];
	uint32_t ndmg = 0, more = 0, in_use = 0, with_extents = 0, listed = 0;
	uint32_t isize = le16(sb + 0x58) ? le16(sb + 0x58) : 128;
	struct ext e = { .img = img, .len = len, .bs = bs, .blocks = blocks, .damage = dmg, .ndamage = &ndmg, .more = &more };
	fslab_json_open(j, "extent_files", '[');
	for (uint64_t g = 0; g < groups && isize >= 128 && isize <= bs; g++) {
		const uint8_t *d = img + gdt + g * desc_size;
		int wide = desc_size >= 64;
		uint64_t ib = le32(d + 0x04) | (wide ? (uint64_t)le32(d + 0x24) << 32 : 0);
		uint64_t it = le32(d + 0x08) | (wide ? (uint64_t)le32(d + 0x28) << 32 : 0);
		if ((le16(d + 0x12) & BG_INODE_UNINIT) || ib >= blocks || (ib + 1) * bs > len)
			continue;
		const uint8_t *map = img + ib * bs;
		for (uint32_t i = 0; i < ipg; i++) {
			if (!((map[i >> 3] >> (i & 7)) & 1))
				continue;
			uint64_t at = it * bs + (uint64_t)i * isize;
			if (it >= blocks || at + isize > len)
				break;
			const uint8_t *inode = img + at;
			in_use++;
			if (!(le32(inode + 0x20) & EXT4_EXTENTS_FL))
				continue;
			with_extents++;
			e.ino = (uint32_t)(g * ipg + i + 1);
			e.nodes = e.extents = e.depth = 0;
			e.mapped = 0;
			int bad = walk_extents(&e, inode + 0x28, 60, -1);
			if (listed++ < MAX_FILES) {
				fslab_json_open(j, NULL, '{');
				fslab_json_u64(j, "inode", e.ino);
				fslab_json_u64(j, "depth", e.depth);
				fslab_json_u64(j, "extents", e.extents);
				fslab_json_u64(j, "blocks", e.mapped);
				if (bad)
					fslab_json_bool(j, "damaged", 1);
				fslab_json_close(j, '}');
			}
		}
	}
	fslab_json_close(j, ']');
	fslab_json_u64(j, "inodes_in_use", in_use);
	fslab_json_u64(j, "inodes_with_extents", with_extents);
	fslab_json_open(j, "damage", '[');
	for (uint32_t k = 0; k < ndmg; k++)
		fslab_json_str(j, NULL, dmg[k]);
	fslab_json_close(j, ']');
	fslab_json_u64(j, "damage_more", more);
	fslab_json_close(j, '}');
	return 0;
}

/* the magic the kernel's own probe looks at */
static int ext4_probe(const uint8_t *img, size_t len)
{
	return len >= 1082 && img[1080] == 0x53 && img[1081] == 0xEF;
}

const struct fslab_inspector fslab_inspector_ext4 = {
	.name = "ext2/3/4",
	.probe = ext4_probe,
	.absent = "no 0xEF53 at 1080",
	.inspect = ext4_inspect,
};
