/* SPDX-License-Identifier: MIT */
/*
 * exfat_set_empty_hint(), after Linux 7.2 fs/exfat/dir.c (Yuezhang Mo's 6.2 patch, commit
 * e298c8a818a3 "exfat: hint the empty entry which at the end of cluster chain"). Its own file
 * because the exfat-empty-hint lab's code step has the learner write it: the page builds their
 * file in its place (web/src/topics/exfat/grader.ts), and this one is the step's reference.
 */
#include "fslab/exfat_dir.h"

void exfat_set_empty_hint(struct exfat_dir *ei, struct exfat_hint_femp *candi_empty, int dentry, int num_entries, int entry_type)
{
	int total_entries = exfat_dir_entries(ei);

	/* a hint already starts no later than this entry: keep it */
	if (ei->hint_femp.eidx != EXFAT_HINT_NONE && ei->hint_femp.eidx <= dentry)
		return;
	/* the first free entry of a run starts the candidate */
	if (candi_empty->count == 0)
		candi_empty->eidx = dentry;
	/* an unused entry ends the directory's entries: every entry from here on is free */
	if (entry_type == SLOT_UNUSED)
		candi_empty->count += total_entries - dentry;
	else
		candi_empty->count++;
	/* big enough for the new set, or reaching the directory's end (a new cluster follows) */
	if (candi_empty->count == num_entries || candi_empty->count + candi_empty->eidx == total_entries)
		ei->hint_femp = *candi_empty;
}
