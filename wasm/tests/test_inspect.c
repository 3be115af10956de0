/* SPDX-License-Identifier: MIT */
/*
 * The inspectors on images the real mkfs tools and kernel made (tests/images/, see
 * make-images.ts), then on those images damaged on purpose: each damage must give a clear
 * error or a report that names the problem, never a crash (this runs under ASan/UBSan).
 * The agreement with the tools' own reports (dump.exfat, fsck.exfat, dumpe2fs) is checked
 * in web/src/shared/inspect/inspect.test.ts.
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

static void test_ext4(const uint8_t *img, size_t len)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];
	uint8_t *bad = malloc(len);
	uint64_t bs = 1024ull << le32(img + 1024 + 0x18);

	fslab_json_init(&j);
	CHECK_EQ(inspect(img, len, &j, err), 0);
	CHECK(has(&j, "\"checksum_ok\":true"));
	CHECK(has(&j, "\"bad_checksums\":0"));
	CHECK(!has(&j, "_ok\":false"));
	/* a flipped bit in a block bitmap: its checksum no longer matches */
	memcpy(bad, img, len);
	bad[bs * le32(img + bs * (le32(img + 1024 + 0x14) + 1))] ^= 0x80; /* group 0's block bitmap */
	CHECK_EQ(inspect(bad, len, &j, err), 0);
	CHECK(has(&j, "\"block_bitmap_checksum_ok\":false"));
	CHECK(has(&j, "\"bad_checksums\":1"));
	memcpy(bad, img, len);
	bad[1080] = 0;
	CHECK_EQ(inspect(bad, len, &j, err), -22);
	CHECK(strstr(err, "no filesystem fslab can inspect") != NULL);
	memcpy(bad, img, len);
	bad[1024 + 0x18] = 9; /* s_log_block_size */
	CHECK_EQ(inspect(bad, len, &j, err), -22);
	CHECK(strstr(err, "s_log_block_size 9") != NULL);
	free(bad);
	fslab_json_free(&j);
	/* the superblock and the first descriptors */
	const uint64_t spans[][2] = { { 1024, 2048 }, { bs * (le32(img + 1024 + 0x14) + 1), bs * (le32(img + 1024 + 0x14) + 1) + 256 } };
	damage(img, len, spans, 2);
}

static void test_vfat(const uint8_t *img, size_t len)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];
	uint8_t *bad = malloc(len);
	uint32_t bps = (uint32_t)img[11] | (uint32_t)img[12] << 8, rsvd = (uint32_t)img[14] | (uint32_t)img[15] << 8;

	fslab_json_init(&j);
	CHECK_EQ(inspect(img, len, &j, err), 0);
	CHECK(has(&j, "\"fs\":\"vfat\""));
	CHECK(has(&j, "\"cross_linked_clusters\":0"));
	CHECK(!has(&j, "chain_error"));
	memcpy(bad, img, len);
	bad[13] = 3; /* sectors per cluster: not a power of two */
	CHECK_EQ(inspect(bad, len, &j, err), -22);
	CHECK(strstr(err, "sectors per cluster 3") != NULL);
	free(bad);
	fslab_json_free(&j);
	/* the boot sector, the first FAT's start, the root directory's first entries */
	uint32_t nfats = img[16], fatsz = (uint32_t)img[22] | (uint32_t)img[23] << 8;
	const uint64_t spans[][2] = { { 0, 512 }, { (uint64_t)rsvd * bps, (uint64_t)rsvd * bps + 512 },
				      { (uint64_t)(rsvd + nfats * fatsz) * bps, (uint64_t)(rsvd + nfats * fatsz) * bps + 1024 } };
	damage(img, len, spans, 3);
}

