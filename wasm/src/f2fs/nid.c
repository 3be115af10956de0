/* SPDX-License-Identifier: MIT */
/*
 * The free-NID model behind fslab/f2fs_nid.h, after fs/f2fs/node.c (7.2 + our CLUE patch),
 * function by function under the kernel's names. One caller at a time, so:
 *
 *   - build_lock, bitmap_scan_lock, nid_list_lock and nat_tree_lock are never found held:
 *     on_f2fs_build_free_nids() is false in f2fs_alloc_nid(), the shrinker's trylock wins,
 *     and CLUE's optimistic scan (bit 1) always gets its trylock. Its only difference from
 *     upstream is which lock each phase runs under, so clue 1 gives upstream's records and
 *     clue 3/5/7 those of 2/4/6: a skipped record (a scan found running) never appears.
 *     The guest shows it only with clue_scan_delay_us holding a scan's lock while others run.
 *   - found is the free list's growth over a scan, as the tracepoint computes it; with no
 *     one allocating meanwhile it equals the NIDs the scan added.
 *
 * Left out:
 *   - the NAT journal (the checkpoint's hot data summary, up to NAT_JOURNAL_ENTRIES). Every
 *     checkpoint here writes its entries to the NAT blocks and scan_curseg_cache() finds
 *     nothing. The kernel journals a checkpoint's small NAT sets, so on disk those entries
 *     are stale until a larger checkpoint empties the journal; what is free does not
 *     change, but a scan can add or drop a journalled NID the model's scan does not.
 *   - the NAT cache's own shrinking (f2fs_try_to_free_nats): a clean cached entry equals
 *     the disk's, so add_free_nid()'s cache check comes out the same without it.
 *   - nat_bits (off unless mounted -o nat_bits): no NAT block is loaded at mount.
 *   - writeback itself: how many times a sync's writeback calls f2fs_write_node_pages (and
 *     so f2fs_balance_fs_bg) is the caller's to say (NID_OP_SYNC); the guest makes 3 or 4.
 *     Periodic writeback, the GC thread and the checkpoint thread are not modelled.
 *   - which NIDs a file system operation takes besides one per inode, and I/O errors
 *     (scan_nat_page's -EFSCORRUPTED).
 *   - the order of unlinks is the script's: rm -rf frees in directory (hash) order, so after
 *     a checkpoint the list's order inside a NAT block, and so which NIDs the shrinker drops,
 *     can differ from the kernel's (how many cannot).
 *
 * Checked against the guest: for one writer creating, syncing, removing and refilling 4000
 * files, the kernel's f2fs_free_nid_scan records equal the model's under clue 0, 2, 4 and 7
 * (web/src/topics/f2fs/nid.test.ts holds them).
 */
#include <stdlib.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/f2fs_nid.h"
#include "fslab/f2fs_nid_scan.h"

/* nm->nat[nid]: the NAT entry on disk and in memory, and where the NID sits in the tree */
#define NAT_DISK_USED 0x01 /* the NAT block on disk holds a block address */
#define NAT_USED 0x02      /* in memory (NAT cache or disk): a node (NEW_ADDR or an address) */
#define NAT_DIRTY 0x04     /* changed since the last checkpoint (not IS_CHECKPOINTED if freed) */
#define NID_LISTED 0x08    /* in the free-NID tree ... */
#define NID_PREALLOC 0x10  /* ... as PREALLOC_NID, else as FREE_NID */

#define NAT_BLOCK_OFFSET(nid) ((nid) / NAT_ENTRY_PER_BLOCK)
#define START_NID(nid) (NAT_BLOCK_OFFSET(nid) * NAT_ENTRY_PER_BLOCK)

static void set_bit_le(uint32_t nr, uint8_t *addr) { addr[nr >> 3] |= (uint8_t)(1u << (nr & 7)); }
static void clear_bit_le(uint32_t nr, uint8_t *addr) { addr[nr >> 3] &= (uint8_t)~(1u << (nr & 7)); }

