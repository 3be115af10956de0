/* SPDX-License-Identifier: MIT */
/*
 * The FAT inspector on its test images (wasm/tests/images/vfat*.img.gz, made by the recipes
 * of web/src/topics/vfat/test-images.ts), then on them damaged on purpose: a clear error or a
 * report that names the problem, never a crash. Included into wasm/tests/test_inspect.c (one
 * program, one count of checks), which gives it inspect(), has(), put32() and damage(), and
 * calls test_inspect_vfat() for each image whose name starts with "vfat".
 */

static void test_inspect_vfat(const uint8_t *img, size_t len)
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
