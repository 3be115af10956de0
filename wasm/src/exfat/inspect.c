/* SPDX-License-Identifier: MIT */
/*
 * exFAT inspector: the boot region, FAT, allocation bitmap, up-case table and every
 * directory entry set of a real volume, with each file's cluster chain as runs, and a
 * cross-check of the chains against the bitmap (what fsck.exfat verifies).
 * Layouts from the exFAT specification and fs/exfat/exfat_raw.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/utf.h"
#include "fslab/exfat.h"
#include "fslab/inspect_report.h"
#include "fslab/le.h"

#define EXFAT_DENTRY_SIZE 32
#define EXFAT_EOF_MIN 0xFFFFFFF8u /* media-type values and EOF end a chain */
#define MAX_DIR_DEPTH 64
#define MAX_DIR_BYTES (256ull << 20) /* exFAT's limit on a directory's size */

/* entry types (exfat_raw.h) */
#define TYPE_UNUSED 0x00
#define TYPE_BITMAP 0x81
#define TYPE_UPCASE 0x82
#define TYPE_VOLUME 0x83
#define TYPE_FILE 0x85
#define TYPE_STREAM 0xC0
#define TYPE_NAME 0xC1
#define IS_IN_USE(t) ((t) & 0x80)
#define ATTR_SUBDIR 0x0010
#define STREAM_NO_FAT_CHAIN 0x02

struct ctx {
	const uint8_t *img;
	size_t len;
	struct fslab_json *j;
	char *err;
	uint32_t sect_bits, clus_bits, cluster_count, fat_off, heap_off;
	uint64_t clus_size;
	uint8_t *seen; /* clusters reached through a chain: bit (clu - 2) */
	uint8_t *mark; /* clusters of the chain being walked, to find it looping (cleared after each walk) */
	uint32_t *owner; /* for each cluster reached: 1 + the index in owners of the chain that reached it first */
	struct inspect_names owners; /* the chains' owners by name: "/", a path, "(allocation bitmap)" */
	uint32_t cross_linked, directories, files, deleted_entries;
	const uint8_t *bitmap; /* the allocation bitmap's bytes in the image */
	uint64_t bitmap_len;
};


#define fail(c, ...) inspect_error((c)->err, __VA_ARGS__)

static int valid_cluster(const struct ctx *c, uint32_t clu)
{
	return clu >= EXFAT_FIRST_CLUSTER && clu - EXFAT_FIRST_CLUSTER < c->cluster_count;
}

/* the bytes of a cluster, or NULL if the image ends before it */
static const uint8_t *cluster(const struct ctx *c, uint32_t clu)
{
	uint64_t off = ((uint64_t)c->heap_off << c->sect_bits) + (uint64_t)(clu - EXFAT_FIRST_CLUSTER) * c->clus_size;

	return off + c->clus_size <= c->len ? c->img + off : NULL;
}

static uint32_t fat_entry(const struct ctx *c, uint32_t clu)
{
	return le32(c->img + ((uint64_t)c->fat_off << c->sect_bits) + 4ull * clu);
}

/* exFAT's rotate-and-add checksums (spec 3.1.3, 6.3.3, 7.2.2) */
static uint32_t boot_checksum(const uint8_t *p, size_t n)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i == 106 || i == 107 || i == 112)
			continue; /* VolumeFlags and PercentInUse change without rewriting the sum */
		sum = ((sum & 1) ? 0x80000000u : 0) + (sum >> 1) + p[i];
	}
	return sum;
}

static uint32_t table_checksum(const uint8_t *p, uint64_t n)
{
	uint32_t sum = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		sum = ((sum & 1) ? 0x80000000u : 0) + (sum >> 1) + p[i];
	return sum;
}

static uint16_t entry_set_checksum(const uint8_t *p, unsigned int entries)
{
	uint16_t sum = 0;
	unsigned int i;

	for (i = 0; i < entries * EXFAT_DENTRY_SIZE; i++) {
		if (i == 2 || i == 3)
			continue; /* the SetChecksum field itself */
		sum = (uint16_t)(((sum & 1) ? 0x8000 : 0) + (sum >> 1) + p[i]);
	}
	return sum;
}

