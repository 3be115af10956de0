/* SPDX-License-Identifier: MIT */
/*
 * Finding room for a new directory entry set, after fs/exfat/dir.c and namei.c (7.2):
 * exfat_find_dir_entry()'s hint setting, __exfat_search_empty_slot() and the cluster
 * growth in exfat_find_empty_entry(); with empty_hint=0, Linux 6.1's hint, search and growth
 * as our patch restores them (6.1's exfat_find_dir_entry() and exfat_search_empty_slot()).
 * Entry names are not compared: every create here is a new name, so its lookup walks to the
 * first unused entry like the kernel's negative lookup.
 */
#include <stdlib.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/exfat_dir.h"

#define MAX_EXFAT_DENTRIES 8388608 /* 256 MiB of 32-byte entries */

struct exfat_dir *exfat_dir_new(uint32_t dentries_per_clu, int empty_hint)
{
	struct exfat_dir *d;

	if (!dentries_per_clu || (dentries_per_clu & (dentries_per_clu - 1)) || dentries_per_clu > (1u << 20))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->dentries_per_clu = dentries_per_clu;
	d->clusters = 1; /* mkdir gives a directory one zeroed cluster */
	d->slot = calloc(dentries_per_clu, 1);
	d->empty_hint = !!empty_hint;
	d->hint_femp.eidx = EXFAT_HINT_NONE;
	fslab_events_init(&d->events);
	if (!d->slot) {
		free(d);
		return NULL;
	}
	return d;
}

void exfat_dir_free(struct exfat_dir *d)
{
	if (!d)
		return;
	free(d->slot);
	fslab_events_free(&d->events);
	free(d);
}

int exfat_calc_num_entries(int name_len) { return 2 + (name_len + 14) / 15; }

static int total_entries(const struct exfat_dir *d) { return exfat_dir_entries(d); }

static void reset_hint(struct exfat_hint_femp *h)
{
	h->eidx = EXFAT_HINT_NONE;
	h->count = 0;
	h->cur_is_eof = 0;
}

/* empty_hint=0, Linux 6.1's exfat_find_dir_entry() (6.1 dir.c:984-1002, the patch's
 * exfat_set_empty_hint_61()): a candidate exists only once num_entries empty entries in a
 * row were seen, and replaces the hint only if it starts no later */
static void set_empty_hint_61(struct exfat_dir *d, struct exfat_hint_femp *candi, int dentry, int num_entries)
{
	if (candi->eidx != EXFAT_HINT_NONE)
		return;
	if (++candi->count >= num_entries) {
		candi->eidx = dentry - (candi->count - 1);
		if (d->hint_femp.eidx == EXFAT_HINT_NONE || candi->eidx <= d->hint_femp.eidx)
			d->hint_femp = *candi;
	}
}

/*
 * exfat_find() + exfat_find_dir_entry() for a name that is not there: from hint_stat to the
 * first unused entry, then (if it did not start at 0) again from 0 up to where it started.
 */
static void find_dir_entry(struct exfat_dir *d, int num_entries)
{
	struct exfat_hint_femp candi;
	int dentry, end_eidx, rewind = 0, hint62 = d->empty_hint;

	/* exfat_find(): the directory changed since the last lookup (ei->version) */
	if (d->changed) {
		d->hint_stat_eidx = 0;
		d->hint_femp.eidx = EXFAT_HINT_NONE;
		d->changed = 0;
	}
	dentry = end_eidx = d->hint_stat_eidx;
	/* 7.2 resets the hint on every lookup; 6.1 kept it, but a hint of the other rule goes */
	if (hint62 || !d->hint_femp.old)
		reset_hint(&d->hint_femp);
again:
	reset_hint(&candi);
	candi.old = !hint62;
	for (; dentry < total_entries(d); dentry++) {
		uint8_t t = d->slot[dentry];

		if (rewind && dentry == end_eidx)
			break;
		if (t != SLOT_USED) {
			if (hint62)
				exfat_set_empty_hint(d, &candi, dentry, num_entries, t);
			else
				set_empty_hint_61(d, &candi, dentry, num_entries);
			if (t == SLOT_UNUSED)
				break; /* goto not_found */
			continue;
		}
		reset_hint(&candi);
	}
	/* not_found */
	if (!rewind && end_eidx) {
		rewind = 1;
		dentry = 0;
		goto again;
	}
	/* 6.2: "search from the end" when nothing better was seen */
	if (d->hint_femp.eidx == EXFAT_HINT_NONE && hint62) {
		d->hint_femp.cur_is_eof = 1;
		d->hint_femp.eidx = total_entries(d);
		d->hint_femp.count = 0;
		d->hint_femp.old = 0;
	}
	d->hint_stat_eidx = 0;
}

