/* SPDX-License-Identifier: MIT */
/*
 * What every inspector writes its report and its errors with (src/inspect/report.c). The
 * bottom of the inspect module: the inspectors (fslab/inspectors.h) use these, detection
 * (fslab/inspect.h) uses the inspectors, never the other way.
 */
#ifndef FSLAB_INSPECT_REPORT_H
#define FSLAB_INSPECT_REPORT_H

#include <stdint.h>
#include "fslab/json.h"

#define FSLAB_ERR_LEN 256

/* writes a message into err (FSLAB_ERR_LEN bytes) and returns -FSLAB_EINVAL */
int inspect_error(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a run of clusters, [first, count], as the reports write them */
void inspect_json_run(struct fslab_json *j, uint64_t first, uint64_t count);

#endif
