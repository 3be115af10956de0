/* SPDX-License-Identifier: MIT */
/*
 * mq-deadline, after block/mq-deadline.c in Linux 7.2: per priority level, a FIFO list and
 * a sector-sorted tree for each direction; batches of fifo_batch requests in one direction
 * in sector order; reads preferred until writes have been passed over writes_starved times;
 * a new batch starts at the oldest request when its deadline has passed; lower priority
 * levels wait unless their requests have aged past prio_aging_expire.
 * Not modelled: merges (fio's requests here never touch), at-head inserts (requeues),
 * zoned devices, async_depth. Times are jiffies, compared with the kernel's time_after().
 */
#include "fslab/blk.h"
#include "fslab/dd_dispatch.h"


/* IOPRIO_CLASS_NONE, RT, BE, IDLE -> dd_prio (ioprio_class_to_prio[]) */
static const enum dd_prio ioprio_class_to_prio[4] = { DD_BE_PRIO, DD_RT_PRIO, DD_BE_PRIO, DD_IDLE_PRIO };

uint32_t dd_prio_of_class(uint32_t ioprio_class);
uint32_t dd_prio_of_class(uint32_t ioprio_class) { return ioprio_class_to_prio[ioprio_class & 3]; }

void dd_init(struct deadline_data *dd, const struct dd_tunables *t, uint32_t hz)
{
	int p, d;

	for (p = 0; p < DD_PRIO_COUNT; p++) {
		struct dd_per_prio *pp = &dd->per_prio[p];
		for (d = 0; d < DD_DIR_COUNT; d++) {
			pp->fifo_head[d] = pp->fifo_tail[d] = pp->sort_root[d] = BLK_NIL;
			pp->latest_pos[d] = 0;
		}
		pp->inserted = pp->dispatched = pp->completed = 0;
	}
	dd->fifo_expire[DD_READ] = (uint64_t)t->read_expire_ms * hz / 1000;
	dd->fifo_expire[DD_WRITE] = (uint64_t)t->write_expire_ms * hz / 1000;
	dd->prio_aging_expire = (uint64_t)t->prio_aging_expire_ms * hz / 1000;
	dd->writes_starved = t->writes_starved;
	dd->fifo_batch = t->fifo_batch;
	dd->last_dir = DD_WRITE;
	dd->batching = dd->starved = 0;
}

/* --- the sort list: a treap on (sector, request index), standing in for the rb-tree.
 * Equal sectors order by index, i.e. by insertion, as elv_rb_add() puts equal keys right. */
static uint32_t treap_pri(uint32_t x)
{
	x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
	return x;
}

static int before(const struct blk_rq *r, uint32_t a, uint32_t b)
{
	return r[a].sector < r[b].sector || (r[a].sector == r[b].sector && a < b);
}

static uint32_t treap_insert(struct blk_rq *r, uint32_t root, uint32_t x)
{
	uint32_t c;

	if (root == BLK_NIL) {
		r[x].left = r[x].right = BLK_NIL;
		return x;
	}
	if (before(r, x, root)) {
		c = r[root].left = treap_insert(r, r[root].left, x);
		if (treap_pri(c) > treap_pri(root)) { /* rotate right */
			r[root].left = r[c].right;
			r[c].right = root;
			return c;
		}
	} else {
		c = r[root].right = treap_insert(r, r[root].right, x);
		if (treap_pri(c) > treap_pri(root)) { /* rotate left */
			r[root].right = r[c].left;
			r[c].left = root;
			return c;
		}
	}
	return root;
}

static uint32_t treap_merge(struct blk_rq *r, uint32_t a, uint32_t b)
{
	if (a == BLK_NIL)
		return b;
	if (b == BLK_NIL)
		return a;
	if (treap_pri(a) > treap_pri(b)) {
		r[a].right = treap_merge(r, r[a].right, b);
		return a;
	}
	r[b].left = treap_merge(r, a, r[b].left);
	return b;
}

static uint32_t treap_delete(struct blk_rq *r, uint32_t root, uint32_t x)
{
	if (root == BLK_NIL)
		return BLK_NIL;
	if (root == x)
		return treap_merge(r, r[x].left, r[x].right);
	if (before(r, x, root))
		r[root].left = treap_delete(r, r[root].left, x);
	else
		r[root].right = treap_delete(r, r[root].right, x);
	return root;
}

