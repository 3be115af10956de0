/* SPDX-License-Identifier: MIT */
/*
 * f2fs free-NID model: how F2FS finds node IDs for new inodes, after fs/f2fs/node.c of the
 * guest kernel (Linux 7.2 with our CLUE patch, kernel-image/patches/0002-*), one caller at
 * a time. The state is struct f2fs_nm_info's free-NID part:
 *
 *   NAT            nat_blocks blocks of NAT_ENTRY_PER_BLOCK entries, each free or in use,
 *                  on disk and in memory (the NAT cache, dirty until the next checkpoint)
 *   per NAT block  nat_block_bitmap (loaded: read by a NAT entry scan), free_nid_bitmap
 *                  (which of its NIDs are known free) and free_nid_count
 *   free-NID tree  free_nid_list (nid_cnt[FREE_NID], allocation takes the head) and the
 *                  preallocated NIDs (nid_cnt[PREALLOC_NID]); available_nids
 *   scan cursors   next_scan_nid (NAT entry scan), next_bitmap_blk and nat_scan_deferred (CLUE)
 *
 * and the operations that move NIDs between them:
 *
 *   alloc      f2fs_alloc_nid() + f2fs_alloc_nid_done(): a create; with the list empty it
 *              builds free NIDs itself (sync)
 *   unlink     truncate_node(): the NID's NAT entry becomes free in memory (dirty); the NID
 *              is free again only when the next checkpoint writes that entry
 *   background f2fs_balance_fs_bg()'s free-NID part: f2fs_build_free_nids(sync = false), or
 *              the shrinker's trim when the free-NID list is over its memory share. The
 *              kernel calls it from node writeback (f2fs_write_node_pages) and the GC
 *              thread; unlink's f2fs_balance_fs() only with 100,000+ cached NAT entries
 *   checkpoint f2fs_flush_nat_entries() (freed entries: add_free_nid()), then the NAT entry
 *              scan CLUE's lazy update deferred (f2fs_clue_checkpoint_scan())
 *   shrink     f2fs_try_to_free_nids(): the list trimmed to MAX_FREE_NIDS from its head; the
 *              trimmed NIDs stay only in the free-NID bitmap
 *
 * f2fs_build_free_nids() is scan_free_nid_bits() (the bitmap scan over loaded NAT blocks)
 * then, while the list is still short, __f2fs_scan_nat_entries() (FREE_NID_PAGES NAT blocks
 * from next_scan_nid). Each scan emits the records of the guest's f2fs_free_nid_scan
 * tracepoint (FSLAB_EV_F2FS_NID_SCAN + _RESULT), and the counters are its sysfs clue_*.
 * What is left out, and why, is at the top of src/f2fs/nid.c.
 */
#ifndef FSLAB_F2FS_NID_H
#define FSLAB_F2FS_NID_H

#include <stdint.h>
#include "fslab/f2fs_events.h"
#include "fslab/f2fs.h" /* F2FS_CLUE_* */

#define NAT_ENTRY_PER_BLOCK 455 /* F2FS_BLKSIZE / sizeof(struct f2fs_nat_entry): 4096 / 9 */
#define FREE_NID_PAGES 8        /* NAT blocks one NAT entry scan walks */
#define MAX_FREE_NIDS (NAT_ENTRY_PER_BLOCK * FREE_NID_PAGES) /* 3640 */
#define F2FS_RESERVED_NODE_NUM 3 /* NID 0, the node and meta inodes */
#define F2FS_ROOT_INO 3          /* mkfs.f2fs's root_ino; lower NIDs are never free */
#define NAT_JOURNAL_ENTRIES 38   /* (sum_journal_size 507 - 2) / 13: orders a checkpoint's NAT sets */
#define DEF_RAM_THRESHOLD 1      /* ram_thresh: the free-NID list may use 1/4 of 1% of RAM */
#define F2FS_FREE_NID_SIZE 16    /* sizeof(struct free_nid) on i386, the guest */
#define F2FS_NID_DEF_RAM_PAGES 65536 /* the guest's 256 MiB, 4 KiB pages, no highmem */
#define F2FS_NID_BITMAP_BYTES 64 /* one block's free_nid_bitmap: 455 bits, padded */
#define F2FS_NID_MAX_NAT_BLOCKS 4096

enum nid_state { FREE_NID = 0, PREALLOC_NID = 1, MAX_NID_STATE };

struct f2fs_clue_counters { /* /sys/fs/f2fs/<dev>/clue_*: unsigned int, wrapping alike */
	uint32_t bitmap_scans, nat_scans, scans_skipped, nat_deferred, nids_scanned;
	uint32_t walks_avoided;  /* CLUE lazy: background bitmap walks skipped as pointless */
};