struct clus_list {
	uint32_t *v;
	uint32_t n, cap;
	int oom;
};

static void clus_push(struct clus_list *l, uint32_t clu)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 64;
		uint32_t *v = realloc(l->v, sizeof(*v) * cap);
		if (!v) {
			l->oom = 1;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = clu;
}

static uint32_t chain_next(const struct ctx *c, uint32_t clu, int no_fat_chain)
{
	return no_fat_chain ? clu + 1 : fat_entry(c, clu);
}

/*
 * Walks a chain, `owner` naming whose it is. With `runs_key`, marks its clusters as seen
 * (naming the first other chain it shares clusters with: "cross_link") and writes them as
 * runs; with `out`, collects them (up to a directory's most, 256 MiB). A contiguous
 * (NoFatChain) chain takes its length from `size`; a FAT chain ends at EOF. A chain is
 * bounded: it stops where it comes back to one of its own clusters ("the chain loops"), leaves
 * the heap, or meets a free or bad FAT entry, and says so in "chain_error". Returns the
 * clusters in the chain.
 */
static uint32_t walk_chain(struct ctx *c, uint32_t first, int no_fat_chain, uint64_t size,
			   const char *runs_key, struct clus_list *out, const char *owner)
{
	uint64_t want = (size + c->clus_size - 1) >> (c->sect_bits + c->clus_bits);
	uint32_t n = 0, clu = first, prev = 0, run_start = first, run_len = 0, me = 0, shared = 0, shared_clu = 0, other = 0;
	const char *problem = NULL;
	char msg[160];

	if (runs_key) {
		fslab_json_open(c->j, runs_key, '[');
		me = inspect_name_add(&c->owners, owner);
	}
	if (first == 0 || (no_fat_chain && want == 0))
		goto done;
	for (;;) {
		if (!valid_cluster(c, clu)) {
			if (n)
				snprintf(msg, sizeof(msg), "cluster %u links to %u, outside the heap (clusters 2-%u)", prev, clu,
					 c->cluster_count + 1);
			else
				snprintf(msg, sizeof(msg), "first cluster %u is outside the heap (clusters 2-%u)", clu, c->cluster_count + 1);
			problem = msg;
			break;
		}
		uint32_t bit = clu - EXFAT_FIRST_CLUSTER;
		if (c->mark[bit >> 3] & (1u << (bit & 7))) {
			snprintf(msg, sizeof(msg), "the chain loops: cluster %u leads back to cluster %u, after %u cluster%s", prev, clu, n, n == 1 ? "" : "s");
			problem = msg;
			break;
		}
		c->mark[bit >> 3] |= (uint8_t)(1u << (bit & 7));
		if (runs_key) {
			if (c->seen[bit >> 3] & (1u << (bit & 7))) {
				c->cross_linked++;
				if (!shared++) {
					shared_clu = clu;
					other = c->owner[bit];
				}
			} else {
				c->owner[bit] = me;
			}
			c->seen[bit >> 3] |= (uint8_t)(1u << (bit & 7));
		}
		if (out) {
			if ((uint64_t)out->n * c->clus_size >= MAX_DIR_BYTES) {
				c->mark[bit >> 3] &= (uint8_t)~(1u << (bit & 7)); /* not walked after all */
				break;
			}
			clus_push(out, clu);
		}
		n++;
		if (run_len && clu == run_start + run_len) {
			run_len++;
		} else {
			if (run_len && runs_key)
				inspect_json_run(c->j, run_start, run_len);
			run_start = clu;
			run_len = 1;
		}
		if (no_fat_chain) {
			if (n == want)
				break;
		} else {
			uint32_t next = fat_entry(c, clu);
			if (next >= EXFAT_EOF_MIN)
				break;
			if (next == EXFAT_FREE_CLUSTER || next == EXFAT_BAD_CLUSTER) {
				snprintf(msg, sizeof(msg), "FAT entry of cluster %u is %s inside a chain", clu,
					 next ? "BAD" : "free (0)");
				problem = msg;
				break;
			}
		}
		prev = clu;
		clu = chain_next(c, clu, no_fat_chain);
	}
	if (run_len && runs_key)
		inspect_json_run(c->j, run_start, run_len);
	/* the marks go again: walk the same n clusters once more */
	for (uint32_t k = 0, x = first; k < n; k++, x = chain_next(c, x, no_fat_chain))
		c->mark[(x - EXFAT_FIRST_CLUSTER) >> 3] &= (uint8_t)~(1u << ((x - EXFAT_FIRST_CLUSTER) & 7));
done:
	if (runs_key) {
		fslab_json_close(c->j, ']');
		if (problem)
			fslab_json_str(c->j, "chain_error", problem);
		else if (!no_fat_chain && want && n != want) {
			snprintf(msg, sizeof(msg), "chain has %u clusters, its size needs %llu", n, (unsigned long long)want);
			fslab_json_str(c->j, "chain_error", msg);
		}
		if (shared) {
			snprintf(msg, sizeof(msg), "%u cluster%s also in %s, from cluster %u", shared, shared == 1 ? "" : "s",
				 inspect_name(&c->owners, other, "another chain"), shared_clu);
			fslab_json_str(c->j, "cross_link", msg);
		}
	}
	return n;
}

