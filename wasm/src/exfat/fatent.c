/* SPDX-License-Identifier: MIT */
/*
 * FAT entries and cluster chains, after fs/exfat/fatent.c (Linux 7.2), with the discard
 * policy of Linux 6.14 and before selectable per volume (vol->batch_discard).
 */
#include "fslab/errno.h"
#include "fslab/exfat.h"
#include "fslab/exfat_discard.h"

int exfat_ent_get(const struct exfat_volume *vol, uint32_t loc, uint32_t *content)
{
	uint32_t v;

	if (!is_valid_cluster(vol, loc))
		return -FSLAB_EIO;
	v = vol->fat[loc];
	/* the kernel's checks in exfat_ent_get(): a chain must not lead to these */
	if (v == EXFAT_FREE_CLUSTER || v == EXFAT_BAD_CLUSTER)
		return -FSLAB_EIO;
	if (v != EXFAT_EOF_CLUSTER && !is_valid_cluster(vol, v))
		return -FSLAB_EIO;
	*content = v;
	return 0;
}

int exfat_ent_set(struct exfat_volume *vol, uint32_t loc, uint32_t content)
{
	if (!is_valid_cluster(vol, loc))
		return -FSLAB_EIO;
	vol->fat[loc] = content;
	fslab_emit(&vol->events, FSLAB_EV_EXFAT_FAT_WRITE, loc, content, 0);
	return 0;
}

int exfat_get_next_cluster(const struct exfat_volume *vol, uint32_t *clu)
{
	return exfat_ent_get(vol, *clu, clu);
}

/* A NoFatChain run becomes a FAT chain: write clu -> clu+1 links and EOF at the end. */
int exfat_chain_cont_cluster(struct exfat_volume *vol, uint32_t chain, uint32_t len)
{
	if (!len)
		return 0;
	while (len > 1) {
		if (exfat_ent_set(vol, chain, chain + 1))
			return -FSLAB_EIO;
		chain++;
		len--;
	}
	return exfat_ent_set(vol, chain, EXFAT_EOF_CLUSTER);
}

/* sb_issue_discard() of nr clusters from clu, as a request the view and the tests count. */
void exfat_discard_cluster(struct exfat_volume *vol, uint32_t clu, uint32_t nr)
{
	vol->discard_calls++;
	fslab_emit(&vol->events, FSLAB_EV_EXFAT_DISCARD, clu, nr, (uint32_t)vol->batch_discard);
}

/*
 * Clear every cluster of the chain in the bitmap, issuing discards when mounted with
 * -o discard: per cluster (EXFAT_DISCARD_PER_CLUSTER, the 6.14 exfat_clear_bitmap()) or one
 * per contiguous run (EXFAT_DISCARD_BATCHED, 6.15+). The FAT entries are left as they are:
 * exFAT marks clusters free in the bitmap only.
 */
int __exfat_free_cluster(struct exfat_volume *vol, const struct exfat_chain *p_chain)
{
	uint32_t num_clusters = 0, clu;
	int per_cluster = vol->discard && vol->batch_discard == EXFAT_DISCARD_PER_CLUSTER;
	int batched = vol->discard && vol->batch_discard == EXFAT_DISCARD_BATCHED;

	if (p_chain->dir == EXFAT_FREE_CLUSTER || p_chain->dir == EXFAT_EOF_CLUSTER ||
	    p_chain->dir < EXFAT_FIRST_CLUSTER)
		return 0;
	if (p_chain->size == 0)
		return 0;
	if (!is_valid_cluster(vol, p_chain->dir))
		return -FSLAB_EIO;

	clu = p_chain->dir;
	if (p_chain->flags == ALLOC_NO_FAT_CHAIN) {
		if (per_cluster) {
			do {
				if (exfat_clear_bitmap(vol, clu))
					break;
				exfat_discard_cluster(vol, clu, 1);
				clu++;
				num_clusters++;
			} while (num_clusters < p_chain->size);
		} else {
			/* the kernel's loop clears bit after bit; the same, a run at a time */
			num_clusters = exfat_clear_bitmap_run(vol, clu, p_chain->size);
		}
		if (batched)
			exfat_discard_cluster(vol, p_chain->dir, p_chain->size);
	} else if (per_cluster) {
		do {
			uint32_t n_clu = clu;
			int err = exfat_get_next_cluster(vol, &n_clu);

			if (err)
				n_clu = EXFAT_EOF_CLUSTER;
			if (exfat_clear_bitmap(vol, clu))
				break;
			exfat_discard_cluster(vol, clu, 1);
			clu = n_clu;
			num_clusters++;
			if (err)
				break;
			if (num_clusters >= vol->num_clusters - EXFAT_FIRST_CLUSTER) {
				/* the chain has a loop: recount from the bitmap, as the kernel does */
				vol->used_clusters = exfat_count_used_clusters(vol);
				return 0;
			}
		} while (clu != EXFAT_EOF_CLUSTER);
	} else {
		/*
		 * The kernel walks the chain cluster by cluster, clearing each bit and, when
		 * batched, issuing one discard where a run of consecutive clusters ends. Here the
		 * same walk a run at a time: follow the links while each leads to the next
		 * cluster, clear the run's bits, discard it; the same stops (a bad link, a bit
		 * already clear, a chain as long as the volume) at the same cluster.
		 */
		uint32_t limit = vol->num_clusters - EXFAT_FIRST_CLUSTER;

		do {
			uint32_t start = clu, len = 0, n_clu;
			int err;

			/*
			 * Most links lead to the next cluster: skip those in a tight loop first. Such
			 * a link is valid whenever that cluster is (it is neither FREE nor BAD: the
			 * model's volumes stay below 2^28 clusters), and it stops nothing while the
			 * count stays under the limit. The loop below then takes the link that ends
			 * the run, with every check.
			 */
			{
				const uint32_t *fat = vol->fat;
				uint32_t span = vol->num_clusters - 1 - clu;

				if (span > limit - num_clusters - 1)
					span = limit - num_clusters - 1;
				while (len < span && fat[clu + len] == clu + len + 1)
					len++;
				clu += len;
			}
			for (;;) {
				n_clu = clu;
				err = exfat_get_next_cluster(vol, &n_clu);
				if (err)
					n_clu = EXFAT_EOF_CLUSTER;
				len++;
				if (err || n_clu != clu + 1 || num_clusters + len >= limit)
					break;
				clu = n_clu;
			}
			uint32_t cleared = exfat_clear_bitmap_run(vol, start, len);

			if (cleared < len) {
				num_clusters += cleared;
				break;
			}
			/*
			 * the kernel's decision at the run's last cluster (free_discard.c): the run
			 * ends here unless the chain goes on to the next cluster (a run cut by the
			 * loop's limit goes on), and is discarded from start in one request
			 */
			if (batched) {
				unsigned int nr_clu = len;

				exfat_free_cluster_discard(vol, clu, n_clu, &nr_clu);
			}
			clu = n_clu;
			num_clusters += len;
			if (err)
				break;
			if (num_clusters >= limit) {
				/* the chain has a loop: recount from the bitmap, as the kernel does */
				vol->used_clusters = exfat_count_used_clusters(vol);
				return 0;
			}
		} while (clu != EXFAT_EOF_CLUSTER);
	}
	vol->used_clusters -= num_clusters;
	return 0;
}

