/* SPDX-License-Identifier: MIT */
/* The inspect module's wasm surface (web/src/shared/inspect/inspect.ts): one report at a time, kept
 * until the next call; the caller copies it out. */
#include "fslab/inspect.h"

static struct fslab_json report;
static char report_err[FSLAB_ERR_LEN];

int fx_inspect(const uint8_t *img, uint32_t len)
{
	fslab_json_free(&report);
	return fslab_inspect(img, len, &report, report_err);
}

const char *fx_inspect_report(void) { return report.buf ? report.buf : ""; }
const char *fx_inspect_error(void) { return report_err; }
