/* SPDX-License-Identifier: MIT */
/*
 * Hand-worked cases for the exfat model, each traced by hand through fs/exfat/fatent.c and
 * balloc.c of Linux 7.2 (and exfat_clear_bitmap() of 6.14 for the per-cluster policy).
 */
#include "fslab/errno.h"
#include <string.h>
#include "fslab/exfat.h"
#include "fslab/exfat_dir.h"
#include "check.h"

static unsigned count_events(const struct exfat_volume *v, uint32_t type)
{
	unsigned n = 0;
	for (size_t i = 0; i < v->events.len; i++)
		n += v->events.ev[i].type == type;
	return n;
}

/* clusters covered by the bitmap set/clear runs of a type */
static unsigned count_clusters(const struct exfat_volume *v, uint32_t type)
{
	unsigned n = 0;
	for (size_t i = 0; i < v->events.len; i++)
		if (v->events.ev[i].type == type)
			n += v->events.ev[i].b;
	return n;
}

/* the i-th discard request in the stream */
static const struct fslab_event *discard(const struct exfat_volume *v, unsigned i)
{
	for (size_t k = 0; k < v->events.len; k++)
		if (v->events.ev[k].type == FSLAB_EV_EXFAT_DISCARD && i-- == 0)
			return &v->events.ev[k];
	return NULL;
}

static void test_contiguous_file_is_nofatchain(void)
{
	struct exfat_volume *v = exfat_volume_new(64, 3);
	int a = exfat_file_create(v, "a");

	CHECK_EQ(exfat_file_append(v, a, 8), 0);
	CHECK_EQ(v->files[a].chain.dir, 2);
	CHECK_EQ(v->files[a].chain.size, 8);
	CHECK_EQ(v->files[a].chain.flags, ALLOC_NO_FAT_CHAIN);
	CHECK_EQ(count_clusters(v, FSLAB_EV_EXFAT_BITMAP_SET), 8);
	CHECK_EQ(count_events(v, FSLAB_EV_EXFAT_BITMAP_SET), 1); /* one run */
	CHECK_EQ(count_events(v, FSLAB_EV_EXFAT_FAT_WRITE), 0); /* NoFatChain writes no FAT */
	CHECK_EQ(v->vol_amap[0], 0xFF);
	CHECK_EQ(v->used_clusters, 8);
	/* the kernel leaves clu_srch_ptr at the last hint, which was the last cluster */
	CHECK_EQ(v->clu_srch_ptr, 9);
	exfat_volume_free(v);
}

/*
 * a: 2..9, b: 10..13, then a grows by 4: hint 10 is taken, the search finds 14, so a's
 * NoFatChain becomes a FAT chain (2->3 ... 9->EOF), 14..17 are linked and 9 -> 14.
 */
static struct exfat_volume *two_runs(int *pa)
{
	struct exfat_volume *v = exfat_volume_new(64, 3);
	int a = exfat_file_create(v, "a"), b = exfat_file_create(v, "b");

	CHECK_EQ(exfat_file_append(v, a, 8), 0);
	CHECK_EQ(exfat_file_append(v, b, 4), 0);
	CHECK_EQ(v->files[b].chain.dir, 10);
	CHECK_EQ(exfat_file_append(v, a, 4), 0);
	*pa = a;
	return v;
}

static void test_append_after_gap_makes_fat_chain(void)
{
	int a;
	struct exfat_volume *v = two_runs(&a);
	uint32_t clus[16];

	CHECK_EQ(v->files[a].chain.flags, ALLOC_FAT_CHAIN);
	CHECK_EQ(v->files[a].chain.size, 12);
	CHECK_EQ(v->fat[2], 3);
	CHECK_EQ(v->fat[9], 14);
	CHECK_EQ(v->fat[17], EXFAT_EOF_CLUSTER);
	CHECK_EQ(exfat_file_clusters(v, a, clus, 16), 12);
	CHECK_EQ(clus[7], 9);
	CHECK_EQ(clus[8], 14);
	CHECK_EQ(clus[11], 17);
	exfat_volume_free(v);
}

