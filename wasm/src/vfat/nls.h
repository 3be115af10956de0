/* SPDX-License-Identifier: MIT */
/* Code page tables (generated into nls_tables.c by gen_nls.py). */
#ifndef FSLAB_VFAT_NLS_H
#define FSLAB_VFAT_NLS_H
struct fslab_nls_pair {
	unsigned short from, to;
};
extern const struct fslab_nls_pair cp437_to_uni[], cp437_from_uni[], cp932_to_uni[], cp932_from_uni[];
extern const unsigned cp437_to_uni_len, cp437_from_uni_len, cp932_to_uni_len, cp932_from_uni_len;
extern const unsigned char cp437_upper[256], cp932_upper[256];
#endif
