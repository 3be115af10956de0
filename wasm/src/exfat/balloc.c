/* SPDX-License-Identifier: MIT */
/*
 * The allocation bitmap, after fs/exfat/balloc.c: one bit per cluster, cluster 2 at bit 0.
 */
#include <string.h>
#include "fslab/errno.h"
#include "fslab/exfat.h"

#define CLUSTER_TO_BITMAP_ENT(clu) ((clu) - EXFAT_FIRST_CLUSTER)
#define BITMAP_ENT_TO_CLUSTER(ent) ((ent) + EXFAT_FIRST_CLUSTER)

int exfat_test_bitmap(const struct exfat_volume *vol, uint32_t clu)
{
	uint32_t ent = CLUSTER_TO_BITMAP_ENT(clu);

	return (vol->vol_amap[ent >> 3] >> (ent & 7)) & 1;
}

int exfat_set_bitmap(struct exfat_volume *vol, uint32_t clu)
{
	uint32_t ent;

	if (!is_valid_cluster(vol, clu))
		return -FSLAB_EIO;
	ent = CLUSTER_TO_BITMAP_ENT(clu);
	vol->vol_amap[ent >> 3] |= (uint8_t)(1u << (ent & 7));
	fslab_emit_run(&vol->events, FSLAB_EV_EXFAT_BITMAP_SET, clu);
	return 0;
}

/*
 * Since Linux 6.15 this only clears the bit; before, it also issued a one-cluster discard
 * when the volume was mounted with -o discard. __exfat_free_cluster() picks which.
 */
int exfat_clear_bitmap(struct exfat_volume *vol, uint32_t clu)
{
	uint32_t ent;

	if (!is_valid_cluster(vol, clu))
		return -FSLAB_EIO;
	ent = CLUSTER_TO_BITMAP_ENT(clu);
	if (!((vol->vol_amap[ent >> 3] >> (ent & 7)) & 1))
		return -FSLAB_EIO;
	vol->vol_amap[ent >> 3] &= (uint8_t)~(1u << (ent & 7));
	fslab_emit_run(&vol->events, FSLAB_EV_EXFAT_BITMAP_CLEAR, clu);
	return 0;
}

/*
 * exfat_clear_bitmap() on n clusters from clu, one after another, as __exfat_free_cluster()
 * calls it: it stops at the first cluster that is invalid or already free, having cleared
 * those before it. Returns how many it cleared (n: all). The same bits and the same event
 * records as n calls; whole 64-bit words at a time where it can, for 80 GiB files.
 */
uint32_t exfat_clear_bitmap_run(struct exfat_volume *vol, uint32_t clu, uint32_t n)
{
	uint8_t *map = vol->vol_amap;
	uint32_t ent, end, e;

	if (!is_valid_cluster(vol, clu))
		return 0;
	if (n > vol->num_clusters - clu)
		n = vol->num_clusters - clu; /* the first invalid cluster stops it */
	ent = CLUSTER_TO_BITMAP_ENT(clu);
	end = ent + n;
	/* one pass, as the kernel's loop: clear each bit found set, stop at one found clear */
	for (e = ent; e < end && (e & 63); e++) {
		if (!((map[e >> 3] >> (e & 7)) & 1))
			goto done;
		map[e >> 3] &= (uint8_t)~(1u << (e & 7));
	}
	for (; e + 64 <= end; e += 64) {
		uint64_t w;

		memcpy(&w, map + (e >> 3), 8);
		if (w != ~(uint64_t)0)
			break;
		w = 0;
		memcpy(map + (e >> 3), &w, 8);
	}
	for (; e < end; e++) {
		if (!((map[e >> 3] >> (e & 7)) & 1))
			break;
		map[e >> 3] &= (uint8_t)~(1u << (e & 7));
	}
done:
	fslab_emit_run_n(&vol->events, FSLAB_EV_EXFAT_BITMAP_CLEAR, clu, e - ent);
	return e - ent;
}

static uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The kernel's search, a long at a time from the word holding clu (bits below clu masked
 * as used), wrapping to cluster 2 after the last word. Like the kernel, it visits each word
 * once, so a free cluster below clu in clu's own word is found only if nothing else is.
 */
uint32_t exfat_find_free_bitmap(const struct exfat_volume *vol, uint32_t clu)
{
	uint32_t ent_idx, clu_base, clu_mask, word, i;
	uint32_t words = (vol->num_clusters - EXFAT_FIRST_CLUSTER + EXFAT_BITS_PER_LONG - 1) / EXFAT_BITS_PER_LONG;

	if (clu < EXFAT_FIRST_CLUSTER || clu >= vol->num_clusters)
		clu = EXFAT_FIRST_CLUSTER;
	ent_idx = CLUSTER_TO_BITMAP_ENT(clu) & ~(EXFAT_BITS_PER_LONG - 1);
	clu_base = BITMAP_ENT_TO_CLUSTER(ent_idx);
	clu_mask = (1u << (clu - clu_base)) - 1; /* IGNORED_BITS_REMAINED */
	word = ent_idx / EXFAT_BITS_PER_LONG;

	for (i = EXFAT_FIRST_CLUSTER; i < vol->num_clusters; i += EXFAT_BITS_PER_LONG) {
		uint32_t bitval = load_le32(vol->vol_amap + word * 4);

		if (clu_mask) {
			bitval |= clu_mask;
			clu_mask = 0;
		}
		if (bitval != UINT32_MAX) {
			uint32_t clu_free = clu_base + (uint32_t)__builtin_ctz(~bitval); /* ffz */

			if (clu_free < vol->num_clusters)
				return clu_free;
		}
		clu_base += EXFAT_BITS_PER_LONG;
		word++;
		if (word >= words) {
			word = 0;
			clu_base = EXFAT_FIRST_CLUSTER;
		}
	}
	return EXFAT_EOF_CLUSTER;
}

uint32_t exfat_count_used_clusters(const struct exfat_volume *vol)
{
	uint32_t clu, used = 0;

	for (clu = EXFAT_FIRST_CLUSTER; clu < vol->num_clusters; clu++)
		used += (uint32_t)exfat_test_bitmap(vol, clu);
	return used;
}