struct f2fs_nm_info {
	uint32_t nat_blocks, max_nid;
	uint32_t clue;             /* F2FS_CLUE_* mask, 0 = upstream */
	uint32_t avail_ram;        /* pages, totalram - totalhigh (f2fs_available_free_memory) */
	uint32_t ram_thresh;
	uint32_t available_nids;
	uint32_t nid_cnt[MAX_NID_STATE];
	uint32_t next_scan_nid;
	uint32_t next_bitmap_blk;  /* CLUE heuristic: where the last bitmap scan stopped */
	int nat_scan_deferred;     /* CLUE lazy: a NAT entry scan owed to the next checkpoint */
	uint32_t clue_bitmap_gen;  /* CLUE lazy: bumped whenever a free-NID bit is set */
	uint32_t clue_walk_gen;    /* ... as of the last bitmap walk that went all the way round */
	uint32_t valid_node_count;
	uint8_t *nat_block_bitmap; /* one byte per NAT block, 1 = loaded (the kernel: one bit) */
	uint8_t *free_nid_bitmap;  /* F2FS_NID_BITMAP_BYTES per block, bit i (LE) = start + i */
	uint16_t *free_nid_count;
	uint8_t *nat;              /* per NID: NAT_* flags (nid.c) */
	uint32_t *prev, *next;     /* free_nid_list by NID; NID 0 is never listed, so 0 = none */
	uint32_t head, tail;
	uint32_t *dirty_seq;       /* when each dirty NAT entry was last dirtied */
	uint32_t seq, dirty_cnt;
	struct f2fs_clue_counters c;
	struct fslab_events events;
};

/* mkfs.f2fs's NAT (NIDs 1-3 in use, next_free_nid 4) mounted: f2fs_build_node_manager(),
 * whose f2fs_build_free_nids(sync, mount) scans FREE_NID_PAGES NAT blocks (one NAT record
 * pair). avail_ram 0 means F2FS_NID_DEF_RAM_PAGES. NULL for 0 or too many NAT blocks, a
 * clue over 7, or no memory. */
struct f2fs_nm_info *f2fs_nm_new(uint32_t nat_blocks, uint32_t clue, uint32_t avail_ram);
void f2fs_nm_free(struct f2fs_nm_info *nm);
int f2fs_nm_set_clue(struct f2fs_nm_info *nm, uint32_t clue); /* 0 or -EINVAL, as sysfs */
void f2fs_nm_reset_counters(struct f2fs_nm_info *nm);

/* a create: the NID in *nid, or -ENOSPC (available_nids is 0) */
int f2fs_nm_alloc(struct f2fs_nm_info *nm, uint32_t *nid);
/* a create that failed after f2fs_alloc_nid(): the NID goes back (f2fs_alloc_nid_failed) */
int f2fs_nm_alloc_failed(struct f2fs_nm_info *nm, uint32_t *nid);
/* the NID's node truncated (its inode evicted after unlink); -EINVAL if it holds no node */
int f2fs_nm_unlink(struct f2fs_nm_info *nm, uint32_t nid);
void f2fs_nm_balance_fs_bg(struct f2fs_nm_info *nm);
void f2fs_nm_checkpoint(struct f2fs_nm_info *nm);
/* f2fs_try_to_free_nids(nr_shrink): NIDs dropped from the list */
uint32_t f2fs_nm_try_to_free_nids(struct f2fs_nm_info *nm, uint32_t nr_shrink);

/* A script: ops of three u32 (op, a, b). */
enum f2fs_nid_op {
	NID_OP_ALLOC = 1,        /* a creates */
	NID_OP_ALLOC_FAILED = 2, /* a creates that fail after taking a NID */
	NID_OP_UNLINK = 3,       /* every NID in [a, a + b) that holds a node, ascending */
	NID_OP_BACKGROUND = 4,   /* a calls of f2fs_balance_fs_bg */
	NID_OP_CHECKPOINT = 5,
	NID_OP_SHRINK = 6,       /* f2fs_try_to_free_nids(a) */
	NID_OP_SYNC = 7,         /* sync(1): a calls of f2fs_balance_fs_bg (node writeback's), then a
	                            checkpoint; the guest's writeback makes 3, sometimes 4 */
	NID_OP_SET_CLUE = 8,     /* a = mask */
	NID_OP_RESET_COUNTERS = 9,
};
/* 0, or the first failing op's -errno; *done = ops completed */
int f2fs_nm_run(struct f2fs_nm_info *nm, const uint32_t *ops, uint32_t n, uint32_t *done);

/* the free-NID list from its head (the next NID alloc takes): up to max NIDs, the count */
uint32_t f2fs_nm_free_list(const struct f2fs_nm_info *nm, uint32_t *out, uint32_t max);
/* per NAT block, three u32: NIDs in the free list, NIDs holding a node (in memory), dirty
 * NAT entries (changed since the last checkpoint) */
void f2fs_nm_block_counts(const struct f2fs_nm_info *nm, uint32_t *out);

#endif