static void trace_f2fs_free_nid_scan(struct f2fs_nm_info *nm, uint32_t phase, uint32_t start, uint32_t end,
				     uint32_t scanned, uint32_t found, int skipped, uint32_t blocks, int sync)
{
	fslab_emit(&nm->events, FSLAB_EV_F2FS_NID_SCAN, phase | (uint32_t)!!skipped << 8 | (uint32_t)!!sync << 9, start, end);
	fslab_emit(&nm->events, FSLAB_EV_F2FS_NID_SCAN_RESULT, scanned, found, blocks);
}

/* f2fs_available_free_memory(sbi, FREE_NIDS): the list may use 1/4 of ram_thresh % of RAM */
static int free_nids_memory_ok(const struct f2fs_nm_info *nm)
{
	uint64_t mem_size = ((uint64_t)nm->nid_cnt[FREE_NID] * F2FS_FREE_NID_SIZE) >> 12;

	return mem_size < (((uint64_t)nm->avail_ram * nm->ram_thresh / 100) >> 2);
}

/* free_nid_list: insert at the tail, take from the head */
static void list_add_tail_nid(struct f2fs_nm_info *nm, uint32_t nid)
{
	nm->prev[nid] = nm->tail;
	nm->next[nid] = 0;
	if (nm->tail)
		nm->next[nm->tail] = nid;
	else
		nm->head = nid;
	nm->tail = nid;
}

static void list_del_nid(struct f2fs_nm_info *nm, uint32_t nid)
{
	if (nm->prev[nid])
		nm->next[nm->prev[nid]] = nm->next[nid];
	else
		nm->head = nm->next[nid];
	if (nm->next[nid])
		nm->prev[nm->next[nid]] = nm->prev[nid];
	else
		nm->tail = nm->prev[nid];
	nm->prev[nid] = nm->next[nid] = 0;
}

static void update_free_nid_bitmap(struct f2fs_nm_info *nm, uint32_t nid, int set, int build)
{
	uint32_t nat_ofs = NAT_BLOCK_OFFSET(nid), nid_ofs = nid - START_NID(nid);
	uint8_t *bm = nid_bitmap(nm, nat_ofs);

	if (!nm->nat_block_bitmap[nat_ofs])
		return;
	if (set) {
		if (test_bit_le(nid_ofs, bm))
			return;
		set_bit_le(nid_ofs, bm);
		nm->free_nid_count[nat_ofs]++;
		nm->clue_bitmap_gen++; /* CLUE lazy: a bitmap walk may find something new */
	} else {
		if (!test_bit_le(nid_ofs, bm))
			return;
		clear_bit_le(nid_ofs, bm);
		/* as the kernel: a build never lowers the count (it only clears bits a fresh block
		 * did not have set) */
		if (!build)
			nm->free_nid_count[nat_ofs]--;
	}
}

/* add_free_nid(): 1 if the NID is recognized as free */
int add_free_nid(struct f2fs_nm_info *nm, uint32_t nid, int build, int update)
{
	uint8_t *e = &nm->nat[nid];
	int ret = 0;

	if (nid == 0 || nid < F2FS_ROOT_INO || nid >= nm->max_nid) /* f2fs_check_nid_range() */
		return 0;
	if (build) {
		/* __lookup_nat_cache(): a node allocated or freed since the checkpoint is not free
		 * (the A/B race in the kernel's comment); neither is one in use */
		if (*e & (NAT_DIRTY | NAT_USED))
			goto err_out;
		if (*e & NID_LISTED) {
			ret = !(*e & NID_PREALLOC);
			goto err_out;
		}
	}
	ret = 1;
	if (!(*e & NID_LISTED)) { /* __insert_free_nid(); radix_tree_insert() refuses a second */
		*e |= NID_LISTED;
		nm->nid_cnt[FREE_NID]++;
		list_add_tail_nid(nm, nid);
	}
err_out:
	if (update) {
		update_free_nid_bitmap(nm, nid, ret, build);
		if (!build)
			nm->available_nids++;
	}
	return ret;
}

