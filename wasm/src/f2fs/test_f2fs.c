/* SPDX-License-Identifier: MIT */
/*
 * The FxMark unlink simulation: exact times worked by hand for one and two cores, then the
 * shape the CLUE paper reports, from the default costs (web/src/topics/f2fs/fxmark.ts).
 * Then the free-NID model (fslab/f2fs_nid.h): scans worked by hand from fs/f2fs/node.c.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "fslab/f2fs.h"
#include "fslab/f2fs_nid.h"

static const struct f2fs_unlink_costs C = { 3000, 4000, 100, 8000, 40, 12000, 1500, 15, 100 };

static double run(enum fxmark_workload w, uint32_t clue, uint32_t cores, uint32_t n, struct f2fs_fxmark_result *r)
{
	CHECK_EQ(f2fs_fxmark_unlink(w, clue, cores, n, &C, 1, r), 0);
	return r->unlinks_per_sec;
}

static void test_fxmark(void)
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
}

/* ---- lock-wait timelines (struct f2fs_fxmark_trace) ---- */

static struct f2fs_fxmark_trace whole(uint32_t every, uint32_t max_spans)
{
	struct f2fs_fxmark_trace t = { .from_ns = 0, .until_ns = UINT64_MAX, .every = every, .max_spans = max_spans };
	return t;
}

static const struct f2fs_lock_span *span(const struct f2fs_fxmark_trace *t, uint32_t k, uint32_t i)
{
	return &t->spans[(size_t)k * t->max_spans + i];
}

#define WAIT F2FS_SPAN_WAIT
#define HOLD F2FS_SPAN_HOLD
/* traced core k's span i is {lock, kind, depth, from, to}, in the order they ended */
#define CHECK_SPAN(t, k, i, lk, kd, dp, f, to_) do { const struct f2fs_lock_span *_s = span(t, k, i); \
	CHECK(i < (t)->len[k]); CHECK_EQ(_s->lock, lk); CHECK_EQ(_s->kind, kd); CHECK_EQ(_s->depth, dp); \
	CHECK_EQ(_s->from, f); CHECK_EQ(_s->to, to_); } while (0)

/* worked by hand with C's costs: vfs 3000, unlink 4000, check 100, bitmap 8000 (3200
 * heuristic), NAT 12000; both cores on socket 0, so no remote_ns */
static void test_trace_by_hand(void)
{
	struct f2fs_fxmark_result r;
	struct f2fs_fxmark_trace t = whole(1, 16);

	/* MWUM upstream: both reach the directory at 3000 (path walk). Core 0 takes i_rwsem,
	 * f2fs_unlink until 7000, build_lock 7000..27100 (check + bitmap + NAT), lets both go
	 * at 27100: core 1's wait on the directory ends exactly then (handoff). Core 1 holds it
	 * to 27100 + 4000 + 20100 = 51200; core 0, back at 30100, waits until then. */
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUM, 0, 2, 2, &C, 1, &r, &t), 0);
	CHECK_EQ(t.traced, 2);
	CHECK_SPAN(&t, 0, 0, LOCK_BUILD, HOLD, 1, 7000, 27100); /* build_lock inside i_rwsem */
	CHECK_SPAN(&t, 0, 1, LOCK_DIR, HOLD, 0, 3000, 27100);
	CHECK_SPAN(&t, 0, 2, LOCK_DIR, WAIT, 0, 30100, 51200);
	CHECK_SPAN(&t, 1, 0, LOCK_DIR, WAIT, 0, 3000, 27100);
	CHECK_SPAN(&t, 1, 1, LOCK_BUILD, HOLD, 1, 31100, 51200);
	CHECK_SPAN(&t, 1, 2, LOCK_DIR, HOLD, 0, 27100, 51200);
	/* two unlinks each, strictly in turn: 4 x 24,100 under the lock after the first walk */
	CHECK_EQ(t.done_ns[1], 3000 + 4 * 24100);
	CHECK_EQ((long long)(r.seconds * 1e9 + 0.5), 3000 + 4 * 24100);
	CHECK_EQ(t.dropped, 0);
	CHECK_EQ(r.wait_ns[LOCK_DIR], (27100 - 3000) + (51200 - 30100) + (75300 - 54200));
	f2fs_fxmark_trace_free(&t);
	CHECK(!t.spans && !t.len && !t.done_ns);

	/* MWUL upstream: private directories (no span), both at build_lock at 7000 */
	t = whole(1, 16);
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUL, 0, 2, 2, &C, 1, &r, &t), 0);
	CHECK_SPAN(&t, 0, 0, LOCK_BUILD, HOLD, 0, 7000, 27100);
	CHECK_SPAN(&t, 1, 0, LOCK_BUILD, WAIT, 0, 7000, 27100);
	CHECK_SPAN(&t, 1, 1, LOCK_BUILD, HOLD, 0, 27100, 47200);
	CHECK_SPAN(&t, 0, 1, LOCK_BUILD, WAIT, 0, 34100, 47200); /* 27100 + 3000 + 4000 */
	f2fs_fxmark_trace_free(&t);

	/* MWUL optimistic (1): core 0 holds nid_list_lock for the check 7000..7100, core 1
	 * (queued behind it) 7100..7200. Core 0's trylock gets the bitmap lock, 7100..15100.
	 * Core 1 finds that scan running at 7200, skips it and takes build_lock for its NAT scan,
	 * 7200..19200; core 0, done with the bitmap at 15100, waits for build_lock until 19200
	 * and scans the NAT 19200..31200. */
	t = whole(1, 16);
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUL, F2FS_CLUE_OPTIMISTIC, 2, 1, &C, 1, &r, &t), 0);
	CHECK_EQ(t.len[0], 4);
	CHECK_EQ(t.len[1], 3);
	CHECK_SPAN(&t, 0, 0, LOCK_LIST, HOLD, 0, 7000, 7100);
	CHECK_SPAN(&t, 0, 1, LOCK_BITMAP, HOLD, 0, 7100, 15100);
	CHECK_SPAN(&t, 0, 2, LOCK_BUILD, WAIT, 0, 15100, 19200);
	CHECK_SPAN(&t, 0, 3, LOCK_BUILD, HOLD, 0, 19200, 31200);
	CHECK_SPAN(&t, 1, 0, LOCK_LIST, WAIT, 0, 7000, 7100);
	CHECK_SPAN(&t, 1, 1, LOCK_LIST, HOLD, 0, 7100, 7200);
	CHECK_SPAN(&t, 1, 2, LOCK_BUILD, HOLD, 0, 7200, 19200);
	CHECK_EQ(r.scans_skipped, 1);
	CHECK_EQ(t.done_ns[0], 31200);
	CHECK_EQ(t.done_ns[1], 19200);
	f2fs_fxmark_trace_free(&t);

	/* the refusals: no stride, no room, too much room */
	t = whole(0, 16);
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUL, 0, 2, 2, &C, 1, &r, &t), -22);
	t = whole(1, 0);
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUL, 0, 2, 2, &C, 1, &r, &t), -22);
	t = whole(1, F2FS_TRACE_MAX_SPANS / 100);
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUL, 0, 120, 2, &C, 1, &r, &t), -22);
	CHECK(!t.spans);
	t = whole(1, 16);
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUL, 0, 0, 2, &C, 1, &r, &t), -22);
	CHECK(!t.spans);
}

