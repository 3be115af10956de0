/* SPDX-License-Identifier: MIT */
/* The helpers every inspector writes with (fslab/inspect_report.h): an error message, a run. */
#include <stdarg.h>
#include <stdio.h>
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
