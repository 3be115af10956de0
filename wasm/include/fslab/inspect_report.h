/* SPDX-License-Identifier: MIT */
/*
 * What every inspector writes its report and its errors with (src/inspect/report.c). The
 * bottom of the inspect module: the inspectors (src/<fs>/inspect.c) use these, detection
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

/* the owners of the chains an inspector walked ("/", a path), to name the other side of a cross-link */
struct inspect_names {
	char **v;
	uint32_t n, cap;
};
/* `name` kept; returns 1 + its index, or 0 when out of memory (that chain goes unnamed) */
uint32_t inspect_name_add(struct inspect_names *s, const char *name);
/* the name kept as `id`, or `otherwise` for 0 */
const char *inspect_name(const struct inspect_names *s, uint32_t id, const char *otherwise);
void inspect_names_free(struct inspect_names *s);

/* An inspector's entry: each src/<fs>/inspect.c ends with its `fslab_inspector_<fs>`. */
struct fslab_inspector {
	const char *name; /* the format, as the "no filesystem" message names it */
	/* nonzero when the image carries the format's magic */
	int (*probe)(const uint8_t *img, size_t len);
	const char *absent; /* what the probe found missing, for that message */
	/* 0 and a report in *out, or -FSLAB_EINVAL and a message in err ("not an exFAT volume: ...") */
	int (*inspect)(const uint8_t *img, size_t len, struct fslab_json *out, char *err);
};

#endif