/* scan_nat_page(): one NAT block read from disk; loads it (nat_block_bitmap) */
static void scan_nat_page(struct f2fs_nm_info *nm, uint32_t start_nid)
{
	uint32_t i;

	nm->nat_block_bitmap[NAT_BLOCK_OFFSET(start_nid)] = 1;
	for (i = start_nid % NAT_ENTRY_PER_BLOCK; i < NAT_ENTRY_PER_BLOCK; i++, start_nid++) {
		if (start_nid >= nm->max_nid)
			break;
		nm->c.nids_scanned++;
		if (!(nm->nat[start_nid] & NAT_DISK_USED))
			add_free_nid(nm, start_nid, 1, 1);
		else
			update_free_nid_bitmap(nm, start_nid, 0, 1);
	}
}

void nid_walk_begin(struct f2fs_nm_info *nm, struct nid_walk *w)
{
	w->scanned = 0;
	w->before = nm->nid_cnt[FREE_NID];
	w->gen = nm->clue_bitmap_gen;
}

void nid_walk_count(struct nid_walk *w, uint32_t from, uint32_t idx)
{
	/* the patch's count: bits walked, the found one included */
	w->scanned += (idx < NAT_ENTRY_PER_BLOCK - 1 ? idx : NAT_ENTRY_PER_BLOCK - 1) - from + 1;
}

void nid_walk_end(struct f2fs_nm_info *nm, struct nid_walk *w, uint32_t first, uint32_t stop, uint32_t visited, int sync)
{
	/* a walk that went all the way round visited every block and stops where it started */
	uint32_t blocks = visited == nm->nat_blocks ? visited : visited + 1;

	if (visited == nm->nat_blocks)
		stop = first;
	nm->next_bitmap_blk = stop;
	/* lazy update: a walk stopped at MAX_FREE_NIDS left bits unlisted and proves nothing */
	nm->clue_walk_gen = visited == nm->nat_blocks ? w->gen : w->gen - 1;
	nm->c.bitmap_scans++;
	nm->c.nids_scanned += w->scanned;
	/* scan_curseg_cache(): no NAT journal in the model */
	trace_f2fs_free_nid_scan(nm, 0, first * NAT_ENTRY_PER_BLOCK, stop * NAT_ENTRY_PER_BLOCK, w->scanned,
				 nm->nid_cnt[FREE_NID] - w->before, 0, blocks, sync);
}

/* clue_walk_pointless(): CLUE lazy update, a background bitmap walk is skipped while a NAT
 * scan is owed and no free-NID bit was set since the last complete walk */
static int clue_walk_pointless(struct f2fs_nm_info *nm, int sync, uint32_t clue)
{
	if (sync || !(clue & F2FS_CLUE_LAZY) || !nm->nat_scan_deferred)
		return 0;
	if (nm->clue_bitmap_gen != nm->clue_walk_gen)
		return 0;
	nm->c.walks_avoided++;
	return 1;
}

/* clue_defer_nat_scan(): CLUE lazy update, no NAT entry scan for background callers; the
 * deferred record only when the debt is new */
static int clue_defer_nat_scan(struct f2fs_nm_info *nm, int sync, uint32_t clue)
{
	if (!(clue & F2FS_CLUE_LAZY) || sync)
		return 0;
	if (!nm->nat_scan_deferred) {
		nm->nat_scan_deferred = 1;
		nm->c.nat_deferred++;
		/* next_scan_nid as it is, not rounded to its block as the NAT scan's start is */
		trace_f2fs_free_nid_scan(nm, 2, nm->next_scan_nid, nm->next_scan_nid, 0, 0, 0, 0, sync);
	}
	return 1;
}

/* __f2fs_scan_nat_entries(): FREE_NID_PAGES NAT blocks from next_scan_nid's block, reading
 * those not loaded yet; wraps at max_nid */
