/* SPDX-License-Identifier: MIT */
/*
 * The grader of the exfat-empty-hint code step: a program the guest's tcc builds from this
 * file, the model's dir.c and events.c, and the learner's dir_hint.c, so that the learner's
 * kernel's creates, removes and lookups are replayed through their exfat_set_empty_hint().
 * Not part of the wasm core (the Makefile builds only the files directly in src/exfat). The page or `fslab labs
 * grade` writes the run's operations (web/src/topics/exfat/grader.ts) as text on stdin:
 *
 *   fslab-exfat-hint 1 <dentries per cluster> <n>
 *   c <name length>     a create
 *   r <create> <len>    a remove of the set the create-th create made (0-based)
 *   l <create> <len>    a lookup that finds it
 *
 * and prints one line per create: the slot it got (or -errno) and each search it made, as
 * the kernel's exfat_empty_search reports it: examined, hint (-1: none), result (-1: -ENOSPC).
 * Exit 0; 2 for bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/exfat_dir.h"

int main(void)
{
	char magic[32], op[4];
	unsigned version, dpc, n, i, k, len, creates = 0;
	int *slot, *lens, got;
	struct exfat_dir *d;
	size_t e;

	if (scanf("%31s %u %u %u", magic, &version, &dpc, &n) != 4 || strcmp(magic, "fslab-exfat-hint") || version != 1 || n > (1u << 20)) {
		fprintf(stderr, "hint_grade: not a replay input (fslab-exfat-hint 1)\n");
		return 2;
	}
	d = exfat_dir_new(dpc, 1);
	slot = calloc((size_t)n + 1, sizeof(*slot));
	lens = calloc((size_t)n + 1, sizeof(*lens));
	if (!d || !slot || !lens) {
		fprintf(stderr, "hint_grade: bad entries per cluster, or no memory\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		if (scanf("%3s %u", op, &len) != 2) {
			fprintf(stderr, "hint_grade: operation %u is not 'c LEN', 'r K LEN' or 'l K LEN'\n", i + 1);
			return 2;
		}
		if (op[0] == 'c' && !op[1]) {
			e = d->events.len;
			got = exfat_dir_create(d, (int)len);
			slot[creates] = got;
			lens[creates++] = (int)len;
			printf("%d", got);
			for (; e < d->events.len; e++)
				printf(" %d %d %d", (int)d->events.ev[e].a, (int)d->events.ev[e].b, (int)d->events.ev[e].c);
			printf("\n");
			fflush(stdout);
			continue;
		}
		k = len;
		if ((op[0] != 'r' && op[0] != 'l') || op[1] || scanf("%u", &len) != 1 || k >= creates || (int)len != lens[k]) {
			fprintf(stderr, "hint_grade: operation %u: a remove or lookup of create %u, which is not there\n", i + 1, k);
			return 2;
		}
		/* a set that is not where the kernel's was follows a create that went elsewhere: that
		 * create is the divergence the page shows, so the replay goes on without this one */
		if (slot[k] >= 0)
			(void)(op[0] == 'r' ? exfat_dir_remove(d, slot[k], (int)len) : exfat_dir_lookup(d, slot[k], (int)len));
	}
	exfat_dir_free(d);
	return 0;
}
