/* SPDX-License-Identifier: MIT */
/*
 * The ext4 inspector on its test images (wasm/tests/images/ext4*.img.gz, made by the recipes
 * of web/src/topics/ext4/test-images.ts), then on them damaged on purpose: a clear error or a
 * report that names the problem, never a crash. Included into wasm/tests/test_inspect.c (one
 * program, one count of checks), which gives it inspect(), has(), put32() and damage(), and
 * calls test_inspect_ext4() for each image whose name starts with "ext4".
 */

static void test_inspect_ext4(const uint8_t *img, size_t len)
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
