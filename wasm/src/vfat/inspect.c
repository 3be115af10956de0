/* SPDX-License-Identifier: MIT */
/*
 * VFAT inspector: the BPB of a FAT12/16/32 volume, its FAT (free clusters, chains), and
 * every directory's entries: each 8.3 name as raw bytes and as read in code pages 437 and
 * 932, with the long name its long-name entries spell, checked against their checksum
 * (fs/fat/dir.c fat_parse_long). Layout from the FAT specification and fs/fat/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/utf.h"
#include "fslab/inspect_report.h"
#include "fslab/le.h"
#include "fslab/vfat.h"

#define ATTR_DIR 0x10
#define ATTR_VOLUME 0x08
#define ATTR_EXT 0x0F
#define MAX_DEPTH 64
#define MAX_DIR_BYTES (2u << 20) /* 65,536 entries: the most a FAT directory holds */

struct fat {
	const uint8_t *img;
	size_t len;
	struct fslab_json *j;
	char *err;
	int bits; /* 12, 16, 32 */
	uint32_t bps, spc, rsvd, nfats, fatsz, root_ents, first_data, clusters, root_clus;
	uint8_t *seen; /* clusters reached through a chain: bit (c - 2) */
	uint8_t *mark; /* clusters of the chain being walked, to find it looping (cleared after each walk) */
	uint32_t *owner; /* for each cluster reached: 1 + the index in owners of the chain that reached it first */
	struct inspect_names owners; /* the chains' owners by name: "/" (FAT32's root), a path */
	uint32_t dirs, files, cross;
};

#define fail inspect_error

static uint32_t fat_entry(const struct fat *f, uint32_t c)
{
	const uint8_t *t = f->img + (size_t)f->rsvd * f->bps;

	if (f->bits == 12) {
		uint16_t v = le16(t + c + c / 2);
		return c & 1 ? v >> 4 : v & 0xFFF;
	}
	return f->bits == 16 ? le16(t + 2 * c) : le32(t + 4 * c) & 0x0FFFFFFF;
}

static uint32_t eoc(const struct fat *f) { return f->bits == 12 ? 0xFF8 : f->bits == 16 ? 0xFFF8 : 0x0FFFFFF8; }
static int valid(const struct fat *f, uint32_t c) { return c >= 2 && c - 2 < f->clusters; }

static const uint8_t *cluster(const struct fat *f, uint32_t c)
{
	size_t off = ((size_t)f->first_data + (size_t)(c - 2) * f->spc) * f->bps;
	return off + (size_t)f->spc * f->bps <= f->len ? f->img + off : NULL;
}

#define BIT(map, b) ((map)[(b) >> 3] & (1u << ((b) & 7)))
#define SET(map, b) ((map)[(b) >> 3] |= (uint8_t)(1u << ((b) & 7)))
#define CLEAR(map, b) ((map)[(b) >> 3] &= (uint8_t)~(1u << ((b) & 7)))

/*
 * Follows a chain from `first`, `owner` naming whose it is. With `runs_key`, marks its
 * clusters as seen (naming the first earlier chain it shares clusters with: "cross_link") and
 * writes them as runs; with `out`, collects them (up to `max`). A chain is bounded: it stops
 * where it comes back to one of its own clusters ("the chain loops"), leaves the data area, or
 * meets a free or bad FAT entry, and says so in "chain_error". Returns the clusters walked.
 */
