/* SPDX-License-Identifier: MIT */
/*
 * exfat core: a model of the exFAT cluster heap as Linux 7.2 manages it (fs/exfat/).
 *
 *   exfat_file_append() -> exfat_alloc_cluster()   bitmap search from a hint, NoFatChain until
 *                                                   the first gap, then FAT chain
 *   exfat_file_delete() -> __exfat_free_cluster()   bitmap clears + discard requests, either one
 *                                                   per cluster (<= 6.14) or one per contiguous
 *                                                   run (6.15+, "batch_discard")
 *
 * Every change to the volume is appended to vol->events (see fslab/events.h).
 * Functions return 0 or a negative errno, as in the kernel.
 */
#ifndef FSLAB_EXFAT_H
#define FSLAB_EXFAT_H

#include <stdint.h>
#include "fslab/exfat_events.h"

#define EXFAT_FIRST_CLUSTER 2u
#define EXFAT_FREE_CLUSTER 0u
#define EXFAT_BAD_CLUSTER 0xFFFFFFF7u
#define EXFAT_EOF_CLUSTER 0xFFFFFFFFu

/* exfat_chain.flags, as in fs/exfat/exfat_fs.h */
#define ALLOC_FAT_CHAIN 0x01
#define ALLOC_NO_FAT_CHAIN 0x03

/* The guest is i386: the bitmap is searched a 32-bit long at a time. */
#define EXFAT_BITS_PER_LONG 32u

#define EXFAT_MODEL_MAX_FILES 64
#define EXFAT_MODEL_NAME_LEN 32

enum exfat_discard_policy {
	EXFAT_DISCARD_PER_CLUSTER = 0, /* Linux <= 6.14: sb_issue_discard() in exfat_clear_bitmap() */
	EXFAT_DISCARD_BATCHED = 1,     /* Linux >= 6.15: one request per contiguous run */
};

struct exfat_chain {
	uint32_t dir;  /* first cluster, or EXFAT_EOF_CLUSTER when empty */
	uint32_t size; /* clusters in the chain */
	uint8_t flags; /* ALLOC_NO_FAT_CHAIN or ALLOC_FAT_CHAIN */
};

struct exfat_model_file {
	int in_use;
	char name[EXFAT_MODEL_NAME_LEN];
	struct exfat_chain chain;
	uint32_t last_clu; /* cached: the kernel walks the chain (exfat_find_last_cluster) */
};

struct exfat_volume {
	uint32_t num_clusters;      /* data clusters + EXFAT_FIRST_CLUSTER, like sbi->num_clusters */
	uint8_t sect_size_bits;     /* 9 for 512-byte sectors */
	uint8_t sect_per_clus_bits; /* cluster = sector << this */
	uint32_t *fat;              /* FAT entries, indexed by cluster */
	uint8_t *vol_amap;          /* allocation bitmap, bit (clu - 2), little-endian bit order */
	uint32_t map_bytes;
	uint32_t used_clusters;
	uint32_t clu_srch_ptr;
	int discard;                   /* mounted with -o discard */
	enum exfat_discard_policy batch_discard;
	uint64_t discard_calls; /* as the patched kernel's /sys/module/exfat/parameters/discard_calls */
	struct exfat_model_file files[EXFAT_MODEL_MAX_FILES];
	struct fslab_events events;
};

/* model.c */
struct exfat_volume *exfat_volume_new(uint32_t data_clusters, uint8_t sect_per_clus_bits);
struct exfat_volume *exfat_volume_clone(const struct exfat_volume *vol);
void exfat_volume_free(struct exfat_volume *vol);
int exfat_file_create(struct exfat_volume *vol, const char *name);
int exfat_file_append(struct exfat_volume *vol, int id, uint32_t clusters);
int exfat_file_delete(struct exfat_volume *vol, int id);
/* Walks a file's clusters in order into out[] (up to max); returns the count or -errno. */
int exfat_file_clusters(const struct exfat_volume *vol, int id, uint32_t *out, uint32_t max);

/* balloc.c */
int exfat_test_bitmap(const struct exfat_volume *vol, uint32_t clu);
int exfat_set_bitmap(struct exfat_volume *vol, uint32_t clu);
int exfat_clear_bitmap(struct exfat_volume *vol, uint32_t clu);
uint32_t exfat_clear_bitmap_run(struct exfat_volume *vol, uint32_t clu, uint32_t n);
uint32_t exfat_find_free_bitmap(const struct exfat_volume *vol, uint32_t clu);
uint32_t exfat_count_used_clusters(const struct exfat_volume *vol);

/* fatent.c */
int exfat_ent_get(const struct exfat_volume *vol, uint32_t loc, uint32_t *content);
int exfat_ent_set(struct exfat_volume *vol, uint32_t loc, uint32_t content);
int exfat_get_next_cluster(const struct exfat_volume *vol, uint32_t *clu);
int exfat_chain_cont_cluster(struct exfat_volume *vol, uint32_t chain, uint32_t len);
int exfat_alloc_cluster(struct exfat_volume *vol, uint32_t num_alloc, struct exfat_chain *p_chain, int contig);
int __exfat_free_cluster(struct exfat_volume *vol, const struct exfat_chain *p_chain);

static inline int is_valid_cluster(const struct exfat_volume *vol, uint32_t clus)
{
	return clus >= EXFAT_FIRST_CLUSTER && clus < vol->num_clusters;
}

#endif
