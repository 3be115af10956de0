/* SPDX-License-Identifier: MIT */
/*
 * f2fs core: FxMark's unlink workloads (MWUL: each core unlinks in its own directory;
 * MWUM: all cores in one shared directory) on many cores, as a discrete-event simulation
 * of the locks an unlink takes in F2FS (Linux 5.7, as in the CLUE paper, and 7.2 alike):
 *
 *   VFS path walk (no lock) -> parent directory's i_rwsem (shared only in MWUM) ->
 *   f2fs_unlink -> f2fs_balance_fs -> f2fs_balance_fs_bg -> f2fs_build_free_nids (a
 *   background build; f2fs_balance_fs() calls it only while 100,000 or more NAT entries
 *   are cached, as in FxMark's runs over millions of files; the guest's labs, with
 *   thousands, get their background builds from node writeback instead):
 *     upstream (clue 0): build_lock held for the count check, and, when the free-NID list
 *       is below its threshold, the free-NID bitmap scan and the NAT entry scan;
 *     CLUE bits (the guest kernel's /sys/fs/f2fs/<dev>/clue):
 *       1 optimistic: count checked outside build_lock; the bitmap scan under its own lock,
 *         taken by trylock - a core that finds it held skips straight on;
 *       2 heuristic: a bitmap scan walks only heuristic_pct of the bitmap (it starts where
 *         the last one stopped instead of at NID 0);
 *       4 lazy: no NAT entry scan on the unlink path (deferred to checkpoint).
 *
 * Costs are parameters (ns). A lock that passes between cores on different sockets costs
 * remote_ns more, which is what bends the curves after one socket (cores_per_socket).
 * This is a model of lock structure with costs chosen to match the paper's shape, not a
 * cycle-accurate F2FS: see web/src/topics/f2fs/fxmark.ts for the defaults and why.
 */
#ifndef FSLAB_F2FS_H
#define FSLAB_F2FS_H

#include <stdint.h>

#define F2FS_CLUE_OPTIMISTIC 1
#define F2FS_CLUE_HEURISTIC 2
#define F2FS_CLUE_LAZY 4

enum fxmark_workload { FXMARK_MWUL = 0, FXMARK_MWUM = 1 };

struct f2fs_unlink_costs {
	uint32_t vfs_ns;           /* lookup, dput, syscall: outside every lock */
	uint32_t unlink_ns;        /* f2fs_unlink's own work under the directory lock */
	uint32_t check_ns;         /* reading the free-NID count (nid_list_lock's line) */
	uint32_t bitmap_scan_ns;   /* a whole free-NID bitmap scan from NID 0 */
	uint32_t heuristic_pct;    /* the share of it a heuristic scan walks */
	uint32_t nat_scan_ns;      /* a NAT entry scan of FREE_NID_PAGES blocks */
	uint32_t remote_ns;        /* a lock handed to a core on another socket */
	uint32_t cores_per_socket; /* the paper's server: 120 cores in 8 sockets of 15 */
	uint32_t low_pct;          /* unlinks that find the free-NID list below its threshold */
};

enum f2fs_lock { LOCK_DIR, LOCK_BUILD, LOCK_BITMAP, LOCK_LIST, LOCK_COUNT };

struct f2fs_fxmark_result {
	double seconds;         /* simulated time until the last core finished */
	double unlinks_per_sec;
	uint64_t unlinks, bitmap_scans, nat_scans, scans_skipped, nat_deferred;
	double wait_ns[LOCK_COUNT];  /* total time cores waited for each lock */
	uint64_t acquired[LOCK_COUNT];
};

/* 0, or -FSLAB_EINVAL for a scenario it refuses (no cores, no unlinks, > 4096 cores) */
int f2fs_fxmark_unlink(enum fxmark_workload w, uint32_t clue, uint32_t cores, uint32_t unlinks_per_core,
		       const struct f2fs_unlink_costs *c, uint64_t seed, struct f2fs_fxmark_result *out);

/*
 * Lock-wait timelines: a run can record, for some of its cores, when each waited for a lock
 * (queued in mutex_lock until the holder handed it over) and when each held one. Spans
 * nest: under MWUM the directory's i_rwsem is held (depth 0) while build_lock is waited for
 * and held (depth 1); at one depth a core's spans never overlap. Time outside every span
 * is the core's own work (path walk, f2fs_unlink's work in a private directory).
 *
 * The bound: only cores 0, every, 2*every, ... are traced, only spans that overlap the
 * window [from_ns, until_ns) are kept, and at most max_spans per traced core (in the order
 * they ended; later ones are counted in dropped). Memory: traced cores x max_spans x
 * sizeof(struct f2fs_lock_span) (24 bytes), allocated by the run; at most
 * F2FS_TRACE_MAX_SPANS in all. Recording never changes the run's results.
 */
enum f2fs_span_kind { F2FS_SPAN_WAIT = 0, F2FS_SPAN_HOLD = 1 };

struct f2fs_lock_span {
	uint64_t from, to; /* simulated ns */
	uint8_t lock;      /* enum f2fs_lock */
	uint8_t kind;      /* enum f2fs_span_kind */
	uint8_t depth;     /* locks the core held when the span began */
};

#define F2FS_TRACE_MAX_SPANS (1u << 20)

struct f2fs_fxmark_trace {
	/* in */
	uint64_t from_ns, until_ns; /* the window; until_ns UINT64_MAX: the whole run */
	uint32_t every;             /* trace every this many cores, from core 0 */
	uint32_t max_spans;         /* per traced core */
	/* out, f2fs_fxmark_trace_free() releases */
	uint32_t traced;            /* cores traced: (cores + every - 1) / every */
	struct f2fs_lock_span *spans; /* traced core k's at spans[k * max_spans] */
	uint32_t *len;              /* spans kept per traced core */
	uint64_t *done_ns;          /* when each traced core finished its last unlink */
	uint64_t dropped;           /* spans in the window past a core's max_spans */
};

/* f2fs_fxmark_unlink, recording into t; also -FSLAB_EINVAL for every 0, max_spans 0, or
 * more than F2FS_TRACE_MAX_SPANS in all */
int f2fs_fxmark_unlink_traced(enum fxmark_workload w, uint32_t clue, uint32_t cores, uint32_t unlinks_per_core,
			      const struct f2fs_unlink_costs *c, uint64_t seed, struct f2fs_fxmark_result *out,
			      struct f2fs_fxmark_trace *t);
void f2fs_fxmark_trace_free(struct f2fs_fxmark_trace *t);

#endif