static uint32_t chain(struct fat *f, uint32_t first, const char *runs_key, uint32_t *out, uint32_t max, const char *owner)
{
	uint32_t n = 0, c = first, prev = 0, rs = first, rl = 0, me = 0, shared = 0, shared_clu = 0, other = 0;
	const char *problem = NULL;
	char msg[160];

	if (runs_key) {
		fslab_json_open(f->j, runs_key, '[');
		me = inspect_name_add(&f->owners, owner);
	}
	while (first) {
		if (!valid(f, c)) {
			if (n)
				snprintf(msg, sizeof(msg), "cluster %u links to %u, outside the data area (clusters 2-%u)", prev, c, f->clusters + 1);
			else
				snprintf(msg, sizeof(msg), "first cluster %u is outside the data area (clusters 2-%u)", c, f->clusters + 1);
			problem = msg;
			break;
		}
		uint32_t b = c - 2;
		if (BIT(f->mark, b)) {
			snprintf(msg, sizeof(msg), "the chain loops: cluster %u leads back to cluster %u, after %u cluster%s", prev, c, n, n == 1 ? "" : "s");
			problem = msg;
			break;
		}
		SET(f->mark, b);
		if (runs_key) {
			if (BIT(f->seen, b)) {
				f->cross++;
				if (!shared++) {
					shared_clu = c;
					other = f->owner[b];
				}
			} else {
				f->owner[b] = me;
			}
			SET(f->seen, b);
		}
		if (out && n < max)
			out[n] = c;
		n++;
		if (rl && c == rs + rl) {
			rl++;
		} else {
			if (rl && runs_key)
				inspect_json_run(f->j, rs, rl);
			rs = c;
			rl = 1;
		}
		uint32_t next = fat_entry(f, c);
		if (next >= eoc(f))
			break;
		if (next == 0 || next == eoc(f) - 1) {
			snprintf(msg, sizeof(msg), "FAT entry of cluster %u is %s (0x%X) inside a chain", c, next ? "marked bad" : "free", next);
			problem = msg;
			break;
		}
		prev = c;
		c = next;
	}
	/* the marks go again: walk the same n clusters once more */
	for (uint32_t k = 0, x = first; k < n; k++, x = fat_entry(f, x))
		CLEAR(f->mark, x - 2);
	if (runs_key) {
		if (rl)
			inspect_json_run(f->j, rs, rl);
		fslab_json_close(f->j, ']');
		if (problem)
			fslab_json_str(f->j, "chain_error", problem);
		if (shared) {
			snprintf(msg, sizeof(msg), "%u cluster%s also in %s, from cluster %u", shared, shared == 1 ? "" : "s",
				 inspect_name(&f->owners, other, "another chain"), shared_clu);
			fslab_json_str(f->j, "cross_link", msg);
		}
	}
	return n;
}

static uint8_t *read_dir(struct fat *f, uint32_t first, size_t *bytes)
{
	size_t csize = (size_t)f->spc * f->bps, max = MAX_DIR_BYTES / csize + 1, i;
	uint32_t *cl = malloc(sizeof(uint32_t) * max);
	uint8_t *buf = NULL;
	uint32_t n;

	*bytes = 0;
	if (!cl)
		return NULL;
	n = chain(f, first, NULL, cl, (uint32_t)max, NULL);
	if (n > max)
		n = (uint32_t)max;
	buf = malloc(n ? n * csize : 1);
	for (i = 0; buf && i < n; i++) {
		const uint8_t *p = cluster(f, cl[i]);
		if (!p)
			break;
		memcpy(buf + i * csize, p, csize);
	}
	*bytes = i * csize;
	free(cl);
	return buf;
}

static int walk(struct fat *f, const uint8_t *d, size_t bytes, const char *path, int depth);

static void hex11(const uint8_t *s, char *o)
{
	for (int i = 0; i < 11; i++)
		snprintf(o + 2 * i, 3, "%02x", s[i]);
}

