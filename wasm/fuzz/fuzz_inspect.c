/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the inspectors: any bytes in, a report or an error out, never a
 * crash, a leak or undefined behaviour. Seeded with the images in tests/images/ (made by
 * the real mkfs tools and kernel); `make fuzz` runs it for a bounded time and any input
 * that crashes lands in fuzz/regressions/, which `make test` replays.
 */
#include <stddef.h>
#include <stdint.h>
#include "fslab/inspect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];

	fslab_json_init(&j);
	fslab_inspect(data, size, &j, err);
	fslab_json_free(&j);
	return 0;
}
