/* SPDX-License-Identifier: MIT */
/*
 * vfat core: how Linux 7.2's VFAT turns the name a program passes into what lands on disk
 * (fs/fat/namei_vfat.c): the name is read in the mount's iocharset (utf8 or iso8859-1) into
 * UTF-16 for the long-name entries, and an 8.3 short name is made from it in the codepage
 * (437 or 932) - vfat_create_shortname(), with shortname=mixed, the default: no long name
 * only for a valid, all-upper-case 8.3 name; a ~N tail when the short form is lossy.
 */
#ifndef FSLAB_VFAT_H
#define FSLAB_VFAT_H

#include <stddef.h>
#include <stdint.h>

enum vfat_iocharset { VFAT_IO_UTF8 = 0, VFAT_IO_ISO8859_1 = 1 };
enum vfat_codepage { VFAT_CP437 = 437, VFAT_CP932 = 932 };

#define VFAT_MAX_SLOTS 21 /* 20 long-name entries of 13 characters, and the 8.3 entry */

struct vfat_name {
	uint16_t uni[VFAT_MAX_SLOTS * 13]; /* the long name, padded as on disk: 0x0000 then 0xFFFF */
	int ulen;                          /* characters before the padding */
	uint8_t shortname[11];             /* base (8) and extension (3), space padded */
	uint8_t lcase;                     /* CASE_LOWER_BASE 0x08 / CASE_LOWER_EXT 0x10 */
	uint8_t checksum;                  /* fat_checksum() of shortname */
	int lfn_slots;                     /* long-name entries; 0 when the 8.3 name says it all */
	uint8_t entries[VFAT_MAX_SLOTS][32]; /* the entries as written: long-name ones first */
};

/* 0, or -FSLAB_EINVAL (bad character or encoding), -FSLAB_ENAMETOOLONG, -FSLAB_EEXIST.
 * existing: the 8.3 names already in the directory (for ~N tails and clashes). */
int vfat_make_name(const uint8_t *name, size_t len, enum vfat_iocharset io, enum vfat_codepage cp,
		   const uint8_t (*existing)[11], size_t nexisting, struct vfat_name *out);
uint8_t fat_checksum(const uint8_t *name);
/* A short name's bytes in the codepage as UTF-8 (0x05 first byte read as 0xE5); bytes the
 * codepage cannot map become U+FFFD. Returns the length written (out holds >= 3 * 11 + 1). */
size_t vfat_shortname_utf8(const uint8_t *shortname, enum vfat_codepage cp, char *out);

#endif