/*
 * exfat_get_empty_dentry_set() + exfat_validate_empty_dentry_set(): 0 if num_entries free
 * slots start at dentry, else how far to skip: to the first free slot after the first used
 * one, within the sectors the set spans (16 entries of 512-byte sectors).
 */
static int empty_dentry_set(const struct exfat_dir *d, int dentry, int num_entries)
{
	int i, end;

	for (i = 0; i < num_entries; i++)
		if (d->slot[dentry + i] == SLOT_USED)
			break;
	if (i == num_entries)
		return 0;
	/* es->num_entries: to the end of the last sector the set touches */
	end = ((dentry + num_entries - 1) / 16 + 1) * 16 - dentry;
	for (i++; i < end; i++)
		if (d->slot[dentry + i] != SLOT_USED)
			break;
	return i;
}

/* __exfat_search_empty_slot(); *start as the tracepoint reports it */
static int search_empty_slot(struct exfat_dir *d, struct exfat_hint_femp *hint, int num_entries, int *start)
{
	int dentry, ret, total = total_entries(d);

	if (hint->eidx != EXFAT_HINT_NONE) {
		dentry = hint->eidx;
		if (dentry + hint->count == total && num_entries > hint->count)
			return -FSLAB_ENOSPC;
		hint->eidx = EXFAT_HINT_NONE;
	} else {
		dentry = 0;
	}
	*start = dentry;
	while (dentry + num_entries <= total) {
		ret = empty_dentry_set(d, dentry, num_entries);
		if (ret == 0)
			return dentry;
		dentry += ret;
	}
	hint->eidx = dentry;
	hint->count = 0;
	hint->cur_is_eof = dentry == total;
	return -FSLAB_ENOSPC;
}

/* 6.1's exfat_search_empty_slot() marks, in hint->count, a run of empty entries */
#define CNT_UNUSED_NOHIT (-1)
#define CNT_UNUSED_HIT (-2)

/*
 * empty_hint=0: Linux 6.1's exfat_search_empty_slot() (6.1 namei.c:211-297; the patch's
 * exfat_search_empty_slot_61()). A hint with enough entries is taken without reading it;
 * otherwise entries are read one by one from the hint (or 0) until num_entries empty ones
 * in a row; a run of empty entries at the end stays in the hint for the new cluster.
 * *examined: the entries read.
 */
static int search_empty_slot_61(struct exfat_dir *d, struct exfat_hint_femp *hint, int num_entries, int *start, int *examined)
{
	int dentry, num_empty = 0, trusted = 0, total = total_entries(d);

	*examined = 0;
	if (hint->eidx != EXFAT_HINT_NONE) {
		dentry = *start = hint->eidx;
		if (num_entries <= hint->count) {
			hint->eidx = EXFAT_HINT_NONE;
			trusted = 1;
			goto found;
		}
	} else {
walk_from_start:
		dentry = *start = 0;
	}
	for (; dentry < total; dentry++) {
		uint8_t t = d->slot[dentry];

		(*examined)++;
		if (t != SLOT_USED) {
			num_empty++;
			if (hint->eidx == EXFAT_HINT_NONE) {
				hint->eidx = dentry;
				hint->count = CNT_UNUSED_NOHIT;
			}
			if (t == SLOT_UNUSED)
				hint->count = CNT_UNUSED_HIT;
		} else {
			/* 6.1 reports "bogus dentry beyond unused empty group" (-EIO) */
			if (hint->eidx != EXFAT_HINT_NONE && hint->count == CNT_UNUSED_HIT)
				return -FSLAB_EIO;
			num_empty = 0;
			hint->eidx = EXFAT_HINT_NONE;
		}
		if (num_empty >= num_entries) {
			hint->eidx = EXFAT_HINT_NONE;
			dentry -= num_entries - 1;
			goto found;
		}
	}
	return -FSLAB_ENOSPC;
found:
	/* a trusted hint whose entries are no longer free: the patch walks from 0 (and warns) */
	if (dentry + num_entries > total || empty_dentry_set(d, dentry, num_entries)) {
		if (!trusted)
			return -FSLAB_EIO;
		trusted = 0;
		goto walk_from_start;
	}
	return dentry;
}