static int walk(struct fat *f, const uint8_t *d, size_t bytes, const char *path, int depth)
{
	uint16_t lfn[20 * 13];
	int lfn_next = 0, lfn_count = 0, lfn_start = -1;
	uint8_t lfn_sum = 0;

	for (size_t pos = 0; pos + 32 <= bytes; pos += 32) {
		const uint8_t *e = d + pos;
		if (e[0] == 0x00)
			break;
		if (e[0] == 0xE5) {
			lfn_next = 0;
			continue;
		}
		if ((e[11] & 0x3F) == ATTR_EXT) { /* a long-name entry: they come last part first */
			int ord = e[0] & 0x1F;
			if (e[0] & 0x40) {
				lfn_count = ord;
				lfn_next = ord;
				lfn_sum = e[13];
				lfn_start = (int)(pos / 32);
				for (int k = 0; k < 20 * 13; k++)
					lfn[k] = 0xFFFF;
			}
			if (ord < 1 || ord > 20 || ord != lfn_next || e[13] != lfn_sum) {
				lfn_next = 0;
				continue;
			}
			uint16_t *u = lfn + (ord - 1) * 13;
			for (int k = 0; k < 5; k++) u[k] = le16(e + 1 + 2 * k);
			for (int k = 0; k < 6; k++) u[5 + k] = le16(e + 14 + 2 * k);
			for (int k = 0; k < 2; k++) u[11 + k] = le16(e + 28 + 2 * k);
			lfn_next--;
			continue;
		}
		int has_lfn = lfn_count > 0 && lfn_next == 0 && lfn_sum == fat_checksum(e);
		int lfn_len = 0;
		if (has_lfn)
			while (lfn_len < lfn_count * 13 && lfn[lfn_len] != 0x0000 && lfn[lfn_len] != 0xFFFF)
				lfn_len++;
		int entries_before = has_lfn ? lfn_count : 0;
		int lfn_first = lfn_start;
		lfn_count = 0;
		lfn_next = 0;
		if (e[11] & ATTR_VOLUME)
			continue;
		if (e[0] == '.' && (e[1] == ' ' || (e[1] == '.' && e[2] == ' ')))
			continue;

		char raw[23], s437[40], s932[40], child[1024];
		uint32_t first = le16(e + 26) | (f->bits == 32 ? (uint32_t)le16(e + 20) << 16 : 0);
		hex11(e, raw);
		vfat_shortname_utf8(e, VFAT_CP437, s437);
		vfat_shortname_utf8(e, VFAT_CP932, s932);
		uint8_t units[20 * 13 * 2];
		for (int k = 0; k < lfn_len; k++) {
			units[2 * k] = (uint8_t)lfn[k];
			units[2 * k + 1] = (uint8_t)(lfn[k] >> 8);
		}
		int plen = snprintf(child, sizeof(child), "%s/", path);
		if (has_lfn) {
			/* the long name in UTF-8, as the long_name field; control characters as U+FFFD */
			if (plen < (int)sizeof(child))
				fslab_utf16le_to_utf8(units, (size_t)lfn_len, child + plen, sizeof(child) - (size_t)plen, 1);
		} else {
			snprintf(child + plen, sizeof(child) - (size_t)plen, "%s", s437);
		}
		fslab_json_open(f->j, NULL, '{');
		fslab_json_str(f->j, "path", child);
		fslab_json_u64(f->j, "entry", pos / 32);
		fslab_json_str(f->j, "short_raw", raw);
		fslab_json_str(f->j, "short_cp437", s437);
		fslab_json_str(f->j, "short_cp932", s932);
		fslab_json_u64(f->j, "lcase", e[12]);
		fslab_json_u64(f->j, "attr", e[11]);
		fslab_json_bool(f->j, "dir", e[11] & ATTR_DIR);
		if (has_lfn) {
			fslab_json_utf16(f->j, "long_name", units, (size_t)lfn_len);
			fslab_json_u64(f->j, "lfn_entries", (uint64_t)entries_before);
			fslab_json_u64(f->j, "lfn_first_entry", (uint64_t)lfn_first);
		}
		fslab_json_u64(f->j, "checksum", fat_checksum(e));
		fslab_json_u64(f->j, "first_cluster", first);
		fslab_json_u64(f->j, "size", le32(e + 28));
		uint32_t cross = f->cross;
		chain(f, first, "runs", NULL, 0, child);
		fslab_json_close(f->j, '}');
		if (e[11] & ATTR_DIR) {
			f->dirs++;
			if (first && f->cross == cross) {
				if (depth >= MAX_DEPTH)
					return fail(f->err, "directories nest deeper than %d at %s", MAX_DEPTH, child);
				size_t sub_bytes;
				uint8_t *sub = read_dir(f, first, &sub_bytes);
				if (!sub)
					return fail(f->err, "out of memory reading %s", child);
				int ret = walk(f, sub, sub_bytes, child, depth + 1);
				free(sub);
				if (ret)
					return ret;
			}
		} else {
			f->files++;
		}
	}
	return 0;
}

static void release(struct fat *f)
{
	inspect_names_free(&f->owners);
	free(f->owner);
	free(f->mark);
	free(f->seen);
}

