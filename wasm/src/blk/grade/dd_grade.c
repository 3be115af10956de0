/* SPDX-License-Identifier: MIT */
/*
 * The grader of the mq-deadline code step (labs/mq-deadline): a program the guest's tcc
 * builds from this file, mq_deadline.c, dd_replay.c and the learner's dd_dispatch.c, so that
 * dd_replay() replays the learner's own kernel's trace through their __dd_dispatch_request().
 * Not part of the wasm core (the Makefile builds only the files directly in src/blk). The page or `fslab labs
 * grade` writes the trace as dd_replay()'s words (ddReplayWords() in
 * web/src/topics/blk/dd-kernel.ts), as text on stdin:
 *
 *   fslab-dd-replay 1 <hz> <5 tunables> <15 start words> <nrq> <4 per request> <n> <4 per event>
 *
 * and reads on stdout "decisions <k>" and one line per decision: request (4294967295: none),
 * because, pick, batching, starved. Exit 0; 1 when the replay refused the trace; 2 bad input.
 * A learner's function that crashes, or never returns (the grader's timeout sends SIGTERM),
 * leaves "reached <k>" on stdout first: the decisions made before the one it was in.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fslab/blk.h"

/* dd_replay() fills out[] one decision at a time; `because` is never NOT_YET in a made one */
#define NOT_YET 0xFFFFFFFFu
static uint32_t *decided;
static uint32_t events;

/* async-signal-safe: count the decisions made, write the line, then die of the same signal */
static void reached(int sig)
{
	char line[32], digits[12];
	uint32_t k = 0, v;
	int n = 0, d = 0;

	while (decided && k < events && decided[5 * k + 1] != NOT_YET)
		k++;
	memcpy(line, "reached ", 8);
	n = 8;
	v = k;
	do
		digits[d++] = (char)('0' + v % 10);
	while ((v /= 10) && d < 11);
	while (d)
		line[n++] = digits[--d];
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, (size_t)n) < 0) {
		/* nothing to do: the exit status still says what happened */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static int words(uint32_t *w, uint32_t n)
{
	uint32_t i;
	unsigned long v;

	for (i = 0; i < n; i++) {
		if (scanf("%lu", &v) != 1)
			return -1;
		w[i] = (uint32_t)v;
	}
	return 0;
}

int main(void)
{
	char magic[32];
	uint32_t version, hz, tun[5], start[15], nrq, n, i, k;
	uint32_t *rq, *ev, *out;
	struct dd_tunables t;
	int got;

	if (scanf("%31s %u %u", magic, &version, &hz) != 3 || strcmp(magic, "fslab-dd-replay") || version != 1) {
		fprintf(stderr, "dd_grade: not a replay input (fslab-dd-replay 1)\n");
		return 2;
	}
	if (words(tun, 5) || words(start, 15) || scanf("%u", &nrq) != 1 || nrq > (1u << 20)) {
		fprintf(stderr, "dd_grade: bad tunables, start or request count\n");
		return 2;
	}
	rq = calloc(4 * (size_t)nrq + 1, sizeof(*rq));
	if (!rq || words(rq, 4 * nrq) || scanf("%u", &n) != 1 || n > (1u << 22)) {
		fprintf(stderr, "dd_grade: bad requests or event count\n");
		return 2;
	}
	ev = calloc(4 * (size_t)n + 1, sizeof(*ev));
	out = calloc(5 * (size_t)n + 1, sizeof(*out));
	if (!ev || !out || words(ev, 4 * n)) {
		fprintf(stderr, "dd_grade: bad events\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		out[5 * i + 1] = NOT_YET;
	decided = out;
	events = n;
	signal(SIGSEGV, reached);
	signal(SIGBUS, reached);
	signal(SIGFPE, reached);
	signal(SIGILL, reached);
	signal(SIGABRT, reached);
	signal(SIGTERM, reached);
	t.read_expire_ms = tun[0];
	t.write_expire_ms = tun[1];
	t.prio_aging_expire_ms = tun[2];
	t.writes_starved = tun[3];
	t.fifo_batch = tun[4];
	got = dd_replay(&t, hz, start, rq, nrq, ev, n, out);
	if (got < 0) {
		fprintf(stderr, "dd_grade: the trace's events cannot be replayed\n");
		return 1;
	}
	k = (uint32_t)got;
	printf("decisions %u\n", k);
	for (i = 0; i < k; i++)
		printf("%u %u %u %u %u\n", out[5 * i], out[5 * i + 1], out[5 * i + 2], out[5 * i + 3], out[5 * i + 4]);
	return 0;
}
