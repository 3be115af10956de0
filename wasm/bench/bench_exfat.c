/* SPDX-License-Identifier: MIT */
/*
 * Native side of `npm run bench`: time __exfat_free_cluster() on the 6.15 commit's case, an
 * 80 GiB file of 4 KiB clusters (20,971,520 clusters), batched discard. The wasm side runs
 * the same C through the same exports (bench/exfat-free.ts) so the two compare directly.
 * Prints one JSON line per case: {"case":..., "ms": [..runs..]}.
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
	/* samples: the NoFatChain free takes ~0.1 ms, at the noise floor: more of them there */
	static const struct { const char *name; uint32_t clusters, runs, samples; } cases[] = {
		{ "free 20971520 clusters, NoFatChain", 20971520u, 1, 61 },
		{ "free 20971520 clusters, FAT chain of 1024 runs", 20971520u, 1024, 15 },
	};
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		printf("{\"case\":\"%s\",\"ms\":[", cases[c].name);
		for (uint32_t i = 0; i < cases[c].samples; i++)
			printf("%s%.3f", i ? "," : "", one(cases[c].clusters, cases[c].runs));
		printf("]}\n");
	}
	return 0;
}
