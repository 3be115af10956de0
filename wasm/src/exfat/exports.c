/* SPDX-License-Identifier: MIT */
/*
 * The exfat core's wasm surface: flat functions over a volume pointer, called by
 * web/src/topics/exfat/exfat-core.ts. Event records and the bitmap are read straight out of
 * linear memory by pointer and length, then copied into transferable buffers.
 */
#include <stdlib.h>
#include "fslab/exfat.h"
#include "fslab/exfat_dir.h"

struct exfat_volume *fx_exfat_new(uint32_t clusters, uint32_t sect_per_clus_bits)
{
	return exfat_volume_new(clusters, (uint8_t)sect_per_clus_bits);
}

struct exfat_volume *fx_exfat_clone(const struct exfat_volume *v) { return exfat_volume_clone(v); }
void fx_exfat_free(struct exfat_volume *v) { exfat_volume_free(v); }

void fx_exfat_set_policy(struct exfat_volume *v, int discard, int batch_discard)
{
	v->discard = !!discard;
	v->batch_discard = batch_discard ? EXFAT_DISCARD_BATCHED : EXFAT_DISCARD_PER_CLUSTER;
}

int fx_exfat_create(struct exfat_volume *v) { return exfat_file_create(v, ""); }
int fx_exfat_append(struct exfat_volume *v, int id, uint32_t n) { return exfat_file_append(v, id, n); }
int fx_exfat_delete(struct exfat_volume *v, int id) { return exfat_file_delete(v, id); }

const struct fslab_event *fx_exfat_events_ptr(const struct exfat_volume *v) { return v->events.ev; }
/* number of records; -1 if the stream lost records to an allocation failure */
int fx_exfat_events_len(const struct exfat_volume *v) { return v->events.oom ? -1 : (int)v->events.len; }
void fx_exfat_events_clear(struct exfat_volume *v) { fslab_events_clear(&v->events); }
void fx_exfat_events_record(struct exfat_volume *v, int on) { v->events.off = !on; }
/* discards issued since the volume was made (a double: it can pass 2^32 in principle) */
double fx_exfat_discard_calls(const struct exfat_volume *v) { return (double)v->discard_calls; }

const uint8_t *fx_exfat_bitmap_ptr(const struct exfat_volume *v) { return v->vol_amap; }
const uint32_t *fx_exfat_fat_ptr(const struct exfat_volume *v) { return v->fat; }
uint32_t fx_exfat_num_clusters(const struct exfat_volume *v) { return v->num_clusters; }
uint32_t fx_exfat_used_clusters(const struct exfat_volume *v) { return v->used_clusters; }

int fx_exfat_file_size(const struct exfat_volume *v, int id)
{
	return (id >= 0 && id < EXFAT_MODEL_MAX_FILES && v->files[id].in_use) ? (int)v->files[id].chain.size : -1;
}

int fx_exfat_file_flags(const struct exfat_volume *v, int id)
{
	return (id >= 0 && id < EXFAT_MODEL_MAX_FILES && v->files[id].in_use) ? v->files[id].chain.flags : -1;
}

int fx_exfat_file_clusters(const struct exfat_volume *v, int id, uint32_t *out, uint32_t max)
{
	return exfat_file_clusters(v, id, out, max);
}

/* The directory model (fslab/exfat_dir.h): empty-entry searches with or without the hint. */
struct exfat_dir *fx_exfat_dir_new(uint32_t dentries_per_clu, int empty_hint) { return exfat_dir_new(dentries_per_clu, empty_hint); }
void fx_exfat_dir_free(struct exfat_dir *d) { exfat_dir_free(d); }
int fx_exfat_dir_create(struct exfat_dir *d, int name_len) { return exfat_dir_create(d, name_len); }
int fx_exfat_dir_remove(struct exfat_dir *d, int slot, int name_len) { return exfat_dir_remove(d, slot, name_len); }
uint32_t fx_exfat_dir_clusters(const struct exfat_dir *d) { return d->clusters; }
const uint8_t *fx_exfat_dir_slots(const struct exfat_dir *d) { return d->slot; }
double fx_exfat_dir_examined(const struct exfat_dir *d) { return (double)d->examined; }
const struct fslab_event *fx_exfat_dir_events_ptr(const struct exfat_dir *d) { return d->events.ev; }
int fx_exfat_dir_events_len(const struct exfat_dir *d) { return d->events.oom ? -1 : (int)d->events.len; }
void fx_exfat_dir_events_clear(struct exfat_dir *d) { fslab_events_clear(&d->events); }