static void f2fs_scan_nat_entries(struct f2fs_nm_info *nm, int sync)
{
	uint32_t nid = nm->next_scan_nid, start, i = 0;
	uint32_t before = nm->nid_cnt[FREE_NID], scanned = nm->c.nids_scanned;

	if (nid >= nm->max_nid)
		nid = 0;
	if (nid % NAT_ENTRY_PER_BLOCK)
		nid = START_NID(nid);
	start = nid;
	nm->nat_scan_deferred = 0;

	for (;;) {
		if (!nm->nat_block_bitmap[NAT_BLOCK_OFFSET(nid)])
			scan_nat_page(nm, nid);
		nid += NAT_ENTRY_PER_BLOCK - nid % NAT_ENTRY_PER_BLOCK;
		if (nid >= nm->max_nid)
			nid = 0;
		if (++i >= FREE_NID_PAGES)
			break;
	}
	nm->next_scan_nid = nid;
	/* scan_curseg_cache(): no NAT journal in the model */
	nm->c.nat_scans++;
	trace_f2fs_free_nid_scan(nm, 1, start, nid, nm->c.nids_scanned - scanned,
				 nm->nid_cnt[FREE_NID] - before, 0, FREE_NID_PAGES, sync);
}

/* __f2fs_build_free_nids(): upstream's order under build_lock, the CLUE bits 2 and 4 inside */
static void __f2fs_build_free_nids(struct f2fs_nm_info *nm, int sync, int mount, uint32_t clue)
{
	if (nm->nid_cnt[FREE_NID] >= NAT_ENTRY_PER_BLOCK) /* enough entries */
		return;
	if (!sync && !free_nids_memory_ok(nm))
		return;
	if (!mount) {
		if (clue_walk_pointless(nm, sync, clue))
			return;
		scan_free_nid_bits(nm, clue, sync);
		if (nm->nid_cnt[FREE_NID] >= NAT_ENTRY_PER_BLOCK)
			return;
		if (clue_defer_nat_scan(nm, sync, clue))
			return;
	}
	f2fs_scan_nat_entries(nm, sync);
}

/* f2fs_build_free_nids_clue(): CLUE's optimistic scan. A sync caller (f2fs_alloc_nid())
 * waits for bitmap_scan_lock, then build_lock, as upstream waits for build_lock. A
 * background caller's mutex_trylock(bitmap_scan_lock) always succeeds with one caller, so
 * the "skipped" branch is here only as the patch has it. */
static void f2fs_build_free_nids_clue(struct f2fs_nm_info *nm, int sync, uint32_t clue)
{
	const int bitmap_scan_lock_held = 0;

	if (sync) {
		if (nm->nid_cnt[FREE_NID] < NAT_ENTRY_PER_BLOCK)
			scan_free_nid_bits(nm, clue, 1);
		if (nm->nid_cnt[FREE_NID] < NAT_ENTRY_PER_BLOCK)
			f2fs_scan_nat_entries(nm, 1);
		return;
	}
	if (nm->nid_cnt[FREE_NID] >= NAT_ENTRY_PER_BLOCK)
		return;
	if (!free_nids_memory_ok(nm))
		return;
	if (clue_walk_pointless(nm, 0, clue))
		return;
	if (!bitmap_scan_lock_held) {
		scan_free_nid_bits(nm, clue, 0);
		if (nm->nid_cnt[FREE_NID] >= NAT_ENTRY_PER_BLOCK)
			return;
	} else {
		nm->c.scans_skipped++;
		trace_f2fs_free_nid_scan(nm, 0, 0, 0, 0, 0, 1, 0, 0);
	}
	/* build_lock */
	if (nm->nid_cnt[FREE_NID] < NAT_ENTRY_PER_BLOCK && !clue_defer_nat_scan(nm, 0, clue))
		f2fs_scan_nat_entries(nm, 0);
}

