/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "fslab/events.h"

void fslab_events_init(struct fslab_events *s)
{
	s->ev = NULL;
	s->len = s->cap = 0;
	s->oom = 0;
}

void fslab_events_free(struct fslab_events *s)
{
	free(s->ev);
	fslab_events_init(s);
}

void fslab_events_clear(struct fslab_events *s)
{
	s->len = 0;
	s->oom = 0;
}

void fslab_emit(struct fslab_events *s, uint32_t type, uint32_t a, uint32_t b, uint32_t c)
{
	if (!s || s->off)
		return;
	if (s->len == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct fslab_event *ev = realloc(s->ev, cap * sizeof(*ev));

		if (!ev) {
			s->oom = 1;
			return;
		}
		s->ev = ev;
		s->cap = cap;
	}
	s->ev[s->len++] = (struct fslab_event){ type, a, b, c };
}

void fslab_emit_run_n(struct fslab_events *s, uint32_t type, uint32_t a, uint32_t n)
{
	if (!n || (s && s->off))
		return;
	if (s && s->len) {
		struct fslab_event *last = &s->ev[s->len - 1];

		if (last->type == type && last->a + last->b == a) {
			last->b += n;
			return;
		}
	}
	fslab_emit(s, type, a, n, 0);
}

void fslab_emit_run(struct fslab_events *s, uint32_t type, uint32_t a)
{
	if (s && s->off)
		return;
	if (s && s->len) {
		struct fslab_event *last = &s->ev[s->len - 1];

		if (last->type == type && last->a + last->b == a) {
			last->b++;
			return;
		}
	}
	fslab_emit(s, type, a, 1, 0);
}
