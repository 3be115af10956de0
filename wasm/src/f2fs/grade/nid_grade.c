/* SPDX-License-Identifier: MIT */
/*
 * The grader of the f2fs-clue code step: a program the guest's tcc builds from this file, the
 * model's nid.c and events.c, and the learner's nid_scan.c, so that the learner's kernel's run
 * (creates, syncs, the removal, the shrinker) is replayed through their scan_free_nid_bits().
 * Not part of the wasm core (the Makefile builds only the files directly in src/f2fs). The
 * page or `fslab labs grade` writes the run's operations (web/src/topics/f2fs/grader.ts) as
 * f2fs_nm_run()'s words, as text on stdin:
 *
 *   fslab-f2fs-nid 1 <NAT blocks> <clue> <n> then 3 words per operation
 *
 * and prints, for each operation, a line "op K LISTED NEXT_BITMAP_BLK" with the state it
 * started from and the loaded NAT blocks' free counts ("B:COUNT" each), then its
 * f2fs_free_nid_scan records, "ev TYPE A B C" each. Exit 0; 1 when an operation was refused;
 * 2 for bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/f2fs_nid.h"

int main(void)
{
	char magic[32];
	unsigned version, blocks, clue, n, k, b;
	uint32_t op[3], done;
	struct f2fs_nm_info *nm;
	size_t e = 0;

	if (scanf("%31s %u %u %u %u", magic, &version, &blocks, &clue, &n) != 5 || strcmp(magic, "fslab-f2fs-nid") || version != 1 || n > (1u << 20)) {
		fprintf(stderr, "nid_grade: not a replay input (fslab-f2fs-nid 1)\n");
		return 2;
	}
	nm = f2fs_nm_new(blocks, clue, 0);
	if (!nm) {
		fprintf(stderr, "nid_grade: %u NAT blocks or clue %u refused\n", blocks, clue);
		return 2;
	}
	for (k = 0; k <= n; k++) {
		/* the mount's scans come first, as operation 0's */
		for (; e < nm->events.len; e++)
			printf("ev %u %u %u %u\n", nm->events.ev[e].type, nm->events.ev[e].a, nm->events.ev[e].b, nm->events.ev[e].c);
		if (k == n)
			break;
		if (scanf("%u %u %u", &op[0], &op[1], &op[2]) != 3) {
			fprintf(stderr, "nid_grade: operation %u is not three numbers\n", k + 1);
			return 2;
		}
		printf("op %u %u %u", k + 1, nm->nid_cnt[FREE_NID], nm->next_bitmap_blk);
		for (b = 0; b < nm->nat_blocks; b++)
			if (nm->nat_block_bitmap[b])
				printf(" %u:%u", b, (unsigned)nm->free_nid_count[b]);
		printf("\n");
		fflush(stdout); /* a crash in this operation leaves the lines before it for the page */
		if (f2fs_nm_run(nm, op, 1, &done) < 0) {
			fflush(stdout);
			fprintf(stderr, "nid_grade: operation %u (%u %u %u) refused\n", k + 1, op[0], op[1], op[2]);
			return 1;
		}
	}
	f2fs_nm_free(nm);
	return 0;
}