static void f2fs_build_free_nids(struct f2fs_nm_info *nm, int sync, int mount)
{
	uint32_t clue = mount ? 0 : nm->clue;

	if (clue & F2FS_CLUE_OPTIMISTIC)
		f2fs_build_free_nids_clue(nm, sync, clue);
	else
		__f2fs_build_free_nids(nm, sync, mount, clue);
}

/* f2fs_alloc_nid(): the list's head becomes PREALLOC_NID; an empty list is refilled by
 * this caller (sync: CLUE's lazy update never defers it) and it retries */
static int f2fs_alloc_nid(struct f2fs_nm_info *nm, uint32_t *nid)
{
	/* the kernel retries for as long as the build returns 0; a NID counted available is
	 * always found within a lap of the NAT, so the model gives up after one */
	uint32_t tries = nm->nat_blocks / FREE_NID_PAGES + 2;

	for (;;) {
		if (nm->available_nids == 0)
			return -FSLAB_ENOSPC;
		if (nm->nid_cnt[FREE_NID]) {
			uint32_t i = nm->head;

			*nid = i;
			list_del_nid(nm, i); /* __move_free_nid(FREE_NID -> PREALLOC_NID) */
			nm->nat[i] |= NID_PREALLOC;
			nm->nid_cnt[FREE_NID]--;
			nm->nid_cnt[PREALLOC_NID]++;
			nm->available_nids--;
			update_free_nid_bitmap(nm, i, 0, 0);
			return 0;
		}
		if (!tries--)
			return -FSLAB_EIO; /* not reached: see above */
		f2fs_build_free_nids(nm, 1, 0);
	}
}

/* a NAT entry changes in memory (set_node_addr -> __set_nat_cache_dirty); the set's entry
 * list keeps the last change last */
static void set_nat_dirty(struct f2fs_nm_info *nm, uint32_t nid)
{
	if (!(nm->nat[nid] & NAT_DIRTY))
		nm->dirty_cnt++;
	nm->nat[nid] |= NAT_DIRTY;
	nm->dirty_seq[nid] = ++nm->seq;
}

int f2fs_nm_alloc(struct f2fs_nm_info *nm, uint32_t *nid)
{
	int err = f2fs_alloc_nid(nm, nid);

	if (err)
		return err;
	/* f2fs_alloc_nid_done(): out of the tree (__remove_free_nid(PREALLOC_NID)) */
	nm->nat[*nid] &= (uint8_t)~(NID_LISTED | NID_PREALLOC);
	nm->nid_cnt[PREALLOC_NID]--;
	/* f2fs_new_node_folio(): set_node_addr(NEW_ADDR); the address comes at writeback */
	nm->nat[*nid] |= NAT_USED;
	set_nat_dirty(nm, *nid);
	nm->valid_node_count++;
	return 0;
}

int f2fs_nm_alloc_failed(struct f2fs_nm_info *nm, uint32_t *nid)
{
	int err = f2fs_alloc_nid(nm, nid);

	if (err)
		return err;
	/* f2fs_alloc_nid_failed(): back to the list's tail, or freed when the list is over
	 * its memory share (then only the bitmap remembers it) */
	nm->nid_cnt[PREALLOC_NID]--;
	if (!free_nids_memory_ok(nm)) {
		nm->nat[*nid] &= (uint8_t)~(NID_LISTED | NID_PREALLOC);
	} else {
		nm->nat[*nid] &= (uint8_t)~NID_PREALLOC;
		nm->nid_cnt[FREE_NID]++;
		list_add_tail_nid(nm, *nid);
	}
	nm->available_nids++;
	update_free_nid_bitmap(nm, *nid, 1, 0);
	return 0;
}

int f2fs_nm_unlink(struct f2fs_nm_info *nm, uint32_t nid)
{
	if (nid <= F2FS_ROOT_INO || nid >= nm->max_nid || !(nm->nat[nid] & NAT_USED))
		return -FSLAB_EINVAL;
	/* truncate_node(): set_node_addr(NULL_ADDR), no longer IS_CHECKPOINTED, so no scan
	 * takes the NID before the checkpoint writes the entry */
	nm->nat[nid] &= (uint8_t)~NAT_USED;
	set_nat_dirty(nm, nid);
	nm->valid_node_count--;
	return 0;
}

