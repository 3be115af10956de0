/* SPDX-License-Identifier: MIT */
/* Which filesystem is this? Each inspector's probe, the magic numbers the kernel's own probes look at. */
#include <stdio.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/inspect.h"

int fslab_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err)
{
	size_t n = 0;

	for (const struct fslab_inspector *const *i = fslab_inspectors; *i; i++)
		if ((*i)->probe(img, len))
			return (*i)->inspect(img, len, out, err);
	n += snprintf(err, FSLAB_ERR_LEN, "no filesystem fslab can inspect:");
	for (const struct fslab_inspector *const *i = fslab_inspectors; *i && n < FSLAB_ERR_LEN; i++)
		n += snprintf(err + n, FSLAB_ERR_LEN - n, "%s not %s (%s)", i == fslab_inspectors ? "" : ",", (*i)->name, (*i)->absent);
	return -FSLAB_EINVAL;
}