/* field by field: the spans' padding is never written */
static int span_eq(const struct f2fs_lock_span *a, const struct f2fs_lock_span *b)
{
	return a->from == b->from && a->to == b->to && a->lock == b->lock && a->kind == b->kind && a->depth == b->depth;
}

static int by_from(const void *x, const void *y)
{
	const struct f2fs_lock_span *a = x, *b = y;

	return a->from < b->from ? -1 : a->from > b->from ? 1 : 0;
}

/* a whole run traced: the same results as untraced, and the spans add up to its totals */
static void check_trace_invariants(enum fxmark_workload w, uint32_t clue, uint32_t cores, uint32_t n)
{
	struct f2fs_fxmark_result r, u;
	/* at most 4 holds and 3 waits an unlink */
	struct f2fs_fxmark_trace t = whole(1, 8 * n);
	double wait[LOCK_COUNT] = { 0 };
	uint64_t holds[LOCK_COUNT] = { 0 }, end = 0;
	struct f2fs_lock_span *sorted = malloc(sizeof(*sorted) * 8 * n);
	uint32_t k, i, j, bad = 0;

	CHECK_EQ(f2fs_fxmark_unlink(w, clue, cores, n, &C, 7, &u), 0);
	CHECK_EQ(f2fs_fxmark_unlink_traced(w, clue, cores, n, &C, 7, &r, &t), 0);
	CHECK(memcmp(&r, &u, sizeof(r)) == 0); /* recording changes nothing */
	CHECK_EQ(t.dropped, 0);
	for (k = 0; k < t.traced; k++) {
		uint32_t len = t.len[k];

		memcpy(sorted, span(&t, k, 0), sizeof(*sorted) * len);
		for (i = 0; i < len; i++) {
			const struct f2fs_lock_span *s = &sorted[i];

			if (s->kind == WAIT)
				wait[s->lock] += (double)(s->to - s->from);
			else
				holds[s->lock]++;
			bad += s->to < s->from || s->depth > 1 || (s->depth == 1) != (w == FXMARK_MWUM && s->lock != LOCK_DIR);
			/* a wait is ended by the handoff: its hold starts that instant */
			if (s->kind == WAIT) {
				for (j = 0; j < len && !(sorted[j].kind == HOLD && sorted[j].lock == s->lock && sorted[j].from == s->to); j++)
					;
				bad += j == len;
			}
			if (s->to > end)
				end = s->to;
		}
		/* at one depth a core's spans never overlap; at depth 1 they lie inside a directory hold */
		qsort(sorted, len, sizeof(*sorted), by_from);
		for (i = 0; i < len; i++) {
			uint64_t last_to[2] = { 0, 0 };
			for (j = 0; j < i; j++)
				if (sorted[j].depth == sorted[i].depth && sorted[j].to > last_to[sorted[i].depth])
					last_to[sorted[i].depth] = sorted[j].to;
			bad += sorted[i].from < last_to[sorted[i].depth];
			if (sorted[i].depth == 1) {
				for (j = 0; j < len && !(sorted[j].depth == 0 && sorted[j].kind == HOLD && sorted[j].lock == LOCK_DIR &&
							 sorted[j].from <= sorted[i].from && sorted[i].to <= sorted[j].to); j++)
					;
				bad += j == len;
			}
		}
		CHECK(t.done_ns[k] >= (len ? sorted[len - 1].to : 0));
	}
	CHECK_EQ(bad, 0);
	for (k = 0; k < LOCK_COUNT; k++) {
		CHECK_EQ(wait[k], r.wait_ns[k]); /* exact: whole ns, summed in doubles below 2^53 */
		CHECK_EQ(holds[k], r.acquired[k]);
	}
	CHECK_EQ(end, (uint64_t)(r.seconds * 1e9 + 0.5));
	free(sorted);
	f2fs_fxmark_trace_free(&t);
}