uint32_t f2fs_nm_try_to_free_nids(struct f2fs_nm_info *nm, uint32_t nr_shrink)
{
	uint32_t nr = nr_shrink;

	if (nm->nid_cnt[FREE_NID] <= MAX_FREE_NIDS)
		return 0;
	/* mutex_trylock(build_lock) succeeds; the SHRINK_NID_BATCH_SIZE batches only bound
	 * nid_list_lock's hold time */
	while (nr_shrink && nm->nid_cnt[FREE_NID] > MAX_FREE_NIDS) {
		uint32_t i = nm->head;

		list_del_nid(nm, i); /* __remove_free_nid(): the bitmap bit stays set */
		nm->nat[i] &= (uint8_t)~NID_LISTED;
		nm->nid_cnt[FREE_NID]--;
		nm->clue_bitmap_gen++; /* CLUE lazy: a later walk can list it again */
		nr_shrink--;
	}
	return nr - nr_shrink;
}

void f2fs_nm_balance_fs_bg(struct f2fs_nm_info *nm)
{
	if (!free_nids_memory_ok(nm))
		f2fs_nm_try_to_free_nids(nm, MAX_FREE_NIDS);
	else
		f2fs_build_free_nids(nm, 0, 0);
}

/* a dirty entry as a sort key: when it last changed, then its NID */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * f2fs_flush_nat_entries(): the dirty NAT entries, one set per NAT block, written in
 * __adjust_nat_entry_set()'s order: sets under the journal's room (an empty journal here:
 * NAT_JOURNAL_ENTRIES) by size, smallest first and, among equal sizes, the higher block
 * first (each is put before the first set at least its size); the larger ones after them in
 * block order. In a set, entries in the order they last changed. A freed entry's NID goes
 * back to the free list (add_free_nid(build = false)), so this order is the list's.
 */
static int f2fs_flush_nat_entries(struct f2fs_nm_info *nm)
{
	uint32_t *sets, *cnt, nsets = 0, blk, k;
	uint64_t *ents;

	if (!nm->dirty_cnt)
		return 0;
	sets = malloc(nm->nat_blocks * sizeof(*sets));
	cnt = calloc(nm->nat_blocks, sizeof(*cnt));
	ents = malloc(NAT_ENTRY_PER_BLOCK * sizeof(*ents));
	if (!sets || !cnt || !ents) {
		free(sets);
		free(cnt);
		free(ents);
		return -FSLAB_ENOSPC;
	}
	for (blk = 0; blk < nm->nat_blocks; blk++) {
		uint32_t nid, pos;

		for (nid = blk * NAT_ENTRY_PER_BLOCK; nid < (blk + 1) * NAT_ENTRY_PER_BLOCK; nid++)
			cnt[blk] += !!(nm->nat[nid] & NAT_DIRTY);
		if (!cnt[blk])
			continue;
		pos = nsets;
		if (cnt[blk] < NAT_JOURNAL_ENTRIES)
			for (pos = 0; pos < nsets && cnt[sets[pos]] < cnt[blk]; pos++)
				;
		memmove(sets + pos + 1, sets + pos, (nsets - pos) * sizeof(*sets));
		sets[pos] = blk;
		nsets++;
	}
	for (k = 0; k < nsets; k++) {
		uint32_t nid, n = 0, j;

		for (nid = sets[k] * NAT_ENTRY_PER_BLOCK; nid < (sets[k] + 1) * NAT_ENTRY_PER_BLOCK; nid++)
			if (nm->nat[nid] & NAT_DIRTY)
				ents[n++] = (uint64_t)nm->dirty_seq[nid] << 32 | nid;
		qsort(ents, n, sizeof(*ents), cmp_u64);
		for (j = 0; j < n; j++) {
			uint8_t *e = &nm->nat[(uint32_t)ents[j]];

			/* raw_nat_from_node_info() into the NAT block; nat_reset_flag() */
			*e = (uint8_t)((*e & ~(NAT_DIRTY | NAT_DISK_USED)) | ((*e & NAT_USED) ? NAT_DISK_USED : 0));
			nm->dirty_cnt--;
			if (!(*e & NAT_USED))
				add_free_nid(nm, (uint32_t)ents[j], 0, 1);
			else
				update_free_nid_bitmap(nm, (uint32_t)ents[j], 0, 0);
		}
	}
	free(sets);
	free(cnt);
	free(ents);
	return 0;
}

