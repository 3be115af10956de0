/* SPDX-License-Identifier: MIT */
/*
 * Short and long names worked by hand from fs/fat/namei_vfat.c, on the blog series' cases ("Linuxカーネルのファイルアクセスの処理を追いかける"): the
 * full-width "ＳＪＩＳ" under code page 932 and 437, and read as iso8859-1.
 */
#include <string.h>
#include "check.h"
#include "fslab/vfat.h"

static struct vfat_name v;

static int make(const char *name, int io, int cp, const uint8_t (*existing)[11], size_t n)
{
	return vfat_make_name((const uint8_t *)name, strlen(name), io, cp, existing, n, &v);
}

int main(void)
{
	const uint8_t sjis932[11] = { 0x82, 0x72, 0x82, 0x69, 0x82, 0x68, 0x82, 0x72, ' ', ' ', ' ' };
	char u8[64];

	/* cp932 has each full-width letter: 2 bytes apiece fill the 8-byte base; not upper case
	 * as far as VFAT can tell, so a long name is written too, but no ~1 tail */
	CHECK_EQ(make("ＳＪＩＳ", VFAT_IO_UTF8, VFAT_CP932, NULL, 0), 0);
	CHECK(!memcmp(v.shortname, sjis932, 11));
	CHECK_EQ(v.lfn_slots, 1);
	CHECK_EQ(v.ulen, 4);
	CHECK_EQ(v.uni[0], 0xFF33);
	CHECK_EQ(v.uni[4], 0x0000); /* the terminator, then 0xFFFF to the 13th character */
	CHECK_EQ(v.uni[12], 0xFFFF);
	vfat_shortname_utf8(v.shortname, VFAT_CP932, u8);
	CHECK(!strcmp(u8, "ＳＪＩＳ"));
	/* cp437 has none of them: '_' each, lossy, so a ~1 tail */
	CHECK_EQ(make("ＳＪＩＳ", VFAT_IO_UTF8, VFAT_CP437, NULL, 0), 0);
	CHECK(!memcmp(v.shortname, "____~1     ", 11));
	/* read as iso8859-1, the 12 UTF-8 bytes are 12 characters; none is in cp932 */
	CHECK_EQ(make("ＳＪＩＳ", VFAT_IO_ISO8859_1, VFAT_CP932, NULL, 0), 0);
	CHECK_EQ(v.ulen, 12);
	CHECK_EQ(v.uni[0], 0x00EF);
	CHECK(!memcmp(v.shortname, "______~1   ", 11));

	/* a valid all-upper-case 8.3 name needs no long name (shortname=mixed) */
	CHECK_EQ(make("README.TXT", VFAT_IO_UTF8, VFAT_CP437, NULL, 0), 0);
	CHECK_EQ(v.lfn_slots, 0);
	CHECK(!memcmp(v.entries[0], "README  TXT", 11));
	CHECK_EQ(v.entries[0][11], 0x20);
	/* the same name in lower case: a long name for the case, and it clashes */
	const uint8_t have[1][11] = { { 'R', 'E', 'A', 'D', 'M', 'E', ' ', ' ', 'T', 'X', 'T' } };
	CHECK_EQ(make("readme.txt", VFAT_IO_UTF8, VFAT_CP437, have, 1), -17);
	CHECK_EQ(make("readme.txt", VFAT_IO_UTF8, VFAT_CP437, NULL, 0), 0);
	CHECK_EQ(v.lfn_slots, 1);
	/* long-name entries: last part first, 0x40 on the first, the 8.3 name's checksum */
	CHECK_EQ(make("a long file name.html", VFAT_IO_UTF8, VFAT_CP437, NULL, 0), 0);
	CHECK(!memcmp(v.shortname, "ALONGF~1HTM", 11));
	CHECK_EQ(v.lfn_slots, 2);
	CHECK_EQ(v.entries[0][0], 0x42);
	CHECK_EQ(v.entries[1][0], 0x01);
	CHECK_EQ(v.entries[0][11], 0x0F);
	CHECK_EQ(v.entries[0][13], fat_checksum(v.shortname));
	CHECK_EQ(v.entries[1][1], 'a');
	CHECK_EQ(v.entries[0][1], 'a'); /* characters 13..: "ame.html" */
	CHECK_EQ(v.entries[0][3], 'm');
	/* fat_checksum, rotate right and add, worked by hand for "A" and ten spaces:
	 * 41 C0 80 60 50 48 44 42 41 C0 80 */
	CHECK_EQ(fat_checksum((const uint8_t *)"A          "), 0x80);
	/* ~1 taken: ~2 */
	const uint8_t taken[1][11] = { { 'L', 'O', 'N', 'G', 'N', 'A', '~', '1', 'T', 'X', 'T' } };
	CHECK_EQ(make("longname2.txt", VFAT_IO_UTF8, VFAT_CP437, taken, 1), 0);
	CHECK(!memcmp(v.shortname, "LONGNA~2TXT", 11));
	/* replaced, skipped and forbidden characters */
	CHECK_EQ(make("x[1].c", VFAT_IO_UTF8, VFAT_CP437, NULL, 0), 0);
	CHECK(!memcmp(v.shortname, "X_1_~1  C  ", 11));
	CHECK_EQ(make("a:b", VFAT_IO_UTF8, VFAT_CP437, NULL, 0), -22);
	CHECK_EQ(make("\xff\xfe", VFAT_IO_UTF8, VFAT_CP437, NULL, 0), -22); /* not UTF-8 */
	CHECK_EQ(make("...", VFAT_IO_UTF8, VFAT_CP437, NULL, 0), -22);
	/* a cp932 lead byte 0xE5 first would read as a deleted entry: stored as 0x05 */
	CHECK_EQ(make("漢.txt", VFAT_IO_UTF8, VFAT_CP932, NULL, 0), 0); /* 漢 is 0x8ABF: not E5 */
	CHECK(v.shortname[0] == 0x8A);
	CHECK_EQ(make("\xe8\x95\x81.txt", VFAT_IO_UTF8, VFAT_CP932, NULL, 0), 0); /* U+8541 is 0xE540 in cp932 */
	CHECK_EQ(v.shortname[0], 0x05);
	CHECK_EQ(v.shortname[1], 0x40);
	vfat_shortname_utf8(v.shortname, VFAT_CP932, u8);
	CHECK(!strcmp(u8, "\xe8\x95\x81.TXT"));
	return CHECK_DONE("test_vfat");
}
