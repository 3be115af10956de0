/* SPDX-License-Identifier: MIT */
/*
 * The discrete-event simulation behind fslab/f2fs.h. Each core runs a small state machine
 * per unlink; locks are FIFO mutexes handed to the next waiter on release (Linux mutexes
 * spin and hand off too, but not strictly FIFO); time advances from event to event.
 * A run may also record when its cores waited for and held each lock (struct
 * f2fs_fxmark_trace): bookkeeping beside the simulation that never feeds back into it.
 */
#include <stdlib.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/f2fs.h"

#define MAX_CORES 4096
#define NOBODY 0xFFFFFFFFu

enum pc {
	P_START, P_DIR_ACQ, P_DIR_HELD, P_SCAN_ACQ, P_BUILD_HELD, P_BUILD_REL, P_LIST_HELD, P_LIST_REL,
	P_BITMAP_HELD, P_BITMAP_REL, P_NAT_ACQ, P_NAT_HELD, P_NAT_REL, P_DIR_REL, P_DONE,
};

struct actor {
	enum pc pc;
	uint32_t done, socket, low;
	uint64_t rng, extra, wait_from;
	/* for the trace: locks held now, and since when and at what depth each was taken */
	uint32_t held;
	uint64_t hold_from[LOCK_COUNT];
	uint8_t hold_depth[LOCK_COUNT];
};

struct lock {
	uint32_t holder, last_socket;
	uint32_t *q, qhead, qlen; /* waiters, FIFO ring of capacity cores */
};

/* when a core's one pending event is due; the heap holds core numbers (each core waits for at
 * most one event: the one its state machine scheduled), so a sift moves 4 bytes, not 24 */
struct due {
	uint64_t t, seq;
};

struct sim {
	const struct f2fs_unlink_costs *c;
	enum fxmark_workload w;
	uint32_t clue, cores, n;
	struct actor *a;
	struct lock l[LOCK_COUNT];
	struct due *due; /* per core */
	uint32_t *heap;
	uint32_t hlen;
	uint64_t seq, end;
	uint64_t bitmap_ns; /* one bitmap scan, shortened by the heuristic (CLUE bit 2) */
	struct f2fs_fxmark_result *r;
	struct f2fs_fxmark_trace *t; /* NULL: not recording */
};