/* f2fs_clue_checkpoint_scan(): the NAT entry scan CLUE's lazy update deferred, within the
 * free-NID memory limit (else it stays owed), unless the checkpoint's freed NIDs filled the
 * list meanwhile (then the debt is dropped) */
static void f2fs_clue_checkpoint_scan(struct f2fs_nm_info *nm)
{
	if (!nm->nat_scan_deferred || !free_nids_memory_ok(nm))
		return;
	if (nm->nid_cnt[FREE_NID] < NAT_ENTRY_PER_BLOCK)
		f2fs_scan_nat_entries(nm, 0); /* clears the debt */
	else
		nm->nat_scan_deferred = 0;
}

/* f2fs_write_checkpoint(): block_operations() has written every node, so the NAT flush
 * sees final addresses; the patch's hook runs after it (not at umount) */
void f2fs_nm_checkpoint(struct f2fs_nm_info *nm)
{
	if (f2fs_flush_nat_entries(nm) == 0)
		f2fs_clue_checkpoint_scan(nm);
}

int f2fs_nm_set_clue(struct f2fs_nm_info *nm, uint32_t clue)
{
	if (clue > 7) /* F2FS_CLUE_ALL */
		return -FSLAB_EINVAL;
	nm->clue = clue;
	return 0;
}

void f2fs_nm_reset_counters(struct f2fs_nm_info *nm) { memset(&nm->c, 0, sizeof(nm->c)); }

void f2fs_nm_free(struct f2fs_nm_info *nm)
{
	if (!nm)
		return;
	free(nm->nat_block_bitmap);
	free(nm->free_nid_bitmap);
	free(nm->free_nid_count);
	free(nm->nat);
	free(nm->prev);
	free(nm->next);
	free(nm->dirty_seq);
	fslab_events_free(&nm->events);
	free(nm);
}

struct f2fs_nm_info *f2fs_nm_new(uint32_t nat_blocks, uint32_t clue, uint32_t avail_ram)
{
	struct f2fs_nm_info *nm;
	size_t nids = (size_t)nat_blocks * NAT_ENTRY_PER_BLOCK;

	if (!nat_blocks || nat_blocks > F2FS_NID_MAX_NAT_BLOCKS || clue > 7)
		return NULL;
	nm = calloc(1, sizeof(*nm));
	if (!nm)
		return NULL;
	fslab_events_init(&nm->events);
	nm->nat_blocks = nat_blocks;
	nm->max_nid = (uint32_t)nids;
	nm->clue = clue;
	nm->avail_ram = avail_ram ? avail_ram : F2FS_NID_DEF_RAM_PAGES;
	nm->ram_thresh = DEF_RAM_THRESHOLD;
	nm->nat_block_bitmap = calloc(nat_blocks, 1);
	nm->free_nid_bitmap = calloc(nat_blocks, F2FS_NID_BITMAP_BYTES);
	nm->free_nid_count = calloc(nat_blocks, sizeof(*nm->free_nid_count));
	nm->nat = calloc(nids, 1);
	nm->prev = calloc(nids, sizeof(*nm->prev));
	nm->next = calloc(nids, sizeof(*nm->next));
	nm->dirty_seq = calloc(nids, sizeof(*nm->dirty_seq));
	if (!nm->nat_block_bitmap || !nm->free_nid_bitmap || !nm->free_nid_count || !nm->nat || !nm->prev ||
	    !nm->next || !nm->dirty_seq) {
		f2fs_nm_free(nm);
		return NULL;
	}
	/* mkfs.f2fs: the node and meta inodes' entries (1, 2) and the root inode (3) */
	nm->nat[1] = nm->nat[2] = nm->nat[3] = NAT_DISK_USED | NAT_USED;
	nm->valid_node_count = 1;
	nm->next_scan_nid = F2FS_ROOT_INO + 1; /* the checkpoint's next_free_nid */
	/* init_node_manager(): NID 0 and the node and meta inodes count as reserved */
	nm->available_nids = nm->max_nid - nm->valid_node_count - F2FS_RESERVED_NODE_NUM;
	/* f2fs_build_node_manager() -> f2fs_build_free_nids(sync, mount): no bitmap scan, no
	 * CLUE; a NAT entry scan */
	f2fs_build_free_nids(nm, 1, 1);
	return nm;
}

