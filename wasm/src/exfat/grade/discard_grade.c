/* SPDX-License-Identifier: MIT */
/*
 * The grader of the exfat-discard code step: a program the guest's tcc builds from this file
 * and the learner's free_discard.c, so that the chain the learner's kernel freed is walked
 * again through their exfat_free_cluster_discard(), cluster by cluster, as Linux 6.15's
 * __exfat_free_cluster() walks a FAT chain. Not part of the wasm core (the Makefile builds only
 * the files directly in src/exfat). The page or `fslab labs grade` writes the chain
 * (web/src/topics/exfat/discard-grader.ts) as text on stdin:
 *
 *   fslab-exfat-discard 1 <n>
 *   <cluster> ...        the chain's n clusters, in chain order
 *
 * and prints one line per discard the function issues, as the kernel's exfat_discard reports
 * it: the first cluster and the count. Exit 0; 2 for bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/exfat_discard.h"

/* no device here: the request, as the kernel's tracepoint reports it */
void exfat_discard_cluster(struct exfat_volume *sb, uint32_t clu, uint32_t nr)
{
	(void)sb;
	printf("%u %u\n", (unsigned)clu, (unsigned)nr);
	fflush(stdout);
}

int main(void)
{
	char magic[32];
	unsigned version, n, i, nr_clu = 1;
	uint32_t *chain;
	struct exfat_volume sb;

	if (scanf("%31s %u %u", magic, &version, &n) != 3 || strcmp(magic, "fslab-exfat-discard") || version != 1 || n == 0 || n > (1u << 24)) {
		fprintf(stderr, "discard_grade: not a replay input (fslab-exfat-discard 1 N)\n");
		return 2;
	}
	chain = calloc(n, sizeof(*chain));
	if (!chain) {
		fprintf(stderr, "discard_grade: no memory for %u clusters\n", n);
		return 2;
	}
	for (i = 0; i < n; i++)
		if (scanf("%u", &chain[i]) != 1 || chain[i] < EXFAT_FIRST_CLUSTER || chain[i] >= EXFAT_BAD_CLUSTER) {
			fprintf(stderr, "discard_grade: cluster %u of the chain is not a data cluster\n", i + 1);
			return 2;
		}
	memset(&sb, 0, sizeof(sb));
	sb.discard = 1;
	sb.batch_discard = EXFAT_DISCARD_BATCHED;
	/* the kernel's loop: each cluster's bit cleared, then the discard's decision for it */
	for (i = 0; i < n; i++)
		exfat_free_cluster_discard(&sb, chain[i], i + 1 < n ? chain[i + 1] : EXFAT_EOF_CLUSTER, &nr_clu);
	free(chain);
	return 0;
}
