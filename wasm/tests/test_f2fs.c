/* SPDX-License-Identifier: MIT */
/*
 * The FxMark unlink simulation: exact times worked by hand for one and two cores, then the
 * shape the CLUE paper reports, from the default costs (web/src/cores/f2fs-core.ts).
 */
#include "check.h"
#include "fslab/f2fs.h"

static const struct f2fs_unlink_costs C = { 3000, 4000, 100, 8000, 40, 12000, 1500, 15, 100 };

static double run(enum fxmark_workload w, uint32_t clue, uint32_t cores, uint32_t n, struct f2fs_fxmark_result *r)
{
	CHECK_EQ(f2fs_fxmark_unlink(w, clue, cores, n, &C, 1, r), 0);
	return r->unlinks_per_sec;
}

int main(void)
{
	struct f2fs_fxmark_result r;
	const uint32_t cores[] = { 1, 2, 4, 8, 15, 30, 60, 120 };
	double base[8], clue[8], peak = 0;
	int i;

	/* one core, upstream: vfs 3000 + unlink 4000 + under build_lock (check 100 + bitmap 8000
	 * + NAT 12000) = 27,100 ns an unlink */
	run(FXMARK_MWUL, 0, 1, 1000, &r);
	CHECK_EQ((long long)(r.seconds * 1e9 + 0.5), 27100000);
	CHECK_EQ(r.bitmap_scans, 1000);
	CHECK_EQ(r.nat_scans, 1000);
	/* one core, CLUE 7: 3000 + 4000 + check 100 + a heuristic bitmap scan 40% of 8000, no NAT */
	run(FXMARK_MWUL, 7, 1, 1000, &r);
	CHECK_EQ((long long)(r.seconds * 1e9 + 0.5), 10300000);
	CHECK_EQ(r.nat_scans, 0);
	CHECK_EQ(r.nat_deferred, 1000);
	/* two cores, upstream, own directories: build_lock (20,100 ns) is the bottleneck; one
	 * core's 7,000 ns outside it overlaps the other's critical section */
	run(FXMARK_MWUL, 0, 2, 1000, &r);
	CHECK(r.seconds * 1e9 >= 2000 * 20100.0 && r.seconds * 1e9 < 2000 * 20100.0 + 30000);
	CHECK(r.wait_ns[LOCK_BUILD] > 0);
	CHECK_EQ(r.acquired[LOCK_DIR], 0); /* private directories: never a shared lock */

	/* optimistic: with two cores a bitmap scan is sometimes found running and skipped */
	run(FXMARK_MWUL, 1, 2, 1000, &r);
	CHECK(r.scans_skipped > 0);
	CHECK_EQ(r.bitmap_scans + r.scans_skipped, 2000);

	/* the paper's shape (Figure 4) */
	for (i = 0; i < 8; i++) {
		base[i] = run(FXMARK_MWUL, 0, cores[i], 2000, &r);
		clue[i] = run(FXMARK_MWUL, 7, cores[i], 2000, &r);
		if (clue[i] > peak)
			peak = clue[i];
	}
	for (i = 1; i < 8; i++) /* upstream does not scale: build_lock serializes every unlink */
		CHECK(base[i] < base[1] * 1.05 && base[i] > base[1] * 0.9);
	CHECK(clue[4] > 10 * clue[0]);                   /* CLUE scales up to one socket (15 cores) */
	CHECK(clue[7] < 0.6 * peak);                     /* and falls back past it */
	CHECK(clue[7] / base[7] > 10 && clue[7] / base[7] < 25); /* ~15x at 120 cores */
	double mb = run(FXMARK_MWUM, 0, 120, 2000, &r), mc = run(FXMARK_MWUM, 7, 120, 2000, &r);
	CHECK(mc / mb > 2.5 && mc / mb < 4);             /* ~3x in a shared directory */
	CHECK(r.wait_ns[LOCK_DIR] > r.wait_ns[LOCK_LIST]); /* where MWUM waits: the directory */
	/* each technique alone helps MWUL at many cores */
	for (i = 1; i <= 4; i *= 2)
		CHECK(run(FXMARK_MWUL, (uint32_t)i, 120, 2000, &r) > base[7]);

	CHECK_EQ(f2fs_fxmark_unlink(FXMARK_MWUL, 0, 0, 10, &C, 1, &r), -22);
	return CHECK_DONE("test_f2fs");
}