/* deadline_from_pos(): the first request for which blk_rq_pos() >= pos */
uint32_t deadline_from_pos(const struct blk_rq *r, const struct dd_per_prio *pp, int dir, uint64_t pos)
{
	uint32_t node = pp->sort_root[dir], res = BLK_NIL;

	while (node != BLK_NIL) {
		if (r[node].sector >= pos) {
			res = node;
			node = r[node].left;
		} else {
			node = r[node].right;
		}
	}
	return res;
}

/* rq_data_dir(): op_is_write(), so a discard is a write too */
int rq_dir(const struct blk_rq *r, uint32_t x)
{
	return r[x].op == FSLAB_BLK_WRITE || r[x].op == FSLAB_BLK_DISCARD ? DD_WRITE : DD_READ;
}

static void fifo_del(struct blk_rq *r, struct dd_per_prio *pp, int dir, uint32_t x)
{
	if (r[x].fifo_prev == BLK_NIL)
		pp->fifo_head[dir] = r[x].fifo_next;
	else
		r[r[x].fifo_prev].fifo_next = r[x].fifo_next;
	if (r[x].fifo_next == BLK_NIL)
		pp->fifo_tail[dir] = r[x].fifo_prev;
	else
		r[r[x].fifo_next].fifo_prev = r[x].fifo_prev;
}

void dd_insert_request(struct blk_sim *s, uint32_t x, uint64_t jiffies)
{
	struct deadline_data *dd = &s->dd;
	struct blk_rq *r = s->rq;
	int dir = rq_dir(r, x);
	struct dd_per_prio *pp = &dd->per_prio[r[x].prio];

	pp->inserted++;
	pp->sort_root[dir] = treap_insert(r, pp->sort_root[dir], x);
	/* set expire time and add to fifo list */
	r[x].fifo_time = jiffies + dd->fifo_expire[dir];
	r[x].fifo_next = BLK_NIL;
	r[x].fifo_prev = pp->fifo_tail[dir];
	if (pp->fifo_tail[dir] == BLK_NIL)
		pp->fifo_head[dir] = x;
	else
		r[pp->fifo_tail[dir]].fifo_next = x;
	pp->fifo_tail[dir] = x;
}

/* deadline_move_request(): off the sort and fifo lists */
void deadline_move_request(struct blk_sim *s, struct dd_per_prio *pp, uint32_t x)
{
	int dir = rq_dir(s->rq, x);

	pp->sort_root[dir] = treap_delete(s->rq, pp->sort_root[dir], x);
	fifo_del(s->rq, pp, dir, x);
}

/* dd_start_request(): where its direction's next sorted pick starts, and the count */
void dd_start_request(struct blk_sim *s, uint32_t x)
{
	struct dd_per_prio *pp = &s->dd.per_prio[s->rq[x].prio];

	pp->latest_pos[rq_dir(s->rq, x)] = s->rq[x].sector;
	pp->dispatched++;
}

static uint32_t dd_queued(const struct deadline_data *dd, int prio)
{
	return dd->per_prio[prio].inserted - dd->per_prio[prio].completed;
}

/* started_after(): did rq start (fifo_time - expire) after latest_start? */
int started_after(const struct blk_sim *s, uint32_t x, uint64_t latest_start)
{
	uint64_t start = s->rq[x].fifo_time - s->dd.fifo_expire[rq_dir(s->rq, x)];

	return time_after(start, latest_start);
}

/* dd_dispatch_prio_aged_requests(): lower levels whose requests waited past prio_aging_expire */
static uint32_t dd_dispatch_prio_aged_requests(struct blk_sim *s, uint64_t now)
{
	struct deadline_data *dd = &s->dd;
	int prio_cnt = !!dd_queued(dd, DD_RT_PRIO) + !!dd_queued(dd, DD_BE_PRIO) + !!dd_queued(dd, DD_IDLE_PRIO);
	int prio;

	if (prio_cnt < 2)
		return BLK_NIL;
	for (prio = DD_BE_PRIO; prio < DD_PRIO_COUNT; prio++) {
		uint32_t x = __dd_dispatch_request(s, &dd->per_prio[prio], now - dd->prio_aging_expire, now);
		if (x != BLK_NIL)
			return x;
	}
	return BLK_NIL;
}

