/* SPDX-License-Identifier: MIT */
/*
 * Finding room for a new directory entry set, after fs/exfat/dir.c and namei.c (7.2):
 * exfat_find_dir_entry()'s hint setting, __exfat_search_empty_slot() and the cluster
 * growth in exfat_find_empty_entry(). Entry names are not compared: every create here is a
 * new name, so its lookup walks to the first unused entry like the kernel's negative lookup.
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

static int total_entries(const struct exfat_dir *d) { return (int)(d->clusters * d->dentries_per_clu); }

static void reset_hint(struct exfat_hint_femp *h)
{
	h->eidx = EXFAT_HINT_NONE;
	h->count = 0;
	h->cur_is_eof = 0;
}

/* exfat_set_empty_hint() with the guest patch's empty_hint switch */
static void set_empty_hint(struct exfat_dir *d, struct exfat_hint_femp *candi, int dentry, int num_entries, int unused)
{
	if (d->hint_femp.eidx != EXFAT_HINT_NONE && d->hint_femp.eidx <= dentry)
		return;
	if (candi->count == 0)
		candi->eidx = dentry;
	if (!d->empty_hint) { /* before 6.2: only enough empty entries make a hint */
		if (++candi->count == num_entries)
			d->hint_femp = *candi;
		return;
	}
	if (unused)
		candi->count += total_entries(d) - dentry;
	else
		candi->count++;
	if (candi->count == num_entries || candi->count + candi->eidx == total_entries(d))
		d->hint_femp = *candi;
}

/*
 * exfat_find_dir_entry() for a name that is not there: from hint_stat to the first unused
 * entry, then (if it did not start at 0) again from 0 up to where it started.
 */
static void find_dir_entry(struct exfat_dir *d, int num_entries)
{
	struct exfat_hint_femp candi;
	int dentry = d->hint_stat_eidx, end_eidx = dentry, rewind = 0;

	reset_hint(&d->hint_femp);
again:
	reset_hint(&candi);
	for (; dentry < total_entries(d); dentry++) {
		uint8_t t = d->slot[dentry];

		if (rewind && dentry == end_eidx)
			break;
		if (t != SLOT_USED) {
			set_empty_hint(d, &candi, dentry, num_entries, t == SLOT_UNUSED);
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
	/* with the hint, "search from the end" when nothing better was seen */
	if (d->hint_femp.eidx == EXFAT_HINT_NONE && d->empty_hint) {
		d->hint_femp.cur_is_eof = 1;
		d->hint_femp.eidx = total_entries(d);
		d->hint_femp.count = 0;
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

/* exfat_search_empty_slot(): the patched kernel's wrapper that counts and traces */
static int search_and_count(struct exfat_dir *d, struct exfat_hint_femp *hint, int num_entries)
{
	int hint_in = hint->eidx, start = -1, end, ret;

	ret = search_empty_slot(d, hint, num_entries, &start);
	end = ret >= 0 ? ret + num_entries : (hint->eidx == EXFAT_HINT_NONE ? start : hint->eidx);
	/* the event schema writes "none" (~0) for no hint and for -ENOSPC */
	uint32_t hint_field = hint_in < 0 ? ~0u : (uint32_t)hint_in, result = ret < 0 ? ~0u : (uint32_t)ret;
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
	int dentry;

	reset_hint(&hint);
	if (d->hint_femp.eidx != EXFAT_HINT_NONE) {
		hint = d->hint_femp;
		d->hint_femp.eidx = EXFAT_HINT_NONE;
	}
	while ((dentry = search_and_count(d, &hint, num_entries)) < 0) {
		if ((uint64_t)total_entries(d) >= MAX_EXFAT_DENTRIES)
			return -FSLAB_ENOSPC;
		uint8_t *grown = realloc(d->slot, (size_t)(d->clusters + 1) * d->dentries_per_clu);
		if (!grown)
			return -FSLAB_ENOSPC;
		d->slot = grown;
		memset(d->slot + (size_t)d->clusters * d->dentries_per_clu, SLOT_UNUSED, d->dentries_per_clu);
		hint.cur_is_eof = 0;
		hint.count += (int)d->dentries_per_clu;
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
	return slot;
}

int exfat_dir_remove(struct exfat_dir *d, int slot, int name_len)
{
	int n = exfat_calc_num_entries(name_len), i;

	if (slot < 0 || slot + n > total_entries(d) || d->slot[slot] != SLOT_USED)
		return -FSLAB_ENOENT;
	/* the positive lookup's "found:": the next lookup starts after the set, unless the set
	 * ends its cluster and that cluster is the directory's last */
	d->hint_stat_eidx = (slot + n) % (int)d->dentries_per_clu == 0 && slot + n == total_entries(d) ? 0 : slot + n;
	for (i = 0; i < n; i++)
		d->slot[slot + i] = SLOT_DELETED;
	return 0;
}