static uint32_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static int ev_before(const struct sim *s, uint32_t x, uint32_t y)
{
	const struct due *a = &s->due[x], *b = &s->due[y];

	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void schedule(struct sim *s, uint32_t core, uint64_t t, enum pc pc)
{
	uint32_t i = s->hlen++;

	s->due[core].t = t;
	s->due[core].seq = s->seq++;
	s->a[core].pc = pc;
	while (i && ev_before(s, core, s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = core;
}

/* the core whose event is due first, taken off the heap */
static uint32_t pop(struct sim *s)
{
	uint32_t top = s->heap[0], x = s->heap[--s->hlen];
	uint32_t i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= s->hlen)
			break;
		if (c + 1 < s->hlen && ev_before(s, s->heap[c + 1], s->heap[c]))
			c++;
		if (!ev_before(s, s->heap[c], x))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->hlen)
		s->heap[i] = x;
	return top;
}

/* a finished wait or hold of a traced core, if it overlaps the window and there is room */
static void record(struct sim *s, uint32_t core, enum f2fs_lock k, enum f2fs_span_kind kind, uint64_t from,
		   uint64_t to, uint32_t depth)
{
	struct f2fs_fxmark_trace *t = s->t;
	struct f2fs_lock_span *sp;
	uint32_t i;

	if (!t || core % t->every || from >= t->until_ns || to < t->from_ns || (to == t->from_ns && from < to))
		return;
	i = core / t->every;
	if (t->len[i] == t->max_spans) {
		t->dropped++;
		return;
	}
	sp = &t->spans[(size_t)i * t->max_spans + t->len[i]++];
	sp->from = from;
	sp->to = to;
	sp->lock = (uint8_t)k;
	sp->kind = (uint8_t)kind;
	sp->depth = (uint8_t)depth;
}

/* the lock passes to `core`: from another socket its line (and the data under it) moves */
static void grant(struct sim *s, enum f2fs_lock k, uint32_t core, uint64_t now)
{
	struct lock *l = &s->l[k];
	struct actor *a = &s->a[core];

	a->hold_from[k] = now;
	a->hold_depth[k] = (uint8_t)a->held++;
	l->holder = core;
	a->extra = (l->last_socket != NOBODY && l->last_socket != a->socket) ? s->c->remote_ns : 0;
	l->last_socket = a->socket;
	s->r->acquired[k]++;
}

/* mutex_lock(): 1 if held now; else queued, and `then` runs when it is handed over */
static int acquire(struct sim *s, enum f2fs_lock k, uint32_t core, uint64_t now, enum pc then)
{
	struct lock *l = &s->l[k];
	uint32_t tail;

	if (l->holder == NOBODY) {
		grant(s, k, core, now);
		return 1;
	}
	/* the ring wraps by a compare, not a division per lock operation */
	tail = l->qhead + l->qlen++;
	l->q[tail >= s->cores ? tail - s->cores : tail] = core;
	s->a[core].pc = then;
	s->a[core].wait_from = now;
	return 0;
}

static void release(struct sim *s, enum f2fs_lock k, uint64_t now)
{
	struct lock *l = &s->l[k];
	struct actor *h = &s->a[l->holder];

	record(s, l->holder, k, F2FS_SPAN_HOLD, h->hold_from[k], now, h->hold_depth[k]);
	h->held--;
	l->holder = NOBODY;
	if (l->qlen) {
		uint32_t next = l->q[l->qhead];
		l->qhead = l->qhead + 1 == s->cores ? 0 : l->qhead + 1;
		l->qlen--;
		/* the wait ends exactly when the holder lets go: mutex handoff */
		record(s, next, k, F2FS_SPAN_WAIT, s->a[next].wait_from, now, s->a[next].held);
		grant(s, k, next, now);
		s->r->wait_ns[k] += (double)(int64_t)(now - s->a[next].wait_from); /* signed: one instruction in wasm too */
		schedule(s, next, now, s->a[next].pc);
	}
}

/* runs core's state machine at time now until it waits for time or for a lock */
static void step(struct sim *s, uint32_t core, uint64_t now)
{
	struct actor *a = &s->a[core];
	const struct f2fs_unlink_costs *c = s->c;
	int optimistic = s->clue & F2FS_CLUE_OPTIMISTIC, lazy = s->clue & F2FS_CLUE_LAZY;
	uint64_t bitmap = s->bitmap_ns;

	for (;;) {
		switch (a->pc) {
		case P_START:
			if (a->done == s->n) {
				a->pc = P_DONE;
				if (now > s->end)
					s->end = now;
				if (s->t && core % s->t->every == 0)
					s->t->done_ns[core / s->t->every] = now;
				return;
			}
			a->low = rnd(&a->rng) % 100 < c->low_pct;
			schedule(s, core, now + c->vfs_ns, P_DIR_ACQ);
			return;
		case P_DIR_ACQ: /* the parent's i_rwsem: private in MWUL, never contended */
			a->extra = 0;
			if (s->w == FXMARK_MWUM && !acquire(s, LOCK_DIR, core, now, P_DIR_HELD))
				return;
			a->pc = P_DIR_HELD;
			break;
		case P_DIR_HELD:
			schedule(s, core, now + c->unlink_ns + a->extra, P_SCAN_ACQ);
			return;
		case P_SCAN_ACQ:
			if (!optimistic) {
				if (!acquire(s, LOCK_BUILD, core, now, P_BUILD_HELD))
					return;
				a->pc = P_BUILD_HELD;
			} else {
				if (!acquire(s, LOCK_LIST, core, now, P_LIST_HELD))
					return;
				a->pc = P_LIST_HELD;
			}
			break;
		case P_BUILD_HELD: { /* upstream: everything under build_lock */
			uint64_t cs = c->check_ns + a->extra;
			if (a->low) {
				cs += bitmap;
				s->r->bitmap_scans++;
				if (lazy) {
					s->r->nat_deferred++;
				} else {
					cs += c->nat_scan_ns;
					s->r->nat_scans++;
				}
			}
			schedule(s, core, now + cs, P_BUILD_REL);
			return;
		}
		case P_BUILD_REL:
			release(s, LOCK_BUILD, now);
			a->pc = P_DIR_REL;
			break;
		case P_LIST_HELD:
			schedule(s, core, now + c->check_ns + a->extra, P_LIST_REL);
			return;
		case P_LIST_REL:
			release(s, LOCK_LIST, now);
			if (!a->low) {
				a->pc = P_DIR_REL;
			} else if (s->l[LOCK_BITMAP].holder == NOBODY) { /* mutex_trylock() */
				grant(s, LOCK_BITMAP, core, now);
				a->pc = P_BITMAP_HELD;
			} else {
				s->r->scans_skipped++;
				a->pc = P_NAT_ACQ;
			}
			break;
		case P_BITMAP_HELD:
			s->r->bitmap_scans++;
			schedule(s, core, now + bitmap + a->extra, P_BITMAP_REL);
			return;
		case P_BITMAP_REL:
			release(s, LOCK_BITMAP, now);
			a->pc = P_NAT_ACQ;
			break;
		case P_NAT_ACQ:
			if (lazy) {
				s->r->nat_deferred++;
				a->pc = P_DIR_REL;
				break;
			}
			if (!acquire(s, LOCK_BUILD, core, now, P_NAT_HELD))
				return;
			a->pc = P_NAT_HELD;
			break;
		case P_NAT_HELD:
			s->r->nat_scans++;
			schedule(s, core, now + c->nat_scan_ns + a->extra, P_NAT_REL);
			return;
		case P_NAT_REL:
			release(s, LOCK_BUILD, now);
			a->pc = P_DIR_REL;
			break;
		case P_DIR_REL:
			if (s->w == FXMARK_MWUM)
				release(s, LOCK_DIR, now);
			a->done++;
			s->r->unlinks++;
			a->pc = P_START;
			break;
		case P_DONE:
			return;
		}
	}
}

void f2fs_fxmark_trace_free(struct f2fs_fxmark_trace *t)
{
	free(t->spans);
	free(t->len);
	free(t->done_ns);
	t->spans = NULL;
	t->len = NULL;
	t->done_ns = NULL;
	t->traced = 0;
}

int f2fs_fxmark_unlink(enum fxmark_workload w, uint32_t clue, uint32_t cores, uint32_t unlinks_per_core,
		       const struct f2fs_unlink_costs *c, uint64_t seed, struct f2fs_fxmark_result *out)
{
	return f2fs_fxmark_unlink_traced(w, clue, cores, unlinks_per_core, c, seed, out, NULL);
}

int f2fs_fxmark_unlink_traced(enum fxmark_workload w, uint32_t clue, uint32_t cores, uint32_t unlinks_per_core,
			      const struct f2fs_unlink_costs *c, uint64_t seed, struct f2fs_fxmark_result *out,
			      struct f2fs_fxmark_trace *t)
{
	struct sim s = { .c = c, .w = w, .clue = clue & 7, .cores = cores, .n = unlinks_per_core, .r = out, .t = t };
	uint32_t i, k;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (t) {
		t->traced = 0;
		t->spans = NULL;
		t->len = NULL;
		t->done_ns = NULL;
		t->dropped = 0;
	}
	if (!cores || cores > MAX_CORES || !unlinks_per_core || !c->cores_per_socket || c->heuristic_pct > 100 ||
	    c->low_pct > 100)
		return -FSLAB_EINVAL;
	if (t) {
		if (!t->every || !t->max_spans)
			return -FSLAB_EINVAL;
		t->traced = (cores + t->every - 1) / t->every;
		if ((uint64_t)t->traced * t->max_spans > F2FS_TRACE_MAX_SPANS) {
			t->traced = 0;
			return -FSLAB_EINVAL;
		}
		t->spans = malloc(sizeof(*t->spans) * t->traced * t->max_spans);
		t->len = calloc(t->traced, sizeof(*t->len));
		t->done_ns = calloc(t->traced, sizeof(*t->done_ns));
		if (!t->spans || !t->len || !t->done_ns) {
			f2fs_fxmark_trace_free(t);
			return -FSLAB_ENOSPC;
		}
	}
	s.a = calloc(cores, sizeof(*s.a));
	s.heap = malloc(sizeof(*s.heap) * (cores + 1));
	s.due = malloc(sizeof(*s.due) * cores);
	for (k = 0; k < LOCK_COUNT; k++) {
		s.l[k].holder = s.l[k].last_socket = NOBODY;
		s.l[k].q = malloc(sizeof(uint32_t) * cores);
		if (!s.l[k].q)
			ret = -FSLAB_ENOSPC;
	}
	if (!s.a || !s.heap || !s.due || ret) {
		ret = -FSLAB_ENOSPC;
		if (t)
			f2fs_fxmark_trace_free(t);
		goto out;
	}
	/* once per run, not per step() (a 64-bit division each time) */
	s.bitmap_ns = (s.clue & F2FS_CLUE_HEURISTIC) ? (uint64_t)c->bitmap_scan_ns * c->heuristic_pct / 100 : c->bitmap_scan_ns;
	for (i = 0; i < cores; i++) {
		s.a[i].socket = i / c->cores_per_socket;
		s.a[i].rng = seed * 0x100000001B3ull + i;
		s.a[i].pc = P_START;
		schedule(&s, i, 0, P_START);
	}
	while (s.hlen) {
		uint32_t core = pop(&s);
		step(&s, core, s.due[core].t);
	}
	out->seconds = s.end / 1e9;
	out->unlinks_per_sec = s.end ? out->unlinks / out->seconds : 0;
out:
	for (k = 0; k < LOCK_COUNT; k++)
		free(s.l[k].q);
	free(s.a);
	free(s.heap);
	free(s.due);
	return ret;
}
