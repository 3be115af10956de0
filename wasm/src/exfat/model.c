/* SPDX-License-Identifier: MIT */
/*
 * The volume and its files: the state a learner creates and deletes files in. A file grows
 * the way exfat_cont_expand() (fs/exfat/file.c) grows it, and is deleted the way
 * __exfat_truncate() to zero frees it.
 */
#include "fslab/errno.h"
#include <stdlib.h>
#include <string.h>
#include "fslab/exfat.h"

struct exfat_volume *exfat_volume_new(uint32_t data_clusters, uint8_t sect_per_clus_bits)
{
	struct exfat_volume *vol;
	uint32_t num_clusters;

	/* the exFAT limit (2^32 - 11 clusters) and what a browser tab can hold */
	if (data_clusters < 1 || data_clusters > (1u << 28) || sect_per_clus_bits > 25)
		return NULL;
	num_clusters = data_clusters + EXFAT_FIRST_CLUSTER;
	vol = calloc(1, sizeof(*vol));
	if (!vol)
		return NULL;
	vol->num_clusters = num_clusters;
	vol->sect_size_bits = 9;
	vol->sect_per_clus_bits = sect_per_clus_bits;
	/* whole 32-bit words, so the long-at-a-time search never reads past the end */
	vol->map_bytes = ((data_clusters + 31) / 32) * 4;
	vol->vol_amap = calloc(vol->map_bytes, 1);
	vol->fat = calloc(num_clusters, sizeof(uint32_t));
	if (!vol->vol_amap || !vol->fat) {
		exfat_volume_free(vol);
		return NULL;
	}
	vol->fat[0] = 0xFFFFFFF8u; /* media type, as mkfs.exfat writes it */
	vol->fat[1] = 0xFFFFFFFFu;
	vol->clu_srch_ptr = EXFAT_FIRST_CLUSTER;
	vol->discard = 1;
	vol->batch_discard = EXFAT_DISCARD_BATCHED;
	fslab_events_init(&vol->events);
	return vol;
}

struct exfat_volume *exfat_volume_clone(const struct exfat_volume *src)
{
	struct exfat_volume *vol = exfat_volume_new(src->num_clusters - EXFAT_FIRST_CLUSTER, src->sect_per_clus_bits);

	if (!vol)
		return NULL;
	memcpy(vol->vol_amap, src->vol_amap, src->map_bytes);
	memcpy(vol->fat, src->fat, src->num_clusters * sizeof(uint32_t));
	vol->used_clusters = src->used_clusters;
	vol->clu_srch_ptr = src->clu_srch_ptr;
	vol->discard = src->discard;
	vol->batch_discard = src->batch_discard;
	memcpy(vol->files, src->files, sizeof(vol->files));
	return vol;
}

void exfat_volume_free(struct exfat_volume *vol)
{
	if (!vol)
		return;
	free(vol->vol_amap);
	free(vol->fat);
	fslab_events_free(&vol->events);
	free(vol);
}

static struct exfat_model_file *file_get(struct exfat_volume *vol, int id)
{
	if (id < 0 || id >= EXFAT_MODEL_MAX_FILES || !vol->files[id].in_use)
		return NULL;
	return &vol->files[id];
}

int exfat_file_create(struct exfat_volume *vol, const char *name)
{
	int id;

	for (id = 0; id < EXFAT_MODEL_MAX_FILES; id++) {
		struct exfat_model_file *f = &vol->files[id];

		if (f->in_use)
			continue;
		memset(f, 0, sizeof(*f));
		f->in_use = 1;
		strncpy(f->name, name ? name : "", EXFAT_MODEL_NAME_LEN - 1);
		f->chain.dir = EXFAT_EOF_CLUSTER;
		f->chain.flags = ALLOC_NO_FAT_CHAIN;
		return id;
	}
	return -FSLAB_ENFILE;
}

/* Walk `size` clusters of a FAT chain from dir to its last cluster. */
static int last_chain_cluster(const struct exfat_volume *vol, uint32_t dir, uint32_t size, uint32_t *last)
{
	uint32_t clu = dir;

	while (--size) {
		if (exfat_get_next_cluster(vol, &clu) || clu == EXFAT_EOF_CLUSTER)
			return -FSLAB_EIO;
	}
	*last = clu;
	return 0;
}

int exfat_file_append(struct exfat_volume *vol, int id, uint32_t clusters)
{
	struct exfat_model_file *f = file_get(vol, id);
	struct exfat_chain clu;
	uint32_t last_clu = EXFAT_EOF_CLUSTER;
	int ret;

	if (!f)
		return -FSLAB_ENOENT;
	if (!clusters)
		return 0;
	if (f->chain.size) {
		last_clu = f->last_clu;
		clu.dir = last_clu + 1;
	} else {
		clu.dir = EXFAT_EOF_CLUSTER;
	}
	clu.size = 0;
	clu.flags = f->chain.flags;

	ret = exfat_alloc_cluster(vol, clusters, &clu, 0);
	if (ret)
		return ret;

	if (f->chain.size) {
		if (clu.flags != f->chain.flags && exfat_chain_cont_cluster(vol, f->chain.dir, f->chain.size))
			return -FSLAB_EIO;
		if (clu.flags == ALLOC_FAT_CHAIN && exfat_ent_set(vol, last_clu, clu.dir))
			return -FSLAB_EIO;
	} else {
		f->chain.dir = clu.dir;
	}
	f->chain.flags = clu.flags;
	f->chain.size += clu.size;
	/* the new piece is NoFatChain-contiguous or ends at the FAT chain's last link */
	if (clu.flags == ALLOC_NO_FAT_CHAIN)
		f->last_clu = clu.dir + clu.size - 1;
	else if (last_chain_cluster(vol, clu.dir, clu.size, &f->last_clu))
		return -FSLAB_EIO;
	return 0;
}

int exfat_file_delete(struct exfat_volume *vol, int id)
{
	struct exfat_model_file *f = file_get(vol, id);
	int ret;

	if (!f)
		return -FSLAB_ENOENT;
	ret = __exfat_free_cluster(vol, &f->chain);
	f->in_use = 0;
	return ret;
}

int exfat_file_clusters(const struct exfat_volume *vol, int id, uint32_t *out, uint32_t max)
{
	const struct exfat_model_file *f = file_get((struct exfat_volume *)vol, id);
	uint32_t n = 0, clu;

	if (!f)
		return -FSLAB_ENOENT;
	if (!f->chain.size)
		return 0;
	clu = f->chain.dir;
	while (n < f->chain.size && n < max) {
		out[n++] = clu;
		if (f->chain.flags == ALLOC_NO_FAT_CHAIN)
			clu++;
		else if (n < f->chain.size && exfat_get_next_cluster(vol, &clu))
			return -FSLAB_EIO;
	}
	return (int)n;
}
