/* SPDX-License-Identifier: MIT */
/*
 * Native side of `npm run bench`: time __exfat_free_cluster() on the 6.15 commit's case, an
 * 80 GiB file of 4 KiB clusters (20,971,520 clusters), batched discard. The wasm side runs
 * the same C through the same exports (bench/exfat-free.ts) so the two compare directly.
 *
 * Driven one sample at a time so that `fslab bench` can interleave it with the wasm side
 * (bench/native.ts): prints the cases' names as a JSON array, then for each line read on
 * stdin, a case's index, runs that case once and prints its time in ms on a line.
 *   printf '0\n1\n' | build/native/bench_exfat
 */
#include <stdio.h>
#include <time.h>
#include "fslab/exfat.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* build the file (not timed), then free it (timed); runs > 1 interleaves a second file */
static double one(uint32_t clusters, uint32_t runs)
{
	struct exfat_volume *v = exfat_volume_new(clusters + runs, 3);
	int f = exfat_file_create(v, "big"), g = exfat_file_create(v, "gap");
	double t0;

	for (uint32_t r = 0; r < runs; r++) {
		exfat_file_append(v, f, clusters / runs);
		exfat_file_append(v, g, 1);
		fslab_events_clear(&v->events);
	}
	t0 = now_ms();
	exfat_file_delete(v, f);
	t0 = now_ms() - t0;
	exfat_volume_free(v);
	return t0;
}

int main(void)
{
	/* bench/exfat-free.ts CASES, in the same order */
	static const struct { const char *name; uint32_t clusters, runs; } cases[] = {
		{ "free 20971520 clusters, NoFatChain", 20971520u, 1 },
		{ "free 20971520 clusters, FAT chain of 1024 runs", 20971520u, 1024 },
	};
	const unsigned n = sizeof(cases) / sizeof(cases[0]);
	unsigned c;

	printf("[");
	for (c = 0; c < n; c++)
		printf("%s\"%s\"", c ? "," : "", cases[c].name);
	printf("]\n");
	fflush(stdout);
	while (scanf("%u", &c) == 1) {
		if (c >= n)
			return 2;
		printf("%.4f\n", one(cases[c].clusters, cases[c].runs));
		fflush(stdout);
	}
	return 0;
}
