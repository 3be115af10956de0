/* SPDX-License-Identifier: MIT */
/* The vfat core's wasm surface (web/src/topics/vfat/vfat-core.ts): one name at a time, its result
 * kept until the next call and read through the getters. */
#include "fslab/vfat.h"

static struct vfat_name result;

int fx_vfat_make_name(const uint8_t *name, uint32_t len, int io, int cp, const uint8_t *existing, uint32_t n)
{
	return vfat_make_name(name, len, io ? VFAT_IO_ISO8859_1 : VFAT_IO_UTF8, cp == 932 ? VFAT_CP932 : VFAT_CP437,
			      (const uint8_t (*)[11])existing, n, &result);
}

const uint8_t *fx_vfat_shortname(void) { return result.shortname; }
int fx_vfat_lfn_slots(void) { return result.lfn_slots; }
int fx_vfat_ulen(void) { return result.ulen; }
const uint16_t *fx_vfat_uni(void) { return result.uni; }
const uint8_t *fx_vfat_entries(void) { return &result.entries[0][0]; }
uint32_t fx_vfat_checksum(void) { return result.checksum; }
uint32_t fx_vfat_lcase(void) { return result.lcase; }

/* the last short name read in a code page, as UTF-8 (NUL-terminated, static) */
const char *fx_vfat_shortname_as(int cp)
{
	static char out[64];

	vfat_shortname_utf8(result.shortname, cp == 932 ? VFAT_CP932 : VFAT_CP437, out);
	return out;
}
