/* SPDX-License-Identifier: MIT */
/*
 * Native side of `npm run bench` for the f2fs core: FxMark MWUL, 120 cores x 10,000
 * unlinks each, upstream and CLUE (7), 15 runs each. The wasm side runs the same through
 * fxmarkUnlink().
 * Prints {"case":..., "ms": [..runs..]} per case.
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
	const struct f2fs_unlink_costs c = { 3000, 4000, 100, 8000, 40, 12000, 1500, 15, 100 };
	const unsigned clues[] = { 0, 7 };
	struct f2fs_fxmark_result r;
	int i, k;

	for (i = 0; i < 2; i++) {
		printf("{\"case\":\"MWUL clue %u, 120 cores x 10000 unlinks\",\"ms\":[", clues[i]);
		for (k = 0; k < 15; k++) {
			double t0 = now_ms();
			if (f2fs_fxmark_unlink(FXMARK_MWUL, clues[i], 120, 10000, &c, 1, &r))
				return 1;
			printf("%s%.2f", k ? "," : "", now_ms() - t0);
		}
		printf("]}\n");
	}
	return 0;
}