int f2fs_nm_run(struct f2fs_nm_info *nm, const uint32_t *ops, uint32_t n, uint32_t *done)
{
	uint32_t k, j, nid;
	int err = 0;

	for (k = 0; k < n; k++) {
		uint32_t op = ops[3 * k], a = ops[3 * k + 1], b = ops[3 * k + 2];

		switch (op) {
		case NID_OP_ALLOC:
			for (j = 0; j < a && !err; j++)
				err = f2fs_nm_alloc(nm, &nid);
			break;
		case NID_OP_ALLOC_FAILED:
			for (j = 0; j < a && !err; j++)
				err = f2fs_nm_alloc_failed(nm, &nid);
			break;
		case NID_OP_UNLINK:
			if (a >= nm->max_nid || b > nm->max_nid - a) {
				err = -FSLAB_EINVAL;
				break;
			}
			for (nid = a; nid < a + b; nid++)
				if (nid > F2FS_ROOT_INO && (nm->nat[nid] & NAT_USED))
					f2fs_nm_unlink(nm, nid);
			break;
		case NID_OP_BACKGROUND:
			for (j = 0; j < a; j++)
				f2fs_nm_balance_fs_bg(nm);
			break;
		case NID_OP_CHECKPOINT:
			f2fs_nm_checkpoint(nm);
			break;
		case NID_OP_SHRINK:
			f2fs_nm_try_to_free_nids(nm, a);
			break;
		case NID_OP_SYNC:
			for (j = 0; j < a; j++)
				f2fs_nm_balance_fs_bg(nm);
			f2fs_nm_checkpoint(nm);
			break;
		case NID_OP_SET_CLUE:
			err = f2fs_nm_set_clue(nm, a);
			break;
		case NID_OP_RESET_COUNTERS:
			f2fs_nm_reset_counters(nm);
			break;
		default:
			err = -FSLAB_EINVAL;
		}
		if (err)
			break;
	}
	if (done)
		*done = k;
	return err;
}

uint32_t f2fs_nm_free_list(const struct f2fs_nm_info *nm, uint32_t *out, uint32_t max)
{
	uint32_t n = 0, i;

	for (i = nm->head; i && n < max; i = nm->next[i])
		out[n++] = i;
	return n;
}

void f2fs_nm_block_counts(const struct f2fs_nm_info *nm, uint32_t *out)
{
	uint32_t nid;

	memset(out, 0, (size_t)nm->nat_blocks * 3 * sizeof(*out));
	for (nid = 0; nid < nm->max_nid; nid++) {
		uint8_t e = nm->nat[nid];
		uint32_t *o = out + 3 * NAT_BLOCK_OFFSET(nid);

		o[0] += (e & (NID_LISTED | NID_PREALLOC)) == NID_LISTED;
		o[1] += !!(e & NAT_USED);
		o[2] += !!(e & NAT_DIRTY);
	}
}