/* a window, a stride and a per-core bound keep exactly the whole run's spans they promise */
static void test_trace_bounds(void)
{
	struct f2fs_fxmark_result r;
	struct f2fs_fxmark_trace all = whole(1, 4000), win = whole(8, 4000), few = whole(8, 2);
	const uint64_t from = 200000, until = 450000;
	uint32_t k, i, j;
	uint64_t dropped = 0;

	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUM, 7, 120, 40, &C, 3, &r, &all), 0);
	win.from_ns = few.from_ns = from;
	win.until_ns = few.until_ns = until;
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUM, 7, 120, 40, &C, 3, &r, &win), 0);
	CHECK_EQ(f2fs_fxmark_unlink_traced(FXMARK_MWUM, 7, 120, 40, &C, 3, &r, &few), 0);
	CHECK_EQ(win.traced, 15); /* cores 0, 8, ..., 112 */
	CHECK_EQ(win.dropped, 0);
	for (k = 0; k < win.traced; k++) {
		uint32_t core = k * 8, in = 0;

		CHECK_EQ(win.done_ns[k], all.done_ns[core]);
		for (i = 0, j = 0; i < all.len[core]; i++) {
			const struct f2fs_lock_span *s = span(&all, core, i);

			if (s->from >= until || s->to <= from)
				continue;
			in++;
			CHECK(j < win.len[k] && span_eq(s, span(&win, k, j)));
			j++;
		}
		CHECK_EQ(win.len[k], in);
		CHECK(in > 0);
		/* the bound keeps the first two to end */
		CHECK_EQ(few.len[k], in < 2 ? in : 2);
		for (i = 0; i < few.len[k]; i++)
			CHECK(span_eq(span(&few, k, i), span(&win, k, i)));
		dropped += in - few.len[k];
	}
	CHECK_EQ(few.dropped, dropped);
	CHECK(dropped > 0);
	f2fs_fxmark_trace_free(&all);
	f2fs_fxmark_trace_free(&win);
	f2fs_fxmark_trace_free(&few);
}

static void test_trace(void)
{
	const uint32_t clues[] = { 0, 1, 2, 4, 7 }, cores[] = { 1, 2, 8, 30, 120 };
	uint32_t w, i, j;

	test_trace_by_hand();
	for (w = 0; w < 2; w++)
		for (i = 0; i < 5; i++)
			for (j = 0; j < 5; j++)
				check_trace_invariants((enum fxmark_workload)w, clues[i], cores[j], 40);
	test_trace_bounds();
}

/* ---- the free-NID model ---- */

/* one f2fs_free_nid_scan record pair: phase | skipped << 8, start, end, scanned, found */
struct scan { uint32_t phase, start, end, scanned, found; };
#define BITMAP 0
#define NAT 1
#define DEFERRED 2

/* the scans since the last call equal exp[] record for record (phase and skipped; the
 * sync bit and the NAT blocks visited are checked where a test says); the stream is cleared */
static void expect_scans(struct f2fs_nm_info *nm, const struct scan *exp, size_t n, int line)
{
	size_t k;

	check_count++;
	if (nm->events.len != 2 * n) {
		check_failures++;
		fprintf(stderr, "%s:%d: %zu scan records, expected %zu\n", __FILE__, line, nm->events.len / 2, n);
	}
	for (k = 0; k < n && 2 * k + 1 < nm->events.len; k++) {
		const struct fslab_event *e = &nm->events.ev[2 * k], *r = &nm->events.ev[2 * k + 1];

		check_count++;
		if (e->type != FSLAB_EV_F2FS_NID_SCAN || r->type != FSLAB_EV_F2FS_NID_SCAN_RESULT || (e->a & 0x1ff) != exp[k].phase ||
		    e->b != exp[k].start || e->c != exp[k].end || r->a != exp[k].scanned || r->b != exp[k].found) {
			check_failures++;
			fprintf(stderr, "%s:%d: scan %zu is {%u, %u, %u, %u, %u}, expected {%u, %u, %u, %u, %u}\n", __FILE__, line, k,
				e->a, e->b, e->c, r->a, r->b, exp[k].phase, exp[k].start, exp[k].end, exp[k].scanned, exp[k].found);
		}
	}
	fslab_events_clear(&nm->events);
}
#define EXPECT_SCANS(nm, ...) do { const struct scan _e[] = { __VA_ARGS__ }; \
	expect_scans(nm, _e, sizeof(_e) / sizeof(_e[0]), __LINE__); } while (0)
#define EXPECT_NO_SCAN(nm) expect_scans(nm, NULL, 0, __LINE__)

static int bit(const struct f2fs_nm_info *nm, uint32_t nid)
{
	const uint8_t *bm = nm->free_nid_bitmap + (size_t)(nid / NAT_ENTRY_PER_BLOCK) * F2FS_NID_BITMAP_BYTES;
	uint32_t i = nid % NAT_ENTRY_PER_BLOCK;

	return (bm[i >> 3] >> (i & 7)) & 1;
}

/* n creates, one check for all; the last NID */
static uint32_t alloc_n(struct f2fs_nm_info *nm, uint32_t n)
{
	uint32_t nid = 0;
	int err = 0;

	while (n-- && !err)
		err = f2fs_nm_alloc(nm, &nid);
	CHECK_EQ(err, 0);
	return nid;
}

