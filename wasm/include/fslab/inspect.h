/* SPDX-License-Identifier: MIT */
/*
 * Inspecting an image of any filesystem fslab knows (src/inspect/detect.c): the top of the
 * inspect module, above the inspectors (fslab/inspectors.h) and their report helpers
 * (fslab/inspect_report.h, for FSLAB_ERR_LEN and the JSON report).
 */
#ifndef FSLAB_INSPECT_H
#define FSLAB_INSPECT_H

#include <stddef.h>
#include <stdint.h>
#include "fslab/inspect_report.h"

/* Detects the filesystem and runs its inspector: 0 and a report in *out, or -FSLAB_EINVAL
 * and a message in err (FSLAB_ERR_LEN bytes) naming what is wrong. */
int fslab_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

#endif
