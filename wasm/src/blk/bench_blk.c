/* SPDX-License-Identifier: MIT */
/*
 * Native side of `npm run bench` for the blk core: 1,000,000 requests through blk-mq and
 * mq-deadline (4 jobs x iodepth 4 x 250,000 random 4 KiB reads) on the one-tag disk, where
 * every dispatch is a scheduler decision. bench/blk-dispatch.ts runs the same case in wasm.
 * Driven one sample at a time (bench/native.ts): prints the case's name as a JSON array, then
 * for each line read on stdin (the case's index, 0) runs it once and prints its time in ms;
 * only blk_sim_run() is timed.
 */
#include <stdio.h>
#include <time.h>
#include "fslab/blk.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
	const struct dd_tunables t = { 500, 5000, 10000, 2, 16 };
	const struct blk_device hdd = { 1, 1, 100000, 3400, 1u << 21, 3.8, 1ull << 31 };
	struct blk_job jobs[4];
	unsigned c;
	int i;

	for (i = 0; i < 4; i++)
		jobs[i] = (struct blk_job){ 4, 8, 250000, 1, 0, 0, (uint64_t)i << 20, 1u << 20 };
	printf("[\"mq-deadline, 1000000 requests\"]\n");
	fflush(stdout);
	while (scanf("%u", &c) == 1) {
		struct blk_sim *s;
		double t0;

		if (c != 0)
			return 2;
		s = blk_sim_new(BLK_SCHED_MQ_DEADLINE, &t, &hdd, jobs, 4, 250, 1);
		t0 = now_ms();
		if (!s || blk_sim_run(s))
			return 1;
		printf("%.4f\n", now_ms() - t0);
		fflush(stdout);
		blk_sim_free(s);
	}
	return 0;
}