/* A directory's bytes, gathered from its chain into one buffer (caller frees). */
static uint8_t *read_dir(struct ctx *c, uint32_t first, int no_fat_chain, uint64_t size, uint64_t *bytes)
{
	struct clus_list l = { 0 };
	uint8_t *buf;
	uint32_t i;

	*bytes = 0;
	walk_chain(c, first, no_fat_chain, size, NULL, &l, NULL);
	buf = l.oom ? NULL : malloc((size_t)(l.n ? l.n : 1) * c->clus_size);
	for (i = 0; buf && i < l.n; i++) {
		const uint8_t *p = cluster(c, l.v[i]);
		if (!p)
			break;
		memcpy(buf + (size_t)i * c->clus_size, p, c->clus_size);
	}
	*bytes = (uint64_t)i * c->clus_size;
	free(l.v);
	return buf;
}

/* root: the root directory's own entries (bitmap, up-case table, label), written first */
static int walk_dir(struct ctx *c, const uint8_t *d, uint64_t bytes, const char *path, int depth, int root);

static int file_set(struct ctx *c, const uint8_t *d, uint64_t bytes, uint64_t pos, const char *path,
		    int depth, unsigned int *consumed)
{
	const uint8_t *e = d + pos;
	unsigned int sec = e[1], i, name_len, name_entries;
	uint16_t attr = le16(e + 4);

	*consumed = 1;
	fslab_json_open(c->j, NULL, '{');
	fslab_json_u64(c->j, "entry", pos / EXFAT_DENTRY_SIZE);
	if (sec < 2 || sec > 18 || pos + (uint64_t)(sec + 1) * EXFAT_DENTRY_SIZE > bytes ||
	    e[EXFAT_DENTRY_SIZE] != TYPE_STREAM) {
		fslab_json_str(c->j, "error", "file entry without a complete entry set (stream extension and names)");
		fslab_json_close(c->j, '}');
		return 0;
	}
	*consumed = sec + 1;
	const uint8_t *s = e + EXFAT_DENTRY_SIZE;
	name_len = s[3];
	name_entries = (name_len + 14) / 15;
	if (name_entries + 1 > sec) {
		fslab_json_str(c->j, "error", "name longer than its name entries");
		fslab_json_close(c->j, '}');
		return 0;
	}
	/* the name's UTF-16 units, gathered from its name entries */
	uint8_t name[255 * 2];
	for (i = 0; i < name_entries; i++) {
		const uint8_t *ne = e + (uint64_t)(2 + i) * EXFAT_DENTRY_SIZE;
		unsigned int units = name_len - i * 15 < 15 ? name_len - i * 15 : 15;
		if (ne[0] != TYPE_NAME)
			break;
		memcpy(name + i * 30, ne + 2, units * 2);
	}
	fslab_json_utf16(c->j, "name", name, i == name_entries ? name_len : 0);
	char child[1024];
	int plen = snprintf(child, sizeof(child), "%s/", path);
	/* the path in UTF-8 like the name; control characters as U+FFFD (paths are for reading) */
	if (plen < (int)sizeof(child))
		fslab_utf16le_to_utf8(name, i == name_entries ? name_len : 0, child + plen, sizeof(child) - (size_t)plen, 1);
	fslab_json_str(c->j, "path", child);
	fslab_json_bool(c->j, "dir", attr & ATTR_SUBDIR);
	fslab_json_u64(c->j, "attributes", attr);
	fslab_json_u64(c->j, "secondary_count", sec);
	fslab_json_bool(c->j, "checksum_ok", entry_set_checksum(e, sec + 1) == le16(e + 2));
	fslab_json_bool(c->j, "no_fat_chain", s[1] & STREAM_NO_FAT_CHAIN);
	fslab_json_u64(c->j, "first_cluster", le32(s + 20));
	fslab_json_u64(c->j, "valid_data_length", le64(s + 8));
	fslab_json_u64(c->j, "data_length", le64(s + 24));
	uint32_t first = le32(s + 20);
	uint64_t size = le64(s + 24);
	uint32_t cross = c->cross_linked;
	walk_chain(c, first, s[1] & STREAM_NO_FAT_CHAIN, size, "runs", NULL, child);
	/* a directory sharing clusters with another chain could lead back to an ancestor */
	int enter = (attr & ATTR_SUBDIR) && c->cross_linked == cross;
	if ((attr & ATTR_SUBDIR) && !enter)
		fslab_json_str(c->j, "error", "directory shares clusters with another chain; not entered");
	fslab_json_close(c->j, '}');

	if (attr & ATTR_SUBDIR) {
		c->directories++;
		if (!enter)
			return 0;
		if (depth >= MAX_DIR_DEPTH)
			return fail(c, "directories nest deeper than %d at %s", MAX_DIR_DEPTH, child);
		uint64_t dbytes;
		uint8_t *sub = read_dir(c, first, s[1] & STREAM_NO_FAT_CHAIN, size, &dbytes);
		if (!sub)
			return fail(c, "out of memory reading directory %s", child);
		int ret = walk_dir(c, sub, dbytes, child, depth + 1, 0);
		free(sub);
		return ret;
	}
	c->files++;
	return 0;
}