static void test_free_fat_chain_batched_vs_per_cluster(void)
{
	int a;
	struct exfat_volume *batched = two_runs(&a);
	struct exfat_volume *per = exfat_volume_clone(batched);

	per->batch_discard = EXFAT_DISCARD_PER_CLUSTER;
	fslab_events_clear(&batched->events);
	CHECK_EQ(exfat_file_delete(batched, a), 0);
	CHECK_EQ(exfat_file_delete(per, a), 0);

	/* 6.15+: one request per contiguous run, in chain order */
	CHECK_EQ(count_events(batched, FSLAB_EV_EXFAT_DISCARD), 2);
	CHECK_EQ(discard(batched, 0)->a, 2);
	CHECK_EQ(discard(batched, 0)->b, 8);
	CHECK_EQ(discard(batched, 1)->a, 14);
	CHECK_EQ(discard(batched, 1)->b, 4);
	/* <= 6.14: one single-cluster request per cleared bit */
	CHECK_EQ(count_events(per, FSLAB_EV_EXFAT_DISCARD), 12);
	CHECK_EQ(discard(per, 11)->a, 17);
	CHECK_EQ(discard(per, 11)->b, 1);
	/* only the discards differ: the on-disk result is the same */
	CHECK_EQ(count_clusters(batched, FSLAB_EV_EXFAT_BITMAP_CLEAR), 12);
	/* batched: clears of a run coalesce; per cluster, each discard splits them */
	CHECK_EQ(count_events(batched, FSLAB_EV_EXFAT_BITMAP_CLEAR), 2);
	CHECK_EQ(count_events(per, FSLAB_EV_EXFAT_BITMAP_CLEAR), 12);
	CHECK(memcmp(batched->vol_amap, per->vol_amap, batched->map_bytes) == 0);
	CHECK(memcmp(batched->fat, per->fat, batched->num_clusters * 4) == 0);
	CHECK_EQ(batched->used_clusters, 4);
	/* exFAT frees in the bitmap only: the stale FAT link stays */
	CHECK_EQ(batched->fat[9], 14);
	exfat_volume_free(batched);
	exfat_volume_free(per);
}

/* The case: a chain of four runs frees with four discards batched, N per cluster. */
static void test_four_run_chain(void)
{
	struct exfat_volume *v = exfat_volume_new(256, 3);
	int f = exfat_file_create(v, "frag"), log = exfat_file_create(v, "log");
	int i;

	/* two writers taking turns: frag 5, log 1, frag 5, log 1, ... */
	for (i = 0; i < 4; i++) {
		CHECK_EQ(exfat_file_append(v, f, 5), 0);
		CHECK_EQ(exfat_file_append(v, log, 1), 0);
	}
	CHECK_EQ(v->files[f].chain.size, 20);
	CHECK_EQ(v->files[f].chain.flags, ALLOC_FAT_CHAIN);

	struct exfat_volume *per = exfat_volume_clone(v);
	per->batch_discard = EXFAT_DISCARD_PER_CLUSTER;
	fslab_events_clear(&v->events);
	CHECK_EQ(exfat_file_delete(v, f), 0);
	CHECK_EQ(exfat_file_delete(per, f), 0);
	CHECK_EQ(count_events(v, FSLAB_EV_EXFAT_DISCARD), 4);
	CHECK_EQ(count_events(per, FSLAB_EV_EXFAT_DISCARD), 20);
	/* runs: 2..6, 8..12, 14..18, 20..24 (log took 7, 13, 19, 25) */
	CHECK_EQ(discard(v, 0)->a, 2);
	CHECK_EQ(discard(v, 1)->a, 8);
	CHECK_EQ(discard(v, 3)->a, 20);
	CHECK_EQ(discard(v, 3)->b, 5);
	CHECK_EQ(discard(v, 3)->c, EXFAT_DISCARD_BATCHED);
	CHECK_EQ(discard(per, 0)->c, EXFAT_DISCARD_PER_CLUSTER);
	exfat_volume_free(v);
	exfat_volume_free(per);
}

static void test_nofatchain_free(void)
{
	struct exfat_volume *v = exfat_volume_new(1000, 3);
	int a = exfat_file_create(v, "a");

	CHECK_EQ(exfat_file_append(v, a, 700), 0);
	struct exfat_volume *per = exfat_volume_clone(v);
	per->batch_discard = EXFAT_DISCARD_PER_CLUSTER;
	fslab_events_clear(&v->events);
	CHECK_EQ(exfat_file_delete(v, a), 0);
	CHECK_EQ(exfat_file_delete(per, a), 0);
	CHECK_EQ(count_events(v, FSLAB_EV_EXFAT_DISCARD), 1);
	CHECK_EQ(discard(v, 0)->b, 700);
	CHECK_EQ(count_events(per, FSLAB_EV_EXFAT_DISCARD), 700);
	CHECK_EQ(v->used_clusters, 0);
	CHECK_EQ(exfat_count_used_clusters(v), 0);
	/* without -o discard there are no requests at all */
	struct exfat_volume *nod = exfat_volume_new(1000, 3);
	nod->discard = 0;
	a = exfat_file_create(nod, "a");
	exfat_file_append(nod, a, 10);
	exfat_file_delete(nod, a);
	CHECK_EQ(count_events(nod, FSLAB_EV_EXFAT_DISCARD), 0);
	exfat_volume_free(nod);
	exfat_volume_free(v);
	exfat_volume_free(per);
}