static int vfat_inspect(const uint8_t *img, size_t len, struct fslab_json *j, char *err)
{
	struct fat f = { .img = img, .len = len, .j = j, .err = err };
	int ret = 0;

	err[0] = 0;
	if (len < 512 || le16(img + 510) != 0xAA55)
		return fail(err, "not a FAT volume: bad boot signature at 510");
	f.bps = le16(img + 11);
	f.spc = img[13];
	f.rsvd = le16(img + 14);
	f.nfats = img[16];
	f.root_ents = le16(img + 17);
	uint32_t tot = le16(img + 19) ? le16(img + 19) : le32(img + 32);
	f.fatsz = le16(img + 22) ? le16(img + 22) : le32(img + 36);
	if (f.bps < 512 || f.bps > 4096 || (f.bps & (f.bps - 1)))
		return fail(err, "bad bytes per sector %u at 11", f.bps);
	if (!f.spc || (f.spc & (f.spc - 1)))
		return fail(err, "bad sectors per cluster %u at 13", f.spc);
	if (!f.rsvd || !f.nfats || !f.fatsz)
		return fail(err, "bad BPB: %u reserved sectors, %u FATs of %u sectors", f.rsvd, f.nfats, f.fatsz);
	uint32_t root_secs = (f.root_ents * 32 + f.bps - 1) / f.bps;
	uint64_t first_data = (uint64_t)f.rsvd + (uint64_t)f.nfats * f.fatsz + root_secs;
	if (first_data >= tot)
		return fail(err, "bad BPB: the data area starts at sector %llu of %u", (unsigned long long)first_data, tot);
	f.first_data = (uint32_t)first_data;
	f.clusters = (tot - f.first_data) / f.spc;
	f.bits = f.clusters < 4085 ? 12 : f.clusters < 65525 ? 16 : 32;
	if ((uint64_t)f.fatsz * f.bps * 8 < (uint64_t)(f.clusters + 2) * (uint64_t)f.bits)
		return fail(err, "a FAT of %u sectors cannot hold %u clusters", f.fatsz, f.clusters);
	if (((uint64_t)f.rsvd + f.fatsz) * f.bps > len || (uint64_t)f.first_data * f.bps > len)
		return fail(err, "the image (%zu bytes) ends before the data area", len);
	f.root_clus = f.bits == 32 ? le32(img + 44) : 0;
	if (f.bits == 32 && !valid(&f, f.root_clus))
		return fail(err, "root directory cluster %u is outside the data area", f.root_clus);

	f.seen = calloc(f.clusters / 8 + 1, 1);
	f.mark = calloc(f.clusters / 8 + 1, 1);
	f.owner = calloc(f.clusters ? f.clusters : 1, sizeof(uint32_t));
	if (!f.seen || !f.mark || !f.owner) {
		release(&f);
		return fail(err, "out of memory for %u clusters", f.clusters);
	}
	fslab_json_open(j, NULL, '{');
	fslab_json_str(j, "fs", "vfat");
	fslab_json_str(j, "fat_type", f.bits == 12 ? "FAT12" : f.bits == 16 ? "FAT16" : "FAT32");
	fslab_json_open(j, "bpb", '{');
	fslab_json_u64(j, "bytes_per_sector", f.bps);
	fslab_json_u64(j, "sectors_per_cluster", f.spc);
	fslab_json_u64(j, "reserved_sectors", f.rsvd);
	fslab_json_u64(j, "fats", f.nfats);
	fslab_json_u64(j, "root_entries", f.root_ents);
	fslab_json_u64(j, "total_sectors", tot);
	fslab_json_u64(j, "fat_sectors", f.fatsz);
	fslab_json_u64(j, "root_cluster", f.root_clus);
	fslab_json_u64(j, "volume_id", le32(img + (f.bits == 32 ? 67 : 39)));
	fslab_json_close(j, '}');
	fslab_json_u64(j, "cluster_count", f.clusters);
	f.dirs = 1;
	size_t bytes;
	uint8_t *root;
	if (f.bits == 32) {
		fslab_json_open(j, "root", '{');
		chain(&f, f.root_clus, "runs", NULL, 0, "/");
		fslab_json_close(j, '}');
		root = read_dir(&f, f.root_clus, &bytes);
	} else {
		bytes = (size_t)root_secs * f.bps;
		size_t off = ((size_t)f.rsvd + (size_t)f.nfats * f.fatsz) * f.bps;
		root = off + bytes <= len ? malloc(bytes ? bytes : 1) : NULL;
		if (root)
			memcpy(root, img + off, bytes);
	}
	if (!root) {
		release(&f);
		return fail(err, "the root directory lies beyond the end of the image");
	}
	fslab_json_open(j, "files", '[');
	ret = walk(&f, root, bytes, "", 0);
	fslab_json_close(j, ']');
	free(root);
	if (!ret) {
		uint32_t free_clusters = 0;
		for (uint32_t c = 2; c < f.clusters + 2; c++)
			free_clusters += fat_entry(&f, c) == 0;
		fslab_json_open(j, "counts", '{');
		fslab_json_u64(j, "directories", f.dirs);
		fslab_json_u64(j, "files", f.files);
		fslab_json_u64(j, "free_clusters", free_clusters);
		fslab_json_u64(j, "cross_linked_clusters", f.cross);
		fslab_json_close(j, '}');
		fslab_json_close(j, '}');
	}
	release(&f);
	return ret;
}

/* the magic the kernel's own probe looks at */
static int vfat_probe(const uint8_t *img, size_t len)
{
	/* mkfs.fat names the type at 54 (FAT12/16) or 82 (FAT32); the BPB decides which it is */
	return len >= 512 && img[510] == 0x55 && img[511] == 0xAA && (!memcmp(img + 54, "FAT", 3) || !memcmp(img + 82, "FAT32", 5));
}

const struct fslab_inspector fslab_inspector_vfat = {
	.name = "FAT",
	.probe = vfat_probe,
	.absent = "no boot signature and \"FAT\" name",
	.inspect = vfat_inspect,
};