uint32_t dd_dispatch_request(struct blk_sim *s, uint64_t now)
{
	struct deadline_data *dd = &s->dd;
	uint32_t x = dd_dispatch_prio_aged_requests(s, now);
	int prio;

	if (x != BLK_NIL)
		return x;
	/* in priority order; a lower level waits while a higher one has requests queued */
	for (prio = 0; prio < DD_PRIO_COUNT; prio++) {
		x = __dd_dispatch_request(s, &dd->per_prio[prio], now, now);
		if (x != BLK_NIL || dd_queued(dd, prio))
			break;
	}
	return x;
}

/*
 * Put back a request a dispatch took off the lists: its own FIFO links still name its
 * neighbours (fifo_del() leaves them), and the sort tree takes it again (its shape may
 * differ, its order does not). The counters are the caller's to restore.
 */
void dd_undo_dispatch(struct blk_sim *s, uint32_t x)
{
	struct blk_rq *r = s->rq;
	struct dd_per_prio *pp = &s->dd.per_prio[r[x].prio];
	int dir = rq_dir(r, x);

	if (r[x].fifo_prev == BLK_NIL)
		pp->fifo_head[dir] = x;
	else
		r[r[x].fifo_prev].fifo_next = x;
	if (r[x].fifo_next == BLK_NIL)
		pp->fifo_tail[dir] = x;
	else
		r[r[x].fifo_next].fifo_prev = x;
	pp->sort_root[dir] = treap_insert(r, pp->sort_root[dir], x);
}

void dd_apply_dispatch(struct blk_sim *s, uint32_t x, uint32_t batching, uint32_t starved)
{
	struct deadline_data *dd = &s->dd;
	struct dd_per_prio *pp = &dd->per_prio[s->rq[x].prio];
	int dir = rq_dir(s->rq, x);

	deadline_move_request(s, pp, x);
	dd_start_request(s, x);
	dd->last_dir = dir;
	dd->batching = batching;
	dd->starved = starved;
}

void dd_finish_request(struct blk_sim *s, uint32_t x) { s->dd.per_prio[s->rq[x].prio].completed++; }

void dd_merged_requests(struct blk_sim *s, uint32_t req, uint32_t next)
{
	struct blk_rq *r = s->rq;
	struct dd_per_prio *pp = &s->dd.per_prio[r[next].prio];
	int dir = rq_dir(r, next);
	uint32_t x;

	/* if next expires before req, req takes next's place in the FIFO (the kernel compares
	 * fifo_time; the replay's fifo_time for req is already next's, from req's own
	 * dispatch, so the FIFO order says which came first) */
	if (req != BLK_NIL && r[req].prio == r[next].prio && rq_dir(r, req) == dir) {
		for (x = r[next].fifo_next; x != BLK_NIL && x != req; x = r[x].fifo_next)
			;
		if (x == req) {
			fifo_del(r, pp, dir, req);
			r[req].fifo_prev = next;
			r[req].fifo_next = r[next].fifo_next;
			if (r[next].fifo_next == BLK_NIL)
				pp->fifo_tail[dir] = req;
			else
				r[r[next].fifo_next].fifo_prev = req;
			r[next].fifo_next = req;
			if (r[next].fifo_time < r[req].fifo_time)
				r[req].fifo_time = r[next].fifo_time;
		}
	}
	deadline_move_request(s, pp, next);
	/* blk_mq_free_request(next) -> dd_finish_request() */
	pp->completed++;
}

void dd_head_dispatch(struct blk_sim *s, uint32_t x, int listed)
{
	if (listed)
		deadline_move_request(s, &s->dd.per_prio[s->rq[x].prio], x);
	dd_start_request(s, x);
}

int dd_has_work(const struct blk_sim *s)
{
	int p;

	for (p = 0; p < DD_PRIO_COUNT; p++)
		if (s->dd.per_prio[p].fifo_head[DD_READ] != BLK_NIL || s->dd.per_prio[p].fifo_head[DD_WRITE] != BLK_NIL)
			return 1;
	return 0;
}