static void test_find_free_bitmap(void)
{
	struct exfat_volume *v = exfat_volume_new(100, 0);
	uint32_t c;

	CHECK_EQ(exfat_find_free_bitmap(v, 2), 2);
	for (c = 2; c < 102; c++)
		if (c != 5 && c != 40)
			exfat_set_bitmap(v, c);
	CHECK_EQ(exfat_find_free_bitmap(v, 2), 5);
	CHECK_EQ(exfat_find_free_bitmap(v, 6), 40);
	/* past 40 the search wraps to cluster 2 and finds 5 */
	CHECK_EQ(exfat_find_free_bitmap(v, 41), 5);
	/* the kernel's quirk: bits below the hint in its own word are masked, and that word is
	 * not visited again, so from 6 with 40 taken, 5 (same word) is not found */
	exfat_set_bitmap(v, 40);
	CHECK_EQ(exfat_find_free_bitmap(v, 6), EXFAT_EOF_CLUSTER);
	CHECK_EQ(exfat_find_free_bitmap(v, 2), 5);
	exfat_volume_free(v);
}

static void test_enospc_and_wrap(void)
{
	/* 40 clusters: two bitmap words, clusters 2..33 and 34..41 */
	struct exfat_volume *v = exfat_volume_new(40, 0);
	int a = exfat_file_create(v, "a"), b = exfat_file_create(v, "b"), c = exfat_file_create(v, "c");

	CHECK_EQ(exfat_file_append(v, a, 30), 0);
	CHECK_EQ(exfat_file_append(v, b, 11), -FSLAB_ENOSPC);
	CHECK_EQ(exfat_file_append(v, b, 10), 0);
	CHECK_EQ(v->clu_srch_ptr, 41);
	CHECK_EQ(exfat_file_delete(v, a), 0);
	/* the search starts at clu_srch_ptr (41), runs off the end and wraps to 2 */
	CHECK_EQ(exfat_file_append(v, c, 3), 0);
	CHECK_EQ(v->files[c].chain.dir, 2);
	CHECK_EQ(v->used_clusters, 13);
	CHECK_EQ(exfat_count_used_clusters(v), 13);
	exfat_volume_free(v);

	/* With a one-word bitmap the same search visits only the hint's own word, masked
	 * below the hint: a new file after the last cluster finds no space (a kernel corner). */
	v = exfat_volume_new(16, 0);
	a = exfat_file_create(v, "a");
	b = exfat_file_create(v, "b");
	CHECK_EQ(exfat_file_append(v, a, 10), 0);
	CHECK_EQ(exfat_file_append(v, b, 6), 0);
	CHECK_EQ(exfat_file_delete(v, a), 0);
	CHECK_EQ(exfat_file_append(v, exfat_file_create(v, "c"), 1), -FSLAB_ENOSPC);
	exfat_volume_free(v);
}

static void test_corrupt_chain_loop_terminates(void)
{
	int a;
	struct exfat_volume *v = two_runs(&a);

	v->fat[17] = 2; /* a loop back to the start */
	CHECK_EQ(exfat_file_delete(v, a), 0);
	CHECK_EQ(v->used_clusters, exfat_count_used_clusters(v));
	CHECK_EQ(exfat_file_delete(v, 99), -FSLAB_ENOENT);
	CHECK(exfat_volume_new(0, 3) == NULL);
	exfat_volume_free(v);
}

/*
 * The empty-entry search (fs/exfat/namei.c __exfat_search_empty_slot, dir.c
 * exfat_set_empty_hint), worked by hand for a 4 KiB-cluster directory (128 entries):
 * short names take 3 entries (file, stream, one name entry).
 */
