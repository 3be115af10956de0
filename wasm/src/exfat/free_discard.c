/* SPDX-License-Identifier: MIT */
/*
 * The batched discard of Linux 6.15's __exfat_free_cluster() (fs/exfat/fatent.c, Linux 7.2):
 * a run of consecutive clusters grows while the chain goes on to the next cluster, and is
 * discarded in one request where it does not. Its own file because the exfat-discard lab's
 * code step has the learner write it (web/src/topics/exfat/discard-grader.ts); the model calls
 * it where each run of a chain ends (fatent.c), and this one is the step's reference.
 */
#include "fslab/exfat_discard.h"

void exfat_free_cluster_discard(struct exfat_volume *sb, unsigned int clu, unsigned int n_clu, unsigned int *nr_clu)
{
	/* the chain goes on to the next cluster: the run grows */
	if (n_clu == clu + 1)
		(*nr_clu)++;
	else {
		/* the run ends at clu: one request from its first cluster, then a new run */
		exfat_discard_cluster(sb, clu - *nr_clu + 1, *nr_clu);
		*nr_clu = 1;
	}
}
