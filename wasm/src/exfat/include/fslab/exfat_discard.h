/* SPDX-License-Identifier: MIT */
/*
 * The batched discard's decision in __exfat_free_cluster() (Linux 6.15, "exfat: support batch
 * discard of clusters when freeing clusters"), as a function of its own: the exfat-discard lab's
 * code step has the learner write it (free_discard.c is the model's, the step's reference).
 */
#ifndef FSLAB_EXFAT_DISCARD_H
#define FSLAB_EXFAT_DISCARD_H

#include "fslab/exfat.h"

/* sb_issue_discard() of nr clusters from clu (fatent.c; the grader's replay prints it instead) */
void exfat_discard_cluster(struct exfat_volume *sb, uint32_t clu, uint32_t nr);

/*
 * __exfat_free_cluster()'s walk of a FAT chain, at one cluster: clu's bit is clear, n_clu is the
 * cluster the chain goes on to (EXFAT_EOF_CLUSTER after its last), *nr_clu the clusters of the
 * contiguous run clu ends so far, clu among them (1 at the chain's first cluster).
 */
void exfat_free_cluster_discard(struct exfat_volume *sb, unsigned int clu, unsigned int n_clu, unsigned int *nr_clu);

#endif