static void test_empty_entry_search(void)
{
	struct exfat_dir *h = exfat_dir_new(128, 1), *o = exfat_dir_new(128, 0);
	int i, k;

	CHECK_EQ(exfat_calc_num_entries(2), 3);
	CHECK_EQ(exfat_calc_num_entries(15), 3);
	CHECK_EQ(exfat_calc_num_entries(16), 4);
	/* creates 1..3: with the hint the lookup stops at the first unused entry and hints it
	 * (search examines 3); without, the search starts at 0 (examines 3, 6, 9) */
	for (i = 0; i < 3; i++) {
		CHECK_EQ(exfat_dir_create(h, 2), 3 * i);
		CHECK_EQ(exfat_dir_create(o, 2), 3 * i);
	}
	CHECK_EQ(h->examined, 9);
	CHECK_EQ(o->examined, 3 + 6 + 9);
	CHECK_EQ((int)h->events.ev[2].b, 6); /* hint: entry 6 */
	CHECK_EQ(o->events.ev[2].b, 0xFFFFFFFFu); /* no hint */
	/* fill the first cluster: 42 sets use 126 entries; the 43rd does not fit in the 2 left */
	for (i = 3; i < 42; i++)
		exfat_dir_create(h, 2);
	fslab_events_clear(&h->events);
	CHECK_EQ(exfat_dir_create(h, 2), 126);
	/* the hint (126, two entries to the end) is short: -ENOSPC without a search, a new
	 * cluster, then the search from 126 finds 126 */
	CHECK_EQ(h->events.len, 2);
	CHECK_EQ(h->events.ev[0].c, 0xFFFFFFFFu); /* -ENOSPC */
	CHECK_EQ(h->events.ev[0].a, 0);
	CHECK_EQ(h->events.ev[1].a, 3);
	CHECK_EQ(h->clusters, 2);
	/* a deleted set in the middle is reused: the lookup's hint points at it */
	CHECK_EQ(exfat_dir_remove(h, 30, 2), 0);
	CHECK_EQ(exfat_dir_create(h, 2), 30);
	CHECK_EQ(exfat_dir_remove(h, 30, 2), 0);
	CHECK_EQ(exfat_dir_remove(h, 30, 2), -FSLAB_ENOENT);
	/* a longer name (4 entries) does not fit the 3 deleted ones and goes to the end */
	k = exfat_dir_create(h, 20);
	CHECK_EQ(k, 129);
	exfat_dir_free(h);
	exfat_dir_free(o);
	CHECK(exfat_dir_new(100, 1) == NULL); /* entries per cluster: a power of two */
}

/*
 * The kernel's loop in __exfat_free_cluster() (fs/exfat/fatent.c, 6.15), cluster by cluster,
 * as the reference for the model's run-at-a-time walk: same bits, same events, same counts,
 * same stops, on random chains with random damage (bits already clear, bad links, loops).
 */
static void discard_ref(struct exfat_volume *vol, uint32_t clu, uint32_t nr)
{
	vol->discard_calls++;
	fslab_emit(&vol->events, FSLAB_EV_EXFAT_DISCARD, clu, nr, (uint32_t)vol->batch_discard);
}

static int free_cluster_ref(struct exfat_volume *vol, const struct exfat_chain *p_chain)
{
	uint32_t num_clusters = 0, clu;
	int per_cluster = vol->discard && vol->batch_discard == EXFAT_DISCARD_PER_CLUSTER;
	int batched = vol->discard && vol->batch_discard == EXFAT_DISCARD_BATCHED;

	if (p_chain->dir == EXFAT_FREE_CLUSTER || p_chain->dir == EXFAT_EOF_CLUSTER || p_chain->dir < EXFAT_FIRST_CLUSTER)
		return 0;
	if (p_chain->size == 0)
		return 0;
	if (!is_valid_cluster(vol, p_chain->dir))
		return -FSLAB_EIO;
	clu = p_chain->dir;
	if (p_chain->flags == ALLOC_NO_FAT_CHAIN) {
		do {
			if (exfat_clear_bitmap(vol, clu))
				break;
			if (per_cluster)
				discard_ref(vol, clu, 1);
			clu++;
			num_clusters++;
		} while (num_clusters < p_chain->size);
		if (batched)
			discard_ref(vol, p_chain->dir, p_chain->size);
	} else {
		uint32_t nr_clu = 1;

		do {
			uint32_t n_clu = clu;
			int err = exfat_get_next_cluster(vol, &n_clu);

			if (err)
				n_clu = EXFAT_EOF_CLUSTER;
			if (exfat_clear_bitmap(vol, clu))
				break;
			if (per_cluster)
				discard_ref(vol, clu, 1);
			if (batched) {
				if (n_clu == clu + 1) {
					nr_clu++;
				} else {
					discard_ref(vol, clu - nr_clu + 1, nr_clu);
					nr_clu = 1;
				}
			}
			clu = n_clu;
			num_clusters++;
			if (err)
				break;
			if (num_clusters >= vol->num_clusters - EXFAT_FIRST_CLUSTER) {
				vol->used_clusters = exfat_count_used_clusters(vol);
				return 0;
			}
		} while (clu != EXFAT_EOF_CLUSTER);
	}
	vol->used_clusters -= num_clusters;
	return 0;
}

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