static void unlink_range(struct f2fs_nm_info *nm, uint32_t first, uint32_t end)
{
	int err = 0;

	for (; first < end && !err; first++)
		err = f2fs_nm_unlink(nm, first);
	CHECK_EQ(err, 0);
}

/* mount: f2fs_build_free_nids(sync, mount) reads FREE_NID_PAGES NAT blocks from the block of
 * next_free_nid (4, so block 0); a NAT of 4 blocks is read whole and the walk wraps to 0 */
static void test_nid_mount_and_alloc(void)
{
	struct f2fs_nm_info *nm = f2fs_nm_new(4, 0, 0);
	uint32_t nid, list[4];

	/* 4 x 455 entries read; free: 4..454 (451: 0 is never free, 1-3 hold the node and meta
	 * inodes and the root) + 3 x 455 = 1816; 8 steps of a block from 0 end at 0 again */
	EXPECT_SCANS(nm, { NAT, 0, 0, 1820, 1816 });
	CHECK_EQ(nm->nid_cnt[FREE_NID], 1816);
	CHECK_EQ(nm->available_nids, 1816); /* max_nid 1820 - 1 valid node - 3 reserved */
	CHECK_EQ(nm->next_scan_nid, 0);
	CHECK_EQ(nm->c.nat_scans, 1);
	CHECK_EQ(nm->c.nids_scanned, 1820);
	CHECK_EQ(nm->c.bitmap_scans, 0);
	CHECK(nm->nat_block_bitmap[0] && nm->nat_block_bitmap[3]);
	CHECK_EQ(nm->free_nid_count[0], 451);
	CHECK_EQ(nm->free_nid_count[3], 455);
	CHECK(!bit(nm, 3) && bit(nm, 4) && bit(nm, 1819));
	CHECK_EQ(f2fs_nm_free_list(nm, list, 4), 4);
	CHECK_EQ(list[0], 4);
	CHECK_EQ(list[3], 7);

	/* a create takes the list's head; the bit goes, with the block's count */
	CHECK_EQ(f2fs_nm_alloc(nm, &nid), 0);
	CHECK_EQ(nid, 4);
	CHECK(!bit(nm, 4));
	CHECK_EQ(nm->free_nid_count[0], 450);
	CHECK_EQ(nm->nid_cnt[FREE_NID], 1815);
	CHECK_EQ(nm->nid_cnt[PREALLOC_NID], 0); /* f2fs_alloc_nid_done */
	CHECK_EQ(nm->available_nids, 1815);
	CHECK_EQ(nm->valid_node_count, 2);
	CHECK_EQ(nm->dirty_cnt, 1);
	/* plenty in the list: no scan */
	CHECK_EQ(alloc_n(nm, 1815), 1819);
	EXPECT_NO_SCAN(nm);
	/* none left: available_nids says so before any scan */
	CHECK_EQ(f2fs_nm_alloc(nm, &nid), -28);
	EXPECT_NO_SCAN(nm);

	/* the NIDs of block 2 freed come back only with the checkpoint that writes them */
	unlink_range(nm, 910, 1365);
	CHECK_EQ(nm->nid_cnt[FREE_NID], 0);
	CHECK_EQ(nm->free_nid_count[2], 0);
	CHECK_EQ(f2fs_nm_alloc(nm, &nid), -28);
	f2fs_nm_checkpoint(nm);
	CHECK_EQ(nm->nid_cnt[FREE_NID], 455);
	CHECK_EQ(nm->available_nids, 455);
	CHECK_EQ(nm->free_nid_count[2], 455);
	CHECK(bit(nm, 910) && bit(nm, 1364) && !bit(nm, 909));
	CHECK_EQ(nm->dirty_cnt, 0);
	CHECK_EQ(f2fs_nm_alloc(nm, &nid), 0);
	CHECK_EQ(nid, 910);
	EXPECT_NO_SCAN(nm);
	f2fs_nm_free(nm);
}

/* a create that finds the list empty builds free NIDs itself: the bitmap scan first, then
 * the NAT entry scan from next_scan_nid */
static void test_nid_alloc_scans(void)
{
	struct f2fs_nm_info *nm = f2fs_nm_new(16, 0, 0);
	uint32_t nid;

	/* blocks 0-7: 451 + 7 x 455 = 3636 free; next_scan_nid = block 8's first NID */
	EXPECT_SCANS(nm, { NAT, 0, 3640, 3640, 3636 });
	CHECK_EQ(nm->next_scan_nid, 3640);
	CHECK_EQ(alloc_n(nm, 3636), 3639);
	EXPECT_NO_SCAN(nm);
	CHECK_EQ(f2fs_nm_alloc(nm, &nid), 0);
	CHECK_EQ(nid, 3640);
	/* every loaded block's count is 0: the bitmap scan walks no bits; the NAT scan reads
	 * blocks 8-15 (3640 entries, all free) and wraps to NID 0 at max_nid 7280 */
	EXPECT_SCANS(nm, { BITMAP, 0, 0, 0, 0 }, { NAT, 3640, 0, 3640, 3640 });
	CHECK_EQ(nm->next_scan_nid, 0);
	CHECK_EQ(nm->c.bitmap_scans, 1);
	CHECK_EQ(nm->c.nat_scans, 2);
	CHECK_EQ(nm->c.nids_scanned, 3640 + 3640);
	/* a background call with the list full enough does nothing */
	f2fs_nm_balance_fs_bg(nm);
	EXPECT_NO_SCAN(nm);
	f2fs_nm_free(nm);
}

