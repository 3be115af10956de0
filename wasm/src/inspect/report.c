/* SPDX-License-Identifier: MIT */
/* The helpers every inspector writes with (fslab/inspect_report.h): an error message, a run, the chains' owners. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/inspect_report.h"

int inspect_error(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, FSLAB_ERR_LEN, fmt, ap);
	va_end(ap);
	return -FSLAB_EINVAL;
}

void inspect_json_run(struct fslab_json *j, uint64_t first, uint64_t count)
{
	fslab_json_open(j, NULL, '[');
	fslab_json_u64(j, NULL, first);
	fslab_json_u64(j, NULL, count);
	fslab_json_close(j, ']');
}

uint32_t inspect_name_add(struct inspect_names *s, const char *name)
{
	if (s->n == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 64;
		char **v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return 0;
		s->v = v;
		s->cap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return 0;
	s->v[s->n++] = copy;
	return s->n;
}

const char *inspect_name(const struct inspect_names *s, uint32_t id, const char *otherwise)
{
	return id && id <= s->n ? s->v[id - 1] : otherwise;
}

void inspect_names_free(struct inspect_names *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}
