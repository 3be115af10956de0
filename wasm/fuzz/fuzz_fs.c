/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for one inspector (FUZZ_FS: the folder src/<fs>/ of its inspect.c), called
 * directly so that every mutation stays with that format's parser instead of falling out of
 * detection. Any bytes in, a report or an error out: never a crash, a leak or undefined
 * behaviour. `make fuzz` seeds each from the real-tool images in tests/images/ and from its
 * grown corpus (src/<fs>/fuzz/<fs>.tar.gz), with the format's dictionary (src/<fs>/fuzz/<fs>.dict);
 * an input that crashes lands in fuzz/regressions/, which `make test` replays through detection.
 */
#include <stddef.h>
#include <stdint.h>
#include "fslab/inspect.h"

#define CAT(a, b) a##b
#define INSPECTOR(fs) CAT(fslab_inspector_, fs)
extern const struct fslab_inspector INSPECTOR(FUZZ_FS);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];

	fslab_json_init(&j);
	INSPECTOR(FUZZ_FS).inspect(data, size, &j, err);
	fslab_json_free(&j);
	return 0;
}