/*
 * The bitmap scan after the shrinker: 16 NAT blocks all allocated, all freed, the list
 * trimmed to MAX_FREE_NIDS (the NIDs of blocks 8-15 stay listed; 4..3639 only in the
 * bitmap). Upstream each scan starts at block 0; CLUE's heuristic where the last stopped.
 */
static void test_nid_bitmap_scans(uint32_t clue)
{
	struct f2fs_nm_info *nm = f2fs_nm_new(16, clue, 0);
	uint32_t list[3];

	alloc_n(nm, 3636 + 3640); /* 4..7279: the NAT scan of blocks 8-15 on the way */
	f2fs_nm_checkpoint(nm);
	fslab_events_clear(&nm->events);
	f2fs_nm_reset_counters(nm);

	unlink_range(nm, 4, 7280);
	f2fs_nm_checkpoint(nm); /* 16 sets over NAT_JOURNAL_ENTRIES: block order, NID order */
	CHECK_EQ(nm->nid_cnt[FREE_NID], 7276);
	CHECK_EQ(nm->available_nids, 7276);
	CHECK_EQ(f2fs_nm_free_list(nm, list, 1), 1);
	CHECK_EQ(list[0], 4);
	CHECK_EQ(f2fs_nm_try_to_free_nids(nm, 0xffffffffu), 7276 - MAX_FREE_NIDS);
	CHECK_EQ(nm->nid_cnt[FREE_NID], MAX_FREE_NIDS);
	CHECK_EQ(nm->available_nids, 7276); /* the trimmed NIDs are still free, only unlisted */
	CHECK(bit(nm, 4) && bit(nm, 3639));
	CHECK_EQ(nm->free_nid_count[0], 451);
	CHECK_EQ(f2fs_nm_free_list(nm, list, 1), 1);
	CHECK_EQ(list[0], 3640);
	CHECK_EQ(f2fs_nm_try_to_free_nids(nm, 0xffffffffu), 0); /* at MAX_FREE_NIDS already */

	/* creates take 3640..6825: 454 left, under NAT_ENTRY_PER_BLOCK */
	CHECK_EQ(alloc_n(nm, 3186), 6825);
	EXPECT_NO_SCAN(nm);
	/* the background call scans the bitmap from block 0 (both ways: next_bitmap_blk is 0):
	 * blocks 0-6 whole (451 + 6 x 455 = 3181 added, 7 x 455 bits walked), then block 7's
	 * first 5 bits (3185..3189) bring the list to MAX_FREE_NIDS: it stops in block 7 */
	f2fs_nm_balance_fs_bg(nm);
	EXPECT_SCANS(nm, { BITMAP, 0, 7 * 455, 7 * 455 + 5, 3186 });
	CHECK_EQ(nm->next_bitmap_blk, 7);
	CHECK_EQ(nm->nid_cnt[FREE_NID], MAX_FREE_NIDS);

	/* creates take 6826..7279 and 4..2735: 2736..3189 left (454) */
	CHECK_EQ(alloc_n(nm, 3186), 2735);
	f2fs_nm_balance_fs_bg(nm);
	/* blocks 0-5 and 8-15 have no free bit; block 6 (2736..3184, all listed) and block 7
	 * (3190..3639 new) are walked whole: 910 bits, 450 added. Upstream starts at block 0 and
	 * ends there; the heuristic starts and ends at block 7 */
	if (clue & F2FS_CLUE_HEURISTIC) {
		EXPECT_SCANS(nm, { BITMAP, 3185, 3185, 910, 450 });
		CHECK_EQ(nm->next_bitmap_blk, 7);
	} else {
		EXPECT_SCANS(nm, { BITMAP, 0, 0, 910, 450 });
		CHECK_EQ(nm->next_bitmap_blk, 0);
	}
	CHECK_EQ(nm->nid_cnt[FREE_NID], 904);

	/* creates take 2736..3185: block 7's 3186..3639 left (454, listed). The bitmap scan adds
	 * nothing, and the NAT scan from next_scan_nid (0, wrapped) steps over blocks 0-7, all
	 * loaded: it reads no entry. Lazy: the deferred record instead, at NID 0 */
	alloc_n(nm, 450);
	f2fs_nm_balance_fs_bg(nm);
	{
		const uint32_t first = (clue & F2FS_CLUE_HEURISTIC) ? 3185 : 0;

		if (clue & F2FS_CLUE_LAZY)
			EXPECT_SCANS(nm, { BITMAP, first, first, 455, 0 }, { DEFERRED, 0, 0, 0, 0 });
		else
			EXPECT_SCANS(nm, { BITMAP, first, first, 455, 0 }, { NAT, 0, 3640, 0, 0 });
	}
	CHECK_EQ(nm->c.bitmap_scans, 3);
	CHECK_EQ(nm->c.nat_scans, (clue & F2FS_CLUE_LAZY) ? 0 : 1);
	CHECK_EQ(nm->c.nat_deferred, (clue & F2FS_CLUE_LAZY) ? 1 : 0);
	CHECK_EQ(nm->c.nids_scanned, 7 * 455 + 5 + 910 + 455);
	f2fs_nm_free(nm);
}

