/* SPDX-License-Identifier: MIT */
/*
 * Inspecting an image of any filesystem fslab knows (src/inspect/detect.c): the top of the
 * inspect module, above the inspectors and their report helpers (fslab/inspect_report.h, for
 * FSLAB_ERR_LEN and the JSON report).
 *
 * Inspectors parse the on-disk structures of a real image (made by the real mkfs tools,
 * written by the real kernel) into a JSON report. They trust nothing in the image: every
 * offset is checked against its length, every chain is bounded, and a structure that does
 * not hold up ends the parse with a message naming it. Each sits beside its filesystem's
 * model (src/<fs>/inspect.c) and ends with its `fslab_inspector_<fs>`; the Makefile gathers
 * them from the folders into `fslab_inspectors` (build/gen/inspectors.c).
 */
#ifndef FSLAB_INSPECT_H
#define FSLAB_INSPECT_H

#include <stddef.h>
#include <stdint.h>
#include "fslab/inspect_report.h"

/* Detects the filesystem and runs its inspector: 0 and a report in *out, or -FSLAB_EINVAL
 * and a message in err (FSLAB_ERR_LEN bytes) naming what is wrong. */
int fslab_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);


/* every inspector, NULL-terminated, in the order of their folders' names */
extern const struct fslab_inspector *const fslab_inspectors[];

#endif