static void test_free_runs_equal_kernel_loop(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int round, same = 0;

	for (round = 0; round < 3000; round++) {
		uint32_t n = 70 + rnd(&seed) % 300, i, start, c, prev, len = 0;
		struct exfat_volume *a = exfat_volume_new(n, 3), *b;
		struct exfat_chain ch;
		int nofat = rnd(&seed) % 4 == 0, ra, rb;

		/* a chain of random runs, FAT links written, bits set */
		start = EXFAT_FIRST_CLUSTER + rnd(&seed) % (n / 2);
		c = start;
		prev = 0;
		while (c < n + EXFAT_FIRST_CLUSTER && len < 200) {
			uint32_t run = 1 + rnd(&seed) % (rnd(&seed) % 3 ? 3 : 90), k;

			for (k = 0; k < run && c < n + EXFAT_FIRST_CLUSTER; k++, c++, len++) {
				if (prev)
					a->fat[prev] = c;
				a->vol_amap[(c - 2) >> 3] |= (uint8_t)(1u << ((c - 2) & 7));
				prev = c;
			}
			if (nofat)
				break;
			c += 1 + rnd(&seed) % 40;
		}
		a->fat[prev] = EXFAT_EOF_CLUSTER;
		a->used_clusters = exfat_count_used_clusters(a);
		/* damage: a bit already clear, a link to nowhere or to a free/bad value, a loop */
		switch (rnd(&seed) % 8) {
		case 0: i = start + rnd(&seed) % (len + 5); if (i < n + 2) a->vol_amap[(i - 2) >> 3] &= (uint8_t)~(1u << ((i - 2) & 7)); break;
		case 1: i = start + rnd(&seed) % len; if (i < n + 2) a->fat[i] = n + 7; break; /* a link past the last cluster */
		case 2: a->fat[prev] = start; break; /* a loop back to the start */
		case 3: a->fat[prev] = rnd(&seed) % 2 ? EXFAT_FREE_CLUSTER : EXFAT_BAD_CLUSTER; break;
		default: break;
		}
		ch.dir = start;
		ch.size = nofat ? len + rnd(&seed) % 3 : len; /* a size past the volume's end stops too */
		ch.flags = nofat ? ALLOC_NO_FAT_CHAIN : ALLOC_FAT_CHAIN;
		a->discard = rnd(&seed) % 4 != 0;
		a->batch_discard = rnd(&seed) % 2 ? EXFAT_DISCARD_BATCHED : EXFAT_DISCARD_PER_CLUSTER;
		b = exfat_volume_clone(a);
		fslab_events_clear(&a->events);
		fslab_events_clear(&b->events);
		ra = __exfat_free_cluster(a, &ch);
		rb = free_cluster_ref(b, &ch);
		if (ra == rb && a->used_clusters == b->used_clusters && a->discard_calls == b->discard_calls &&
		    !memcmp(a->vol_amap, b->vol_amap, a->map_bytes) && a->events.len == b->events.len &&
		    (!a->events.len || !memcmp(a->events.ev, b->events.ev, a->events.len * sizeof(*a->events.ev))))
			same++;
		exfat_volume_free(a);
		exfat_volume_free(b);
	}
	CHECK_EQ(same, 3000);
}

int main(void)
{
	test_free_runs_equal_kernel_loop();
	test_empty_entry_search();
	test_contiguous_file_is_nofatchain();
	test_append_after_gap_makes_fat_chain();
	test_free_fat_chain_batched_vs_per_cluster();
	test_four_run_chain();
	test_nofatchain_free();
	test_find_free_bitmap();
	test_enospc_and_wrap();
	test_corrupt_chain_loop_terminates();
	return CHECK_DONE("test_exfat");
}
