/* SPDX-License-Identifier: MIT */
/*
 * Native side of `npm run bench` for the f2fs core: FxMark MWUL, 120 cores x 10,000
 * unlinks each, upstream and CLUE (7). The wasm side runs the same through fxmarkUnlink().
 * Driven one sample at a time (bench/native.ts): prints the cases' names as a JSON array,
 * then for each line read on stdin, a case's index, runs that case once and prints its time
 * in ms on a line.
 */
#include <stdio.h>
#include <time.h>
#include "fslab/f2fs.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
	/* web/src/topics/f2fs/fxmark.ts FXMARK_COSTS */
	const struct f2fs_unlink_costs costs = { 3000, 4000, 100, 8000, 40, 12000, 1500, 15, 100 };
	const unsigned clues[] = { 0, 7 };
	struct f2fs_fxmark_result r;
	unsigned c;

	printf("[\"MWUL clue %u, 120 cores x 10000 unlinks\",\"MWUL clue %u, 120 cores x 10000 unlinks\"]\n", clues[0], clues[1]);
	fflush(stdout);
	while (scanf("%u", &c) == 1) {
		double t0;

		if (c >= 2)
			return 2;
		t0 = now_ms();
		if (f2fs_fxmark_unlink(FXMARK_MWUL, clues[c], 120, 10000, &costs, 1, &r))
			return 1;
		printf("%.4f\n", now_ms() - t0);
		fflush(stdout);
	}
	return 0;
}