/* CLUE's lazy NAT update skips a background bitmap walk only while it would find nothing */
static void test_nid_lazy_walk(void)
{
	struct f2fs_nm_info *nm = f2fs_nm_new(32, F2FS_CLUE_LAZY, 0);
	uint32_t nid;

	alloc_n(nm, 3182);
	f2fs_nm_balance_fs_bg(nm); /* walks all 32 blocks, defers the NAT scan */
	CHECK_EQ(nm->events.len, 6); /* the mount's NAT scan, the walk, the deferral */
	CHECK_EQ(nm->events.ev[2].a, BITMAP); /* background: the sync bit (1 << 9) is clear */
	CHECK_EQ(nm->events.ev[3].c, 32); /* a walk all the way round visits every block */
	fslab_events_clear(&nm->events);
	f2fs_nm_balance_fs_bg(nm);
	EXPECT_NO_SCAN(nm);
	CHECK_EQ(nm->c.walks_avoided, 1);
	/* a NID given back sets its bit again: the next background call walks */
	CHECK_EQ(f2fs_nm_alloc(nm, &nid), 0);
	CHECK_EQ(f2fs_nm_alloc_failed(nm, &nid), 0);
	fslab_events_clear(&nm->events);
	f2fs_nm_balance_fs_bg(nm);
	CHECK_EQ(nm->events.len, 2);
	CHECK_EQ(nm->c.walks_avoided, 1);
	/* a create that empties the list builds synchronously: its records carry the sync bit */
	alloc_n(nm, nm->nid_cnt[FREE_NID]);
	fslab_events_clear(&nm->events);
	CHECK_EQ(f2fs_nm_alloc(nm, &nid), 0);
	CHECK(nm->events.len >= 2);
	CHECK_EQ(nm->events.ev[0].a & 0xff, BITMAP);
	CHECK_EQ(nm->events.ev[0].a >> 9, 1);
	f2fs_nm_free(nm);
}

/* CLUE's lazy NAT update: a background call owes the NAT scan to the next checkpoint */
static void test_nid_lazy(void)
{
	struct f2fs_nm_info *nm = f2fs_nm_new(32, F2FS_CLUE_LAZY, 0), *up = f2fs_nm_new(32, 0, 0);
	uint32_t nid;

	/* mount ignores the clue mask */
	EXPECT_SCANS(nm, { NAT, 0, 3640, 3640, 3636 });
	EXPECT_SCANS(up, { NAT, 0, 3640, 3640, 3636 });
	f2fs_nm_reset_counters(nm);
	alloc_n(nm, 3182); /* 4..3185: 3186..3639 left (454) */
	alloc_n(up, 3182);
	/* the bitmap scan finds block 7's listed bits only (455 walked, nothing added) */
	f2fs_nm_balance_fs_bg(up);
	EXPECT_SCANS(up, { BITMAP, 0, 0, 455, 0 }, { NAT, 3640, 7280, 3640, 3640 });
	f2fs_nm_balance_fs_bg(nm);
	/* lazy: the deferred record at next_scan_nid, and no NAT entry read */
	EXPECT_SCANS(nm, { BITMAP, 0, 0, 455, 0 }, { DEFERRED, 3640, 3640, 0, 0 });
	CHECK(nm->nat_scan_deferred);
	CHECK_EQ(nm->c.nat_deferred, 1);
	CHECK_EQ(nm->c.nat_scans, 0);
	CHECK_EQ(nm->c.nids_scanned, 455);
	CHECK(!nm->nat_block_bitmap[8]);
	/* a second background call: nothing was freed since the complete walk, so the walk is
	 * skipped (clue_walks_avoided), and the debt is not recorded twice */
	f2fs_nm_balance_fs_bg(nm);
	EXPECT_NO_SCAN(nm);
	CHECK_EQ(nm->c.walks_avoided, 1);
	CHECK_EQ(nm->c.nat_deferred, 1);
	/* the checkpoint pays it: blocks 8-15 */
	f2fs_nm_checkpoint(nm);
	EXPECT_SCANS(nm, { NAT, 3640, 7280, 3640, 3640 });
	CHECK(!nm->nat_scan_deferred);
	CHECK_EQ(nm->c.nat_scans, 1);
	CHECK_EQ(nm->nid_cnt[FREE_NID], 454 + 3640);
	f2fs_nm_checkpoint(nm);
	EXPECT_NO_SCAN(nm);
	/* a create that finds the list empty is never deferred */
	alloc_n(nm, 454 + 3640);
	CHECK_EQ(f2fs_nm_alloc(nm, &nid), 0);
	CHECK_EQ(nid, 7280);
	EXPECT_SCANS(nm, { BITMAP, 0, 0, 0, 0 }, { NAT, 7280, 10920, 3640, 3640 });
	f2fs_nm_free(up);
	f2fs_nm_free(nm);

	/* a create's own NAT scan pays the debt too: the next checkpoint owes nothing */
	nm = f2fs_nm_new(32, F2FS_CLUE_LAZY, 0);
	alloc_n(nm, 3182);
	f2fs_nm_balance_fs_bg(nm);
	alloc_n(nm, 454 + 1);
	CHECK(!nm->nat_scan_deferred);
	fslab_events_clear(&nm->events);
	alloc_n(nm, 3639 - 100);
	f2fs_nm_checkpoint(nm);
	EXPECT_NO_SCAN(nm);
	f2fs_nm_free(nm);

	/* a checkpoint whose freed NIDs fill the list drops the debt without a scan */
	nm = f2fs_nm_new(16, F2FS_CLUE_LAZY, 0);
	alloc_n(nm, 3182);
	f2fs_nm_balance_fs_bg(nm);
	fslab_events_clear(&nm->events);
	CHECK(nm->nat_scan_deferred);
	CHECK_EQ(f2fs_nm_unlink(nm, 100), 0);
	f2fs_nm_checkpoint(nm); /* 454 + 1 = NAT_ENTRY_PER_BLOCK */
	EXPECT_NO_SCAN(nm);
	CHECK(!nm->nat_scan_deferred);
	CHECK_EQ(nm->nid_cnt[FREE_NID], 455);
	f2fs_nm_free(nm);
}

