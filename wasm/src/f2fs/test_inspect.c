/* SPDX-License-Identifier: MIT */
/*
 * The F2FS inspector on its test images (wasm/tests/images/f2fs*.img.gz, made by the recipes
 * of web/src/topics/f2fs/test-images.ts), then on them damaged on purpose: a clear error or a
 * report that names the problem, never a crash. Included into wasm/tests/test_inspect.c (one
 * program, one count of checks), which gives it inspect(), has(), put32() and damage(), and
 * calls test_inspect_f2fs() for each image whose name starts with "f2fs".
 */

static void test_inspect_f2fs(const uint8_t *img, size_t len)
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
