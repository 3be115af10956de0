/* SPDX-License-Identifier: MIT */
/*
 * exfat directory model: the entry slots of one directory and how Linux 7.2 finds room for
 * a new entry set, with the Linux 6.2 empty-entry hint or with Linux 6.1's hint and search
 * (the guest's /sys/module/exfat/parameters/empty_hint, 1 or 0):
 *
 *   create(name) -> exfat_find_dir_entry()   the negative lookup: walks from entry 0 to the
 *                                            first unused entry; sets ei->hint_femp from the
 *                                            free entries it passes (exfat_set_empty_hint)
 *                -> exfat_find_empty_entry() __exfat_search_empty_slot() from the hint (or 0),
 *                                            first fit of num_entries free slots; a new
 *                                            cluster when there is none. 6.1: a hint with
 *                                            enough entries is taken unread, otherwise
 *                                            entries are read one by one
 *
 * Each search is an FSLAB_EV_EXFAT_EMPTY_SEARCH record with the fields of our tracepoint
 * (a = entries examined, b = hint or ~0, c = slot found or ~0 for -ENOSPC), so the model's
 * stream compares record for record with the kernel's.
 */
#ifndef FSLAB_EXFAT_DIR_H
#define FSLAB_EXFAT_DIR_H

#include <stdint.h>
#include "fslab/exfat_events.h"

enum exfat_slot { SLOT_UNUSED = 0, SLOT_DELETED = 1, SLOT_USED = 2 };

#define EXFAT_HINT_NONE (-1)

struct exfat_hint_femp {
	int eidx;       /* first entry of the run, or EXFAT_HINT_NONE */
	int count;      /* free entries known from eidx on (6.1's search: CNT_UNUSED_*) */
	int cur_is_eof; /* hint_femp.cur.dir == EXFAT_EOF_CLUSTER */
	int old;        /* made under empty_hint=0 (Linux 6.1's rules) */
};

struct exfat_dir {
	uint8_t *slot;        /* enum exfat_slot per entry */
	uint32_t clusters;    /* the directory's size in clusters */
	uint32_t dentries_per_clu;
	int empty_hint;       /* 1: Linux >= 6.2; 0: before */
	struct exfat_hint_femp hint_femp; /* ei->hint_femp */
	int hint_stat_eidx;   /* ei->hint_stat.eidx: where the next lookup starts (0 after a miss) */
	int changed;          /* the directory changed since the last lookup (ei->version is stale) */
	uint64_t examined;    /* as the patched kernel's empty_entries_examined */
	struct fslab_events events;
};

/* the directory's entries: EXFAT_B_TO_DEN(i_size_read(dir)) */
static inline int exfat_dir_entries(const struct exfat_dir *d) { return (int)(d->clusters * d->dentries_per_clu); }

/*
 * exfat_set_empty_hint() (7.2 fs/exfat/dir.c), the empty_hint=1 rule (dir_hint.c): called by
 * the lookup for each free entry it passes (entry_type SLOT_DELETED or SLOT_UNUSED, where the
 * lookup ends); candi_empty is the run of free entries in a row so far (the lookup resets it
 * at a used entry). It may make the run ei->hint_femp, where the search for room starts. The
 * exfat-empty-hint lab's code step has the learner write it.
 */
void exfat_set_empty_hint(struct exfat_dir *ei, struct exfat_hint_femp *candi_empty, int dentry, int num_entries, int entry_type);

struct exfat_dir *exfat_dir_new(uint32_t dentries_per_clu, int empty_hint);
void exfat_dir_free(struct exfat_dir *d);
/* 2 + ceil(len / 15): file, stream extension and name entries */
int exfat_calc_num_entries(int name_len);
/* the slot where a new entry set of name_len characters goes, or -errno */
int exfat_dir_create(struct exfat_dir *d, int name_len);
/* unlink: the lookup that finds the set (moving hint_stat past it), then its entries
 * become deleted entries (exfat_remove_entries) */
int exfat_dir_remove(struct exfat_dir *d, int slot, int name_len);
/* a lookup that finds the set at slot (stat of a name not in the dentry cache): the next
 * lookup starts after it (ei->hint_stat), the directory unchanged */
int exfat_dir_lookup(struct exfat_dir *d, int slot, int name_len);

#endif
