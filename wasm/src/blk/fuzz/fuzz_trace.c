/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the cores' side of the trace parsers: what a learner's block trace
 * becomes after web/src/topics/blk/blk-trace.ts has read it, passed to the wasm exports the
 * page calls with it. The text parsing itself is TypeScript and has its property tests
 * (web/src/shared/parsers.fuzz.test.ts); here every word a trace can put into the replay
 * comes from the fuzzer, so a trace that parses but says something impossible (a dispatch of
 * a request never inserted, a completion twice, jiffies going back, a request index past the
 * end, a sector of 2^64 - 1, times out of order, NaN) must end in a refusal or a result,
 * never a crash, a leak, undefined behaviour or a replay that does not end.
 *
 * The input, little-endian (trace-seeds.ts beside it writes real traces in it):
 *   u8 mode: 0 dd_replay (fx_dd_replay), 1..4 an open-loop trace job (fx_blk_new_trace) under
 *            none, mq-deadline, kyber, bfq (mode - 1)
 *   mode 0:  u32 tun[5], u32 hz, u8 has_start, [u32 start[15]], u32 nrq, u32 rq[4 * nrq],
 *            then the events, 4 words each, to the end
 *   mode 1+: u32 tun[7], u32 dev[7], u32 hz, u32 seed, then per request 40 bytes:
 *            f64 arrival_ns, f64 sector, f64 service_ns, u32 sectors, op, ioprio_class, plugged
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/blk.h"

/* the exports the page calls (wasm/src/blk/exports.c) */
int fx_dd_replay(const uint32_t *tun, uint32_t hz, const uint32_t *start, const uint32_t *rq, uint32_t nrq,
		 const uint32_t *ev, uint32_t n, uint32_t *out);
struct blk_sim *fx_blk_new_trace(uint32_t sched, const uint32_t *tun, const uint32_t *dev, const double *arrival_ns,
				 const double *sector, const double *service_ns, const uint32_t *sectors, const uint32_t *op,
				 const uint32_t *ioprio_class, const uint32_t *plugged, uint32_t n, uint32_t hz, uint32_t seed);
void fx_blk_free(struct blk_sim *s);
double *fx_blk_rows(const struct blk_sim *s);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RQ 2048 /* the page's traces hold a few hundred requests per run */

struct reader {
	const uint8_t *p;
	size_t left;
};

static uint32_t u32(struct reader *r)
{
	uint32_t v = 0;

	if (r->left >= 4) {
		memcpy(&v, r->p, 4);
		r->p += 4;
		r->left -= 4;
	} else {
		r->left = 0;
	}
	return v;
}

static double f64(struct reader *r)
{
	double v = 0;

	if (r->left >= 8) {
		memcpy(&v, r->p, 8);
		r->p += 8;
		r->left -= 8;
	} else {
		r->left = 0;
	}
	return v;
}

/* the rest of the input as u32 words (aligned copy) */
static uint32_t *words(struct reader *r, uint32_t n)
{
	uint32_t *w = calloc(n ? n : 1, 4);

	if (w)
		memcpy(w, r->p, (size_t)n * 4);
	r->p += (size_t)n * 4;
	r->left -= (size_t)n * 4;
	return w;
}

static void replay(struct reader *r)
{
	uint32_t tun[5], start[15], hz, nrq, n, i;
	uint32_t *rq, *ev, *out;
	int has_start, ret;

	for (i = 0; i < 5; i++)
		tun[i] = u32(r);
	hz = u32(r);
	has_start = r->left && (*r->p & 1);
	if (r->left) {
		r->p++;
		r->left--;
	}
	for (i = 0; i < 15; i++)
		start[i] = has_start ? u32(r) : 0;
	nrq = u32(r);
	if (nrq > r->left / 16)
		nrq = (uint32_t)(r->left / 16);
	if (nrq > MAX_RQ)
		nrq = MAX_RQ;
	rq = words(r, 4 * nrq);
	n = (uint32_t)(r->left / 16);
	ev = words(r, 4 * n);
	out = calloc((size_t)n * 5 + 1, 4);
	if (rq && ev && out) {
		ret = fx_dd_replay(tun, hz, has_start ? start : NULL, rq, nrq, ev, n, out);
		if (ret > (int)n) /* at most one decision per event */
			__builtin_trap();
	}
	free(rq);
	free(ev);
	free(out);
}

static void simulate(struct reader *r, uint32_t sched)
{
	uint32_t tun[7], dev[7], hz, seed, n, i;
	double *arrival, *sector, *service;
	uint32_t *sectors, *op, *prio, *plugged;
	struct blk_sim *s;
	int steps;

	for (i = 0; i < 7; i++)
		tun[i] = u32(r);
	for (i = 0; i < 7; i++)
		dev[i] = u32(r);
	hz = u32(r);
	seed = u32(r);
	n = (uint32_t)(r->left / 40);
	if (n > MAX_RQ)
		n = MAX_RQ;
	arrival = calloc(n + 1, 8);
	sector = calloc(n + 1, 8);
	service = calloc(n + 1, 8);
	sectors = calloc(n + 1, 4);
	op = calloc(n + 1, 4);
	prio = calloc(n + 1, 4);
	plugged = calloc(n + 1, 4);
	if (arrival && sector && service && sectors && op && prio && plugged) {
		for (i = 0; i < n; i++) {
			arrival[i] = f64(r);
			sector[i] = f64(r);
			service[i] = f64(r);
			sectors[i] = u32(r);
			op[i] = u32(r);
			prio[i] = u32(r);
			plugged[i] = u32(r);
		}
		s = fx_blk_new_trace(sched, tun, dev, arrival, sector, service, sectors, op, prio, plugged, n, hz, seed);
		if (s) {
			/* each step is a first submission, an arrival or a completion, or a timer of
			 * kyber's or bfq's: a bound far above any real run, so a replay that never
			 * ends is a finding, not a timeout */
			for (steps = 0; blk_sim_step(s) == 1; steps++)
				if (steps > 64 * (int)n + 100000)
					__builtin_trap();
			free(fx_blk_rows(s));
			fx_blk_free(s);
		}
	}
	free(arrival);
	free(sector);
	free(service);
	free(sectors);
	free(op);
	free(prio);
	free(plugged);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data + 1, size ? size - 1 : 0 };

	if (!size)
		return 0;
	if (data[0] % 5 == 0)
		replay(&r);
	else
		simulate(&r, data[0] % 5 - 1u);
	return 0;
}