/*
 * Allocate num_alloc clusters after p_chain (p_chain->dir == EXFAT_EOF_CLUSTER: a new chain
 * starting at clu_srch_ptr; otherwise p_chain->dir is the hint, the cluster after the file's
 * last). The chain stays NoFatChain while clusters come out contiguous; the first gap
 * writes FAT links for what was allocated so far and continues as a FAT chain.
 * With contig set, allocation stops at the first gap instead.
 */
int exfat_alloc_cluster(struct exfat_volume *vol, uint32_t num_alloc, struct exfat_chain *p_chain, int contig)
{
	uint32_t total_cnt = vol->num_clusters - EXFAT_FIRST_CLUSTER;
	uint32_t hint_clu, new_clu, last_clu = EXFAT_EOF_CLUSTER;

	if (total_cnt < vol->used_clusters)
		return -FSLAB_EIO;
	if (num_alloc > total_cnt - vol->used_clusters)
		return -FSLAB_ENOSPC;

	hint_clu = p_chain->dir;
	if (hint_clu == EXFAT_EOF_CLUSTER) {
		if (vol->clu_srch_ptr < EXFAT_FIRST_CLUSTER)
			vol->clu_srch_ptr = EXFAT_FIRST_CLUSTER;
		hint_clu = exfat_find_free_bitmap(vol, vol->clu_srch_ptr);
		if (hint_clu == EXFAT_EOF_CLUSTER)
			return -FSLAB_ENOSPC;
	}
	if (!is_valid_cluster(vol, hint_clu)) {
		hint_clu = EXFAT_FIRST_CLUSTER;
		p_chain->flags = ALLOC_FAT_CHAIN;
	}

	p_chain->dir = EXFAT_EOF_CLUSTER;
	while ((new_clu = exfat_find_free_bitmap(vol, hint_clu)) != EXFAT_EOF_CLUSTER) {
		if (new_clu != hint_clu) {
			if (p_chain->flags == ALLOC_NO_FAT_CHAIN) {
				if (exfat_chain_cont_cluster(vol, p_chain->dir, p_chain->size))
					goto free_cluster;
				p_chain->flags = ALLOC_FAT_CHAIN;
			}
			if (contig && p_chain->size > 0) {
				hint_clu = last_clu;
				goto done;
			}
		}
		if (exfat_set_bitmap(vol, new_clu))
			goto free_cluster;
		if (p_chain->flags == ALLOC_FAT_CHAIN && exfat_ent_set(vol, new_clu, EXFAT_EOF_CLUSTER))
			goto free_cluster;
		if (p_chain->dir == EXFAT_EOF_CLUSTER)
			p_chain->dir = new_clu;
		else if (p_chain->flags == ALLOC_FAT_CHAIN && exfat_ent_set(vol, last_clu, new_clu))
			goto free_cluster;
		p_chain->size++;
		last_clu = new_clu;

		if (p_chain->size == num_alloc)
			goto done;

		hint_clu = new_clu + 1;
		if (hint_clu >= vol->num_clusters) {
			hint_clu = EXFAT_FIRST_CLUSTER;
			if (p_chain->flags == ALLOC_NO_FAT_CHAIN) {
				if (exfat_chain_cont_cluster(vol, p_chain->dir, p_chain->size))
					goto free_cluster;
				p_chain->flags = ALLOC_FAT_CHAIN;
			}
		}
	}
free_cluster:
	vol->used_clusters += p_chain->size; /* __exfat_free_cluster() subtracts them again */
	__exfat_free_cluster(vol, p_chain);
	return -FSLAB_ENOSPC;
done:
	vol->clu_srch_ptr = hint_clu;
	vol->used_clusters += p_chain->size;
	return 0;
}