/* __adjust_nat_entry_set(): small sets by size (ties: the later block first), sets of
 * NAT_JOURNAL_ENTRIES or more after them in block order; in a set, the order of change */
static void test_nid_checkpoint_order(void)
{
	struct f2fs_nm_info *nm = f2fs_nm_new(16, 0, 0);
	const uint32_t want[9] = { 1820, 910, 456, 455, 2275, 2276, 2277, 2278, 2279 };
	uint32_t list[49], k;

	alloc_n(nm, 7276);
	f2fs_nm_checkpoint(nm);
	CHECK_EQ(nm->nid_cnt[FREE_NID], 0);
	for (k = 10; k < 50; k++) /* block 0: 40 */
		CHECK_EQ(f2fs_nm_unlink(nm, k), 0);
	CHECK_EQ(f2fs_nm_unlink(nm, 456), 0); /* block 1: 2, 456 first */
	CHECK_EQ(f2fs_nm_unlink(nm, 455), 0);
	CHECK_EQ(f2fs_nm_unlink(nm, 910), 0);  /* block 2: 1 */
	CHECK_EQ(f2fs_nm_unlink(nm, 1820), 0); /* block 4: 1 */
	unlink_range(nm, 2275, 2280);          /* block 5: 5 */
	f2fs_nm_checkpoint(nm);
	CHECK_EQ(f2fs_nm_free_list(nm, list, 49), 49);
	for (k = 0; k < 9; k++)
		CHECK_EQ(list[k], want[k]);
	for (k = 9; k < 49; k++)
		CHECK_EQ(list[k], k + 1);
	f2fs_nm_free(nm);
}

static void test_nid_misc(void)
{
	struct f2fs_nm_info *nm = f2fs_nm_new(4, 0, 0);
	uint32_t nid, list[1816];

	/* a failed create gives its NID back to the list's tail, bit and all */
	CHECK_EQ(f2fs_nm_alloc_failed(nm, &nid), 0);
	CHECK_EQ(nid, 4);
	CHECK_EQ(f2fs_nm_free_list(nm, list, 1816), 1816);
	CHECK_EQ(list[0], 5);
	CHECK_EQ(list[1815], 4);
	CHECK(bit(nm, 4));
	CHECK_EQ(nm->free_nid_count[0], 451);
	CHECK_EQ(nm->available_nids, 1816);
	CHECK_EQ(nm->nid_cnt[PREALLOC_NID], 0);
	CHECK_EQ(nm->dirty_cnt, 0);

	CHECK_EQ(f2fs_nm_unlink(nm, 3), -22);    /* the root */
	CHECK_EQ(f2fs_nm_unlink(nm, 5), -22);    /* free */
	CHECK_EQ(f2fs_nm_unlink(nm, 1820), -22); /* past max_nid */
	CHECK_EQ(f2fs_nm_set_clue(nm, 8), -22);
	CHECK_EQ(f2fs_nm_set_clue(nm, 7), 0);
	CHECK(!f2fs_nm_new(0, 0, 0));
	CHECK(!f2fs_nm_new(F2FS_NID_MAX_NAT_BLOCKS + 1, 0, 0));
	CHECK(!f2fs_nm_new(4, 8, 0));
	f2fs_nm_free(nm);

	/* the list's memory share (f2fs_available_free_memory): 400 pages of RAM allow it less
	 * than 1 page (256 free_nids); with 300 listed a background call builds nothing and the
	 * shrinker has nothing over MAX_FREE_NIDS to drop. A create with the list empty still
	 * builds. */
	nm = f2fs_nm_new(16, 0, 400);
	fslab_events_clear(&nm->events);
	alloc_n(nm, 3636 - 300);
	f2fs_nm_balance_fs_bg(nm);
	EXPECT_NO_SCAN(nm);
	CHECK_EQ(nm->nid_cnt[FREE_NID], 300);
	alloc_n(nm, 301);
	EXPECT_SCANS(nm, { BITMAP, 0, 0, 0, 0 }, { NAT, 3640, 0, 3640, 3640 });
	f2fs_nm_free(nm);
	nm = f2fs_nm_new(16, 0, 0); /* the guest's RAM: the same call builds */
	fslab_events_clear(&nm->events);
	alloc_n(nm, 3636 - 300);
	f2fs_nm_balance_fs_bg(nm);
	CHECK_EQ(nm->events.len, 4);
	f2fs_nm_free(nm);
}

/* fslab-bench f2fs-clue's shape (web/src/topics/f2fs/nid.ts's benchWorkload() without its syncer) */
static void workload(struct f2fs_nm_info *nm, uint32_t files)
{
	uint32_t ops[64 * 3], n = 0, done, i, j;
#define OP(o, a, b) do { ops[3 * n] = (o); ops[3 * n + 1] = (a); ops[3 * n + 2] = (b); n++; } while (0)
	OP(NID_OP_RESET_COUNTERS, 0, 0);
	OP(NID_OP_ALLOC, 1, 0);
	for (i = 500; i <= files; i += 500) {
		OP(NID_OP_ALLOC, 500, 0);
		OP(NID_OP_SYNC, 3, 0);
	}
	OP(NID_OP_ALLOC, files % 500, 0);
	OP(NID_OP_SYNC, 3, 0);
	OP(NID_OP_UNLINK, 0, nm->max_nid);
	OP(NID_OP_SYNC, 3, 0);
	OP(NID_OP_SHRINK, 0xffffffffu, 0);
	CHECK_EQ(f2fs_nm_run(nm, ops, n, &done), 0);
	CHECK_EQ(done, n);
	n = 0;
	OP(NID_OP_ALLOC, 4, 0);
	for (i = 500; i <= files / 4; i += 500) {
		OP(NID_OP_ALLOC, 4 * 500, 0);
		for (j = 0; j < 4; j++)
			OP(NID_OP_SYNC, 3, 0);
	}
	OP(NID_OP_ALLOC, 4 * (files / 4 % 500), 0);
	OP(NID_OP_UNLINK, 0, nm->max_nid);
	OP(NID_OP_SYNC, 3, 0);
	CHECK_EQ(f2fs_nm_run(nm, ops, n, &done), 0);
#undef OP
}