/* exfat_search_empty_slot(): the patched kernel's wrapper that counts and traces */
static int search_and_count(struct exfat_dir *d, struct exfat_hint_femp *hint, int num_entries)
{
	int hint_in = hint->eidx, start = -1, end, ret, examined;
	/* the event schema writes "none" (~0) for no hint and for -ENOSPC */
	uint32_t hint_field = hint_in < 0 ? ~0u : (uint32_t)hint_in;

	if (hint->old) {
		ret = search_empty_slot_61(d, hint, num_entries, &start, &examined);
		d->examined += (uint64_t)examined;
		fslab_emit(&d->events, FSLAB_EV_EXFAT_EMPTY_SEARCH, (uint32_t)examined, hint_field, ret < 0 ? ~0u : (uint32_t)ret);
		return ret;
	}
	ret = search_empty_slot(d, hint, num_entries, &start);
	end = ret >= 0 ? ret + num_entries : (hint->eidx == EXFAT_HINT_NONE ? start : hint->eidx);
	uint32_t result = ret < 0 ? ~0u : (uint32_t)ret;
	if (start >= 0 && end > start) {
		d->examined += (uint64_t)(end - start);
		fslab_emit(&d->events, FSLAB_EV_EXFAT_EMPTY_SEARCH, (uint32_t)(end - start), hint_field, result);
	} else {
		fslab_emit(&d->events, FSLAB_EV_EXFAT_EMPTY_SEARCH, 0, hint_field, result);
	}
	return ret;
}

/* exfat_find_empty_entry(), growing the directory a cluster at a time */
static int find_empty_entry(struct exfat_dir *d, int num_entries)
{
	struct exfat_hint_femp hint;
	int dentry, old = !d->empty_hint;

	reset_hint(&hint);
	if (d->hint_femp.eidx != EXFAT_HINT_NONE) {
		/* a hint made under the other rule is dropped */
		if (d->hint_femp.old == old)
			hint = d->hint_femp;
		d->hint_femp.eidx = EXFAT_HINT_NONE;
	}
	hint.old = old;
	while ((dentry = search_and_count(d, &hint, num_entries)) < 0) {
		if (dentry != -FSLAB_ENOSPC)
			return dentry; /* 6.1's search: -EIO */
		if ((uint64_t)total_entries(d) >= MAX_EXFAT_DENTRIES)
			return -FSLAB_ENOSPC;
		uint8_t *grown = realloc(d->slot, (size_t)(d->clusters + 1) * d->dentries_per_clu);
		if (!grown)
			return -FSLAB_ENOSPC;
		d->slot = grown;
		memset(d->slot + (size_t)d->clusters * d->dentries_per_clu, SLOT_UNUSED, d->dentries_per_clu);
		if (old) {
			/* 6.1 (namei.c:384-392): no empty run at the end: the new cluster's first
			 * entry, with a cluster's worth of entries, so the next search takes it unread */
			if (hint.eidx == EXFAT_HINT_NONE) {
				hint.eidx = total_entries(d);
				hint.count = (int)d->dentries_per_clu;
			}
		} else {
			hint.cur_is_eof = 0;
			hint.count += (int)d->dentries_per_clu;
		}
		d->clusters++;
	}
	return dentry;
}

int exfat_dir_create(struct exfat_dir *d, int name_len)
{
	int num_entries, slot, i;

	if (name_len < 1 || name_len > 255)
		return -FSLAB_EINVAL;
	num_entries = exfat_calc_num_entries(name_len);
	find_dir_entry(d, num_entries);
	slot = find_empty_entry(d, num_entries);
	if (slot < 0)
		return slot;
	for (i = 0; i < num_entries; i++)
		d->slot[slot + i] = SLOT_USED;
	d->changed = 1; /* inode_inc_iversion(dir) */
	return slot;
}

/* exfat_find_dir_entry()'s "found:": the next lookup starts after the set, unless the set
 * ends its cluster and that cluster is the directory's last */
static int past_set(const struct exfat_dir *d, int slot, int n)
{
	return (slot + n) % (int)d->dentries_per_clu == 0 && slot + n == total_entries(d) ? 0 : slot + n;
}

int exfat_dir_lookup(struct exfat_dir *d, int slot, int name_len)
{
	int n = exfat_calc_num_entries(name_len);

	if (slot < 0 || slot + n > total_entries(d) || d->slot[slot] != SLOT_USED)
		return -FSLAB_ENOENT;
	d->hint_stat_eidx = past_set(d, slot, n);
	d->changed = 0; /* exfat_find() took the directory's version */
	return 0;
}

int exfat_dir_remove(struct exfat_dir *d, int slot, int name_len)
{
	int n = exfat_calc_num_entries(name_len), i;

	if (exfat_dir_lookup(d, slot, name_len))
		return -FSLAB_ENOENT;
	for (i = 0; i < n; i++)
		d->slot[slot + i] = SLOT_DELETED;
	d->changed = 1; /* inode_inc_iversion(dir) */
	return 0;
}