static int walk_dir(struct ctx *c, const uint8_t *d, uint64_t bytes, const char *path, int depth, int root)
{
	uint64_t pos = 0;

	while (pos + EXFAT_DENTRY_SIZE <= bytes) {
		const uint8_t *e = d + pos;
		unsigned int consumed = 1;

		if (e[0] == TYPE_UNUSED)
			break; /* end of directory: no entry after this one is in use */
		if (!IS_IN_USE(e[0])) {
			c->deleted_entries += !root;
		} else if (e[0] == TYPE_FILE && !root) {
			int ret = file_set(c, d, bytes, pos, path, depth, &consumed);
			if (ret)
				return ret;
		} else if (root && e[0] == TYPE_BITMAP && !c->bitmap) {
			uint32_t first = le32(e + 20);
			uint64_t size = le64(e + 24);
			fslab_json_open(c->j, "bitmap", '{');
			fslab_json_u64(c->j, "entry", pos / EXFAT_DENTRY_SIZE);
			fslab_json_u64(c->j, "first_cluster", first);
			fslab_json_u64(c->j, "data_length", size);
			uint32_t n = walk_chain(c, first, 1, size, "runs", NULL, "(allocation bitmap)");
			fslab_json_close(c->j, '}');
			/* mkfs.exfat and the kernel keep the bitmap contiguous; so does this reader */
			if (size < ((uint64_t)c->cluster_count + 7) / 8 || !n || (uint64_t)n * c->clus_size < size ||
			    !cluster(c, first + n - 1))
				return fail(c, "allocation bitmap at cluster %u (%llu bytes) does not cover %u clusters", first,
					    (unsigned long long)size, c->cluster_count);
			c->bitmap = cluster(c, first);
			c->bitmap_len = size;
		} else if (root && e[0] == TYPE_UPCASE) {
			uint32_t first = le32(e + 20);
			uint64_t size = le64(e + 24);
			fslab_json_open(c->j, "upcase", '{');
			fslab_json_u64(c->j, "entry", pos / EXFAT_DENTRY_SIZE);
			fslab_json_u64(c->j, "first_cluster", first);
			fslab_json_u64(c->j, "data_length", size);
			fslab_json_u64(c->j, "checksum", le32(e + 4));
			uint32_t n = walk_chain(c, first, 1, size, "runs", NULL, "(up-case table)");
			const uint8_t *p = n ? cluster(c, first) : NULL;
			int ok = p && (uint64_t)n * c->clus_size >= size && cluster(c, first + n - 1) &&
				 table_checksum(p, size) == le32(e + 4);
			fslab_json_bool(c->j, "checksum_ok", ok);
			fslab_json_close(c->j, '}');
		} else if (root && e[0] == TYPE_VOLUME) {
			unsigned int units = e[1] > 11 ? 11 : e[1];
			fslab_json_utf16(c->j, "label", e + 2, units);
		}
		pos += (uint64_t)consumed * EXFAT_DENTRY_SIZE;
	}
	return 0;
}