static void count_records(const struct f2fs_nm_info *nm, uint32_t *by_phase)
{
	size_t k;

	by_phase[0] = by_phase[1] = by_phase[2] = 0;
	for (k = 0; k < nm->events.len; k += 2)
		by_phase[nm->events.ev[k].a & 0xff]++;
}

static void test_nid_workload(void)
{
	struct f2fs_nm_info *nm[8];
	uint32_t clue, n[3], k;
	const uint32_t bad[3] = { NID_OP_ALLOC, 1, 0 }, bad2[6] = { NID_OP_CHECKPOINT, 0, 0, 99, 0, 0 };
	uint32_t done;

	for (clue = 0; clue < 8; clue++) {
		nm[clue] = f2fs_nm_new(512, clue, 0);
		workload(nm[clue], 8000);
	}
	/* sequentially, the optimistic bit changes nothing: 1 = 0, 3 = 2, 5 = 4, 7 = 6 */
	for (clue = 1; clue < 8; clue += 2) {
		CHECK_EQ(nm[clue]->events.len, nm[clue - 1]->events.len);
		CHECK(nm[clue]->events.len == nm[clue - 1]->events.len &&
		      !memcmp(nm[clue]->events.ev, nm[clue - 1]->events.ev, nm[clue]->events.len * sizeof(struct fslab_event)));
	}
	/* what the guest test claims of the kernel's run: counters agree with the records ... */
	for (clue = 0; clue < 8; clue++) {
		count_records(nm[clue], n);
		CHECK_EQ(n[BITMAP], nm[clue]->c.bitmap_scans);
		CHECK_EQ(n[NAT], nm[clue]->c.nat_scans + 1); /* the mount's, before the reset */
		CHECK_EQ(n[DEFERRED], nm[clue]->c.nat_deferred);
		CHECK_EQ(nm[clue]->c.scans_skipped, 0);
	}
	/* ... upstream never defers and scans NAT entries; lazy defers */
	CHECK_EQ(nm[0]->c.nat_deferred, 0);
	CHECK(nm[0]->c.nat_scans > 0);
	CHECK(nm[4]->c.nat_deferred > 0);
	/* upstream's bitmap scans all start at 0, one stops short of the end; the heuristic's
	 * each start where the one before ended, not all at 0 */
	{
		uint32_t last_end = 0, some_end = 0, some_start = 0, first = 1;

		for (k = 0; k < nm[0]->events.len; k += 2)
			if ((nm[0]->events.ev[k].a & 0xff) == BITMAP) {
				CHECK_EQ(nm[0]->events.ev[k].b, 0);
				some_end |= nm[0]->events.ev[k].c;
			}
		CHECK(some_end);
		for (k = 0; k < nm[2]->events.len; k += 2)
			if ((nm[2]->events.ev[k].a & 0xff) == BITMAP) {
				if (!first)
					CHECK_EQ(nm[2]->events.ev[k].b, last_end);
				first = 0;
				last_end = nm[2]->events.ev[k].c;
				some_start |= nm[2]->events.ev[k].b;
			}
		CHECK(some_start);
	}
	/* everything freed and checkpointed: every NID but 0-3 is available again */
	for (clue = 0; clue < 8; clue++) {
		CHECK_EQ(nm[clue]->available_nids, 512 * 455 - 4);
		CHECK_EQ(nm[clue]->valid_node_count, 1);
		CHECK_EQ(nm[clue]->dirty_cnt, 0);
		CHECK_EQ(nm[clue]->nid_cnt[PREALLOC_NID], 0);
	}
	/* a script stops at the first op that fails */
	CHECK_EQ(f2fs_nm_run(nm[0], bad2, 2, &done), -22);
	CHECK_EQ(done, 1);
	f2fs_nm_free(nm[0]);
	nm[0] = f2fs_nm_new(1, 0, 0);
	alloc_n(nm[0], 451);
	CHECK_EQ(f2fs_nm_run(nm[0], bad, 1, &done), -28);
	CHECK_EQ(done, 0);
	for (clue = 0; clue < 8; clue++)
		f2fs_nm_free(nm[clue]);
}

int main(void)
{
	test_fxmark();
	test_trace();
	test_nid_mount_and_alloc();
	test_nid_alloc_scans();
	test_nid_bitmap_scans(0);
	test_nid_bitmap_scans(F2FS_CLUE_HEURISTIC);
	test_nid_bitmap_scans(F2FS_CLUE_OPTIMISTIC | F2FS_CLUE_HEURISTIC | F2FS_CLUE_LAZY);
	test_nid_lazy();
	test_nid_lazy_walk();
	test_nid_checkpoint_order();
	test_nid_misc();
	test_nid_workload();
	return CHECK_DONE("test_f2fs");
}
