/* SPDX-License-Identifier: MIT */
/*
 * The inspectors on images the real mkfs tools and kernel made (tests/images/, see
 * make-images.ts), then on those images damaged on purpose: each damage must give a clear
 * error or a report that names the problem, never a crash (this runs under ASan/UBSan).
 * Each format's checks are in its topic (src/<fs>/test_inspect.c), included below by the list
 * the Makefile writes from the folders; the agreement with the tools' own reports (dump.exfat,
 * fsck.exfat, dumpe2fs) is checked in web/src/topics/<fs>/inspect.test.ts.
 * Usage: test_inspect <dir of .img files> [regression inputs...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "fslab/inspect.h"
#include "fslab/le.h"

static uint8_t *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		b = malloc(n ? (size_t)n : 1);
		if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
			free(b);
			b = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return b;
}

/* inspect; returns the status, leaves the report or error in *j / err */
static int inspect(const uint8_t *img, size_t len, struct fslab_json *j, char *err)
{
	fslab_json_free(j);
	return fslab_inspect(img, len, j, err);
}

static int has(const struct fslab_json *j, const char *s) { return j->buf && strstr(j->buf, s); }

static void put32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }

/* every truncation, and single bytes of the structures set to 0xFF: an error or a report */
static void damage(const uint8_t *img, size_t len, const uint64_t spans[][2], int nspans)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];
	uint8_t *bad = malloc(len);
	size_t cut;
	int i;

	fslab_json_init(&j);
	for (cut = 0; cut < len; cut += (cut < 64 * 1024 ? 509 : 4093)) {
		int ret = inspect(img, cut, &j, err);
		CHECK(ret == 0 || (ret == -22 && err[0]));
	}
	memcpy(bad, img, len);
	for (i = 0; i < nspans; i++) {
		for (cut = spans[i][0]; cut < spans[i][1] && cut < len; cut++) {
			bad[cut] = 0xFF;
			int ret = inspect(bad, len, &j, err);
			CHECK(ret == 0 || (ret == -22 && err[0]));
			bad[cut] = img[cut];
		}
	}
	free(bad);
	fslab_json_free(&j);
}

/* each format's checks, in its topic's folder (src/<fs>/test_inspect.c), and which images they take */
#include "inspect_tests.inc"

static void test_image(const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len;
	uint8_t *img = load(path, &len);

	CHECK(img != NULL);
	if (!img)
		return;
	for (size_t i = 0; i < sizeof(image_tests) / sizeof(image_tests[0]); i++)
		if (!strncmp(name, image_tests[i].prefix, strlen(image_tests[i].prefix))) {
			image_tests[i].test(img, len);
			free(img);
			return;
		}
	fprintf(stderr, "%s: no src/<fs>/test_inspect.c takes this image (named <fs>-...)\n", path);
	CHECK(0);
	free(img);
}

/* the report's writer: escapes between plain runs, at a string's ends, and numbers' ends */
static void test_json(void)
{
	struct fslab_json j;

	fslab_json_init(&j);
	fslab_json_open(&j, NULL, '{');
	fslab_json_str(&j, "k\"1", "a\"b\\c\x01" "d\x1f");
	fslab_json_str(&j, "e", "");
	fslab_json_str(&j, "x", "\"");
	fslab_json_u64(&j, "z", 0);
	fslab_json_u64(&j, "t", 10);
	fslab_json_u64(&j, "m", 18446744073709551615ull);
	fslab_json_close(&j, '}');
	CHECK(j.buf && !strcmp(j.buf, "{\"k\\\"1\":\"a\\\"b\\\\c\\u0001d\\u001f\",\"e\":\"\",\"x\":\"\\\"\",\"z\":0,\"t\":10,\"m\":18446744073709551615}"));
	fslab_json_free(&j);
}

int main(int argc, char **argv)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];
	int i;

	test_json();
	fslab_json_init(&j);
	CHECK_EQ(inspect((const uint8_t *)"", 0, &j, err), -22);
	CHECK(strstr(err, "no filesystem fslab can inspect") != NULL);
	for (i = 1; i < argc; i++) {
		if (strstr(argv[i], ".img")) {
			test_image(argv[i]);
		} else { /* a fuzzer's crash, kept as a regression */
			size_t len;
			uint8_t *b = load(argv[i], &len);
			CHECK(b != NULL);
			if (b)
				inspect(b, len, &j, err);
			free(b);
		}
	}
	CHECK(argc > 1); /* no images: the Makefile lost them */
	fslab_json_free(&j);
	return CHECK_DONE("test_inspect");
}