static int parse(struct ctx *c)
{
	const uint8_t *b = c->img;
	struct fslab_json *j = c->j;

	if (c->len < 512)
		return fail(c, "not an exFAT volume: the image is %zu bytes, shorter than a boot sector", c->len);
	if (memcmp(b + 3, "EXFAT   ", 8))
		return fail(c, "not an exFAT volume: no \"EXFAT   \" file system name at byte 3");
	if (le16(b + 510) != 0xAA55)
		return fail(c, "not an exFAT volume: bad boot signature at 510");
	c->sect_bits = b[108];
	c->clus_bits = b[109];
	if (c->sect_bits < 9 || c->sect_bits > 12)
		return fail(c, "bad BytesPerSectorShift %u at byte 108 (9..12)", c->sect_bits);
	if (c->clus_bits > 25 - c->sect_bits)
		return fail(c, "bad SectorsPerClusterShift %u at byte 109 (clusters up to 32 MiB)", c->clus_bits);
	c->clus_size = 1ull << (c->sect_bits + c->clus_bits);
	c->fat_off = le32(b + 80);
	c->heap_off = le32(b + 88);
	c->cluster_count = le32(b + 92);
	uint32_t fat_len = le32(b + 84), root = le32(b + 96);
	uint64_t sector = 1ull << c->sect_bits;

	if (12 * sector > c->len)
		return fail(c, "the image ends inside the boot region (%zu bytes)", c->len);
	if (b[110] < 1 || b[110] > 2)
		return fail(c, "bad NumberOfFats %u at byte 110", b[110]);
	if (c->cluster_count > 0xFFFFFFF5u || (uint64_t)fat_len * sector < 4ull * (c->cluster_count + 2))
		return fail(c, "FAT of %u sectors cannot hold %u clusters", fat_len, c->cluster_count);
	if (((uint64_t)c->fat_off + fat_len) * sector > c->len)
		return fail(c, "the FAT (sectors %u..%u) lies beyond the end of the image", c->fat_off, c->fat_off + fat_len);
	if (!valid_cluster(c, root) || !cluster(c, root))
		return fail(c, "root directory cluster %u is outside the cluster heap or the image", root);

	fslab_json_open(j, NULL, '{');
	fslab_json_str(j, "fs", "exfat");
	fslab_json_open(j, "boot", '{');
	fslab_json_u64(j, "partition_offset", le64(b + 64));
	fslab_json_u64(j, "volume_length", le64(b + 72));
	fslab_json_u64(j, "fat_offset", c->fat_off);
	fslab_json_u64(j, "fat_length", fat_len);
	fslab_json_u64(j, "cluster_heap_offset", c->heap_off);
	fslab_json_u64(j, "cluster_count", c->cluster_count);
	fslab_json_u64(j, "root_cluster", root);
	fslab_json_u64(j, "volume_serial", le32(b + 100));
	fslab_json_u64(j, "fs_revision", le16(b + 104));
	fslab_json_u64(j, "volume_flags", le16(b + 106));
	fslab_json_u64(j, "bytes_per_sector_shift", c->sect_bits);
	fslab_json_u64(j, "sectors_per_cluster_shift", c->clus_bits);
	fslab_json_u64(j, "number_of_fats", b[110]);
	fslab_json_u64(j, "percent_in_use", b[112]);
	fslab_json_bool(j, "checksum_ok", boot_checksum(b, 11 * sector) == le32(b + 11 * sector));
	fslab_json_close(j, '}');
	fslab_json_u64(j, "cluster_size", c->clus_size);
	fslab_json_open(j, "fat", '{');
	fslab_json_u64(j, "media", fat_entry(c, 0));
	fslab_json_u64(j, "entry1", fat_entry(c, 1));
	fslab_json_close(j, '}');

	c->seen = calloc(((uint64_t)c->cluster_count + 7) / 8 + 1, 1);
	c->mark = calloc(((uint64_t)c->cluster_count + 7) / 8 + 1, 1);
	c->owner = calloc((uint64_t)c->cluster_count + 1, sizeof(uint32_t));
	if (!c->seen || !c->mark || !c->owner)
		return fail(c, "out of memory for %u clusters", c->cluster_count);
	fslab_json_open(j, "root", '{');
	fslab_json_u64(j, "first_cluster", root);
	walk_chain(c, root, 0, 0, "runs", NULL, "/ (the root directory)");
	fslab_json_close(j, '}');
	c->directories = 1;

	uint64_t bytes;
	uint8_t *d = read_dir(c, root, 0, 0, &bytes);
	if (!d)
		return fail(c, "out of memory reading the root directory");
	int ret = walk_dir(c, d, bytes, "", 0, 1);
	if (!ret) {
		fslab_json_open(j, "files", '[');
		ret = walk_dir(c, d, bytes, "", 0, 0);
		fslab_json_close(j, ']');
	}
	free(d);
	if (ret)
		return ret;
	if (!c->bitmap)
		return fail(c, "no allocation bitmap entry in the root directory");

	/* the bitmap against the chains: fsck.exfat's check */
	uint32_t used = 0, unmarked = 0, leaked = 0, i;
	for (i = 0; i < c->cluster_count; i++) {
		int in_map = (c->bitmap[i >> 3] >> (i & 7)) & 1, in_chain = (c->seen[i >> 3] >> (i & 7)) & 1;
		used += in_map;
		unmarked += in_chain && !in_map;
		leaked += in_map && !in_chain;
	}
	fslab_json_open(j, "counts", '{');
	fslab_json_u64(j, "directories", c->directories);
	fslab_json_u64(j, "files", c->files);
	fslab_json_u64(j, "deleted_entries", c->deleted_entries);
	fslab_json_u64(j, "used_clusters", used);
	fslab_json_u64(j, "free_clusters", c->cluster_count - used);
	fslab_json_u64(j, "unmarked_clusters", unmarked);
	fslab_json_u64(j, "leaked_clusters", leaked);
	fslab_json_u64(j, "cross_linked_clusters", c->cross_linked);
	fslab_json_close(j, '}');
	fslab_json_close(j, '}');
	return 0;
}

static int exfat_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err)
{
	struct ctx c = { .img = img, .len = len, .j = out, .err = err };
	int ret;

	err[0] = 0;
	ret = parse(&c);
	free(c.seen);
	free(c.mark);
	free(c.owner);
	inspect_names_free(&c.owners);
	if (!ret && out->oom)
		ret = fail(&c, "out of memory writing the report");
	return ret;
}

/* the magic the kernel's own probe looks at */
static int exfat_probe(const uint8_t *img, size_t len)
{
	return len >= 11 && !memcmp(img + 3, "EXFAT   ", 8);
}

const struct fslab_inspector fslab_inspector_exfat = {
	.name = "exFAT",
	.probe = exfat_probe,
	.absent = "no \"EXFAT   \" at byte 3",
	.inspect = exfat_inspect,
};
