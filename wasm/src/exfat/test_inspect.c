/* SPDX-License-Identifier: MIT */
/*
 * The exFAT inspector on its test images (wasm/tests/images/exfat*.img.gz, made by the recipes
 * of web/src/topics/exfat/test-images.ts), then on them damaged on purpose: a clear error or a
 * report that names the problem, never a crash. Included into wasm/tests/test_inspect.c (one
 * program, one count of checks), which gives it inspect(), has(), put32() and damage(), and
 * calls test_inspect_exfat() for each image whose name starts with "exfat".
 */

static void test_inspect_exfat(const uint8_t *img, size_t len)
{
	struct fslab_json j;
	char err[FSLAB_ERR_LEN];
	uint8_t *bad;

	fslab_json_init(&j);
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
	fslab_json_free(&j);
}