static void test_f2fs(const uint8_t *img, size_t len)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];
	uint8_t *bad = malloc(len);
	uint64_t cp = (uint64_t)le32(img + 1024 + 76) * 4096;

	fslab_json_init(&j);
	CHECK_EQ(inspect(img, len, &j, err), 0);
	CHECK(has(&j, "\"nat_matches_checkpoint\":true"));
	/* a flipped byte in both checkpoint packs: no valid checkpoint is left */
	memcpy(bad, img, len);
	bad[cp + 8] ^= 1;
	bad[cp + 512 * 4096 + 8] ^= 1;
	CHECK_EQ(inspect(bad, len, &j, err), -22);
	CHECK(strstr(err, "no valid checkpoint") != NULL);
	/* in one pack only: the other is used */
	memcpy(bad, img, len);
	bad[cp + 8] ^= 1;
	CHECK_EQ(inspect(bad, len, &j, err), 0);
	CHECK(has(&j, "\"pack\":2"));
	free(bad);
	fslab_json_free(&j);
	const uint64_t spans[][2] = { { 1024, 1024 + 256 }, { cp, cp + 256 }, { cp + 512 * 4096, cp + 512 * 4096 + 256 } };
	damage(img, len, spans, 3);
}

static void test_image(const char *path)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];
	size_t len;
	uint8_t *img = load(path, &len), *bad;

	fslab_json_init(&j);
	CHECK(img != NULL);
	if (!img)
		return;
	if (strstr(path, "ext4")) {
		test_ext4(img, len);
		free(img);
		return;
	}
	if (strstr(path, "f2fs")) {
		test_f2fs(img, len);
		free(img);
		return;
	}
	if (strstr(path, "vfat")) {
		test_vfat(img, len);
		free(img);
		return;
	}
	CHECK_EQ(inspect(img, len, &j, err), 0);
	CHECK(has(&j, "\"fs\":\"exfat\""));
	CHECK(has(&j, "\"checksum_ok\":true"));
	CHECK(has(&j, "\"unmarked_clusters\":0,\"leaked_clusters\":0,\"cross_linked_clusters\":0"));
	CHECK(!has(&j, "chain_error"));

	bad = malloc(len);
	/* the boot sector's identity */
	memcpy(bad, img, len);
	bad[511] = 0;
	CHECK_EQ(inspect(bad, len, &j, err), -22);
	CHECK(!strcmp(err, "not an exFAT volume: bad boot signature at 510"));
	memcpy(bad, img, len);
	bad[108] = 20;
	CHECK_EQ(inspect(bad, len, &j, err), -22);
	CHECK(strstr(err, "BytesPerSectorShift 20") != NULL);
	/* a changed boot sector no longer matches its checksum sector */
	memcpy(bad, img, len);
	bad[100] ^= 1;
	CHECK_EQ(inspect(bad, len, &j, err), 0);
	CHECK(has(&j, "\"checksum_ok\":false"));

	/* a FAT chain that loops back on itself: the root directory's, made to point at itself */
	uint32_t sect = 1u << img[108], fat = le32(img + 80) * sect, root = le32(img + 96);
	memcpy(bad, img, len);
	put32(bad + fat + 4 * root, root);
	CHECK_EQ(inspect(bad, len, &j, err), 0);
	CHECK(has(&j, "the chain loops"));
	/* a chain that leaves the heap: the first cluster number past its end */
	memcpy(bad, img, len);
	put32(bad + fat + 4 * root, le32(img + 92) + 2);
	CHECK_EQ(inspect(bad, len, &j, err), 0);
	CHECK(has(&j, "outside the heap"));

	/* the boot region, the FAT's start and the heap's start (bitmap, up-case table, root
	 * directory in mkfs.exfat's layout) */
	uint64_t heap = (uint64_t)le32(img + 88) * sect;
	const uint64_t spans[][2] = { { 0, 12ull * sect }, { fat, fat + 4096 }, { heap, heap + 16384 } };
	damage(img, len, spans, 3);
	free(bad);
	free(img);
	fslab_json_free(&j);
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
