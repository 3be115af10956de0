/* SPDX-License-Identifier: MIT */
/*
 * Long and short names, after fs/fat/namei_vfat.c (xlate_to_uni, vfat_is_used_badchars,
 * to_shortname_char, vfat_create_shortname, vfat_build_slots) and fs/fat/dir.c
 * (fat_checksum), with the code pages of nls_cp437/nls_cp932 from nls_tables.c.
 */
#include <stdio.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/utf.h"
#include "fslab/vfat.h"
#include "nls.h"

#define FSLAB_ENAMETOOLONG 36
#define FSLAB_EEXIST 17
#define ATTR_EXT 0x0F
#define ATTR_ARCH 0x20
#define DELETED_FLAG 0xE5
#define CASE_LOWER_BASE 0x08
#define CASE_LOWER_EXT 0x10

static int lookup(const struct fslab_nls_pair *t, unsigned n, unsigned key)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (t[mid].from < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && t[lo].from == key ? t[lo].to : -1;
}

/* nls->uni2char(): the code page bytes of one UTF-16 unit, or 0 if it has none */
static int uni2char(enum vfat_codepage cp, uint16_t u, uint8_t *buf)
{
	int c = cp == VFAT_CP932 ? lookup(cp932_from_uni, cp932_from_uni_len, u) : lookup(cp437_from_uni, cp437_from_uni_len, u);

	if (c < 0)
		return 0;
	if (c > 0xFF) {
		buf[0] = (uint8_t)(c >> 8);
		buf[1] = (uint8_t)c;
		return 2;
	}
	buf[0] = (uint8_t)c;
	return 1;
}

struct shortname_info {
	int lower, upper, valid;
};

static int vfat_skip_char(uint16_t w) { return w == '.' || w == ' '; }
static int vfat_replace_char(uint16_t w) { return w == '[' || w == ']' || w == ';' || w == ',' || w == '+' || w == '='; }
static int bad_char(uint16_t w) { return w < 0x20 || w == '*' || w == '?' || w == '<' || w == '>' || w == '|' || w == '"' || w == ':' || w == '\\'; }

static int to_shortname_char(enum vfat_codepage cp, uint8_t *buf, uint16_t src, struct shortname_info *info)
{
	int len;

	if (vfat_skip_char(src)) {
		info->valid = 0;
		return 0;
	}
	if (vfat_replace_char(src)) {
		info->valid = 0;
		buf[0] = '_';
		return 1;
	}
	len = uni2char(cp, src, buf);
	if (len <= 0) {
		info->valid = 0;
		buf[0] = '_';
		len = 1;
	} else if (len == 1) {
		uint8_t prev = buf[0];

		if (buf[0] >= 0x7F) {
			info->lower = 0;
			info->upper = 0;
		}
		buf[0] = (cp == VFAT_CP932 ? cp932_upper : cp437_upper)[buf[0]];
		if ((buf[0] >= 'A' && buf[0] <= 'Z') || (buf[0] >= 'a' && buf[0] <= 'z')) {
			if (buf[0] == prev)
				info->lower = 0;
			else
				info->upper = 0;
		}
	} else {
		info->lower = 0;
		info->upper = 0;
	}
	return len;
}

static int exists(const uint8_t (*existing)[11], size_t n, const uint8_t *name)
{
	for (size_t i = 0; i < n; i++)
		if (!memcmp(existing[i], name, 11))
			return 1;
	return 0;
}

/* vfat_create_shortname() with shortname=mixed (VFAT_SFN_CREATE_WIN95) and numtail on:
 * 1 if the 8.3 name alone will do, 0 if long-name entries are needed, or -errno */
static int create_shortname(enum vfat_codepage cp, const uint16_t *uname, int ulen, const uint8_t (*existing)[11],
			    size_t nexisting, uint8_t *name_res, uint8_t *lcase)
{
	const uint16_t *ext_start, *end = uname + ulen, *name_start, *ip;
	uint8_t base[9], ext[4], charbuf[2], *p;
	int chl, chi, sz = 0, extlen, baselen, i, numtail_baselen, is_shortname = 1;
	struct shortname_info base_info = { 1, 1, 1 }, ext_info = { 1, 1, 1 };

	ext_start = end;
	while (--ext_start >= uname) {
		if (*ext_start == '.') {
			if (ext_start == end - 1) {
				sz = ulen;
				ext_start = NULL;
			}
			break;
		}
	}
	if (ext_start == uname - 1) {
		sz = ulen;
		ext_start = NULL;
	} else if (ext_start) {
		/* names that start with dots, "...test": the extension becomes the name */
		name_start = uname;
		while (name_start < ext_start && vfat_skip_char(*name_start))
			name_start++;
		if (name_start != ext_start) {
			sz = (int)(ext_start - uname);
			ext_start++;
		} else {
			sz = ulen;
			ext_start = NULL;
		}
	}

	numtail_baselen = 6; /* (the kernel also keeps a 2-byte base for its jiffies tail) */
	for (baselen = i = 0, p = base, ip = uname; i < sz; i++, ip++) {
		chl = to_shortname_char(cp, charbuf, *ip, &base_info);
		if (chl == 0)
			continue;
		if (baselen < 6 && (baselen + chl) > 6)
			numtail_baselen = baselen;
		for (chi = 0; chi < chl; chi++) {
			*p++ = charbuf[chi];
			baselen++;
			if (baselen >= 8)
				break;
		}
		if (baselen >= 8) {
			if ((chi < chl - 1) || (ip + 1) - uname < sz)
				is_shortname = 0;
			break;
		}
	}
	if (baselen == 0)
		return -FSLAB_EINVAL;

	extlen = 0;
	if (ext_start) {
		for (p = ext, ip = ext_start; extlen < 3 && ip < end; ip++) {
			chl = to_shortname_char(cp, charbuf, *ip, &ext_info);
			if (chl == 0)
				continue;
			if ((extlen + chl) > 3) {
				is_shortname = 0;
				break;
			}
			for (chi = 0; chi < chl; chi++) {
				*p++ = charbuf[chi];
				extlen++;
			}
			if (extlen >= 3) {
				if (ip + 1 != end)
					is_shortname = 0;
				break;
			}
		}
	}
	if (base[0] == DELETED_FLAG) /* ".\xe5" would do it; so does a cp932 lead byte */
		base[0] = 0x05;

	memset(name_res, ' ', 11);
	memcpy(name_res, base, (size_t)baselen);
	memcpy(name_res + 8, ext, (size_t)extlen);
	*lcase = 0;
	if (is_shortname && base_info.valid && ext_info.valid) {
		if (exists(existing, nexisting, name_res))
			return -FSLAB_EEXIST;
		return base_info.upper && ext_info.upper;
	}

	/* a tail: ~1 .. ~9 after at most 6 base bytes */
	if (baselen > 6) {
		baselen = numtail_baselen;
		name_res[7] = ' ';
	}
	name_res[baselen] = '~';
	for (i = 1; i < 10; i++) {
		name_res[baselen + 1] = (uint8_t)(i + '0');
		if (!exists(existing, nexisting, name_res))
			return 0;
	}
	/* then the kernel takes a hex number from jiffies: not reproducible, so not modelled */
	return -FSLAB_EEXIST;
}

uint8_t fat_checksum(const uint8_t *name)
{
	uint8_t s = 0;

	for (int i = 0; i < 11; i++)
		s = (uint8_t)((((s & 1) << 7) | ((s & 0xfe) >> 1)) + name[i]);
	return s;
}

/* xlate_to_uni(): the name in the iocharset to UTF-16 units */
static int to_uni(const uint8_t *name, size_t len, enum vfat_iocharset io, uint16_t *out, int max)
{
	int n = 0;
	size_t i = 0;

	while (i < len) {
		uint32_t c = name[i];
		if (io == VFAT_IO_ISO8859_1 || c < 0x80) {
			i++;
		} else {
			int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
			if (more < 0 || i + (size_t)more >= len)
				return -FSLAB_EINVAL;
			c &= 0x3F >> more;
			for (int k = 1; k <= more; k++) {
				if ((name[i + (size_t)k] & 0xC0) != 0x80)
					return -FSLAB_EINVAL;
				c = c << 6 | (name[i + (size_t)k] & 0x3F);
			}
			i += (size_t)more + 1;
			if (c >= 0x10000) { /* a surrogate pair */
				if (n + 2 > max)
					return -FSLAB_ENAMETOOLONG;
				c -= 0x10000;
				out[n++] = (uint16_t)(0xD800 | (c >> 10));
				out[n++] = (uint16_t)(0xDC00 | (c & 0x3FF));
				continue;
			}
		}
		if (n + 1 > max)
			return -FSLAB_ENAMETOOLONG;
		out[n++] = (uint16_t)c;
	}
	return n;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

int vfat_make_name(const uint8_t *name, size_t len, enum vfat_iocharset io, enum vfat_codepage cp,
		   const uint8_t (*existing)[11], size_t nexisting, struct vfat_name *out)
{
	int ulen, usize, ret, i, k;

	memset(out, 0, sizeof(*out));
	while (len && name[len - 1] == '.') /* vfat_striptail_len() */
		len--;
	if (!len)
		return -FSLAB_EINVAL;
	ulen = to_uni(name, len, io, out->uni, 255);
	if (ulen < 0)
		return ulen;
	for (i = 0; i < ulen; i++)
		if (bad_char(out->uni[i]))
			return -FSLAB_EINVAL;
	out->ulen = ulen;
	usize = ulen;
	if (usize % 13) { /* a terminating 0x0000, then 0xFFFF to the end of the entry */
		out->uni[usize++] = 0x0000;
		while (usize % 13)
			out->uni[usize++] = 0xFFFF;
	}
	ret = create_shortname(cp, out->uni, ulen, existing, nexisting, out->shortname, &out->lcase);
	if (ret < 0)
		return ret;
	out->checksum = fat_checksum(out->shortname);
	out->lfn_slots = ret == 1 ? 0 : usize / 13;
	/* vfat_build_slots(): long-name entries last part first, then the 8.3 entry */
	for (i = out->lfn_slots, k = 0; i > 0; i--, k++) {
		uint8_t *e = out->entries[k];
		const uint16_t *u = out->uni + (i - 1) * 13;

		e[0] = (uint8_t)(i | (k == 0 ? 0x40 : 0));
		for (int j = 0; j < 5; j++)
			put16(e + 1 + 2 * j, u[j]);
		e[11] = ATTR_EXT;
		e[13] = out->checksum;
		for (int j = 0; j < 6; j++)
			put16(e + 14 + 2 * j, u[5 + j]);
		for (int j = 0; j < 2; j++)
			put16(e + 28 + 2 * j, u[11 + j]);
	}
	memcpy(out->entries[k], out->shortname, 11);
	out->entries[k][11] = ATTR_ARCH;
	out->entries[k][12] = out->lcase;
	return 0;
}

size_t vfat_shortname_utf8(const uint8_t *s, enum vfat_codepage cp, char *out)
{
	size_t n = 0;
	uint8_t b[11];
	int i, end;

	memcpy(b, s, 11);
	if (b[0] == 0x05)
		b[0] = DELETED_FLAG;
	for (end = 8; end > 0 && b[end - 1] == ' '; end--)
		;
	for (int part = 0; part < 2; part++) {
		int from = part ? 8 : 0, to = part ? 11 : end;
		if (part) {
			while (to > 8 && b[to - 1] == ' ')
				to--;
			if (to == 8)
				break;
			out[n++] = '.';
		}
		for (i = from; i < to; i++) {
			int u;
			if (cp == VFAT_CP932 && ((b[i] >= 0x81 && b[i] <= 0x9F) || (b[i] >= 0xE0 && b[i] <= 0xFC)) && i + 1 < to) {
				u = lookup(cp932_to_uni, cp932_to_uni_len, (unsigned)(b[i] << 8 | b[i + 1]));
				i++;
			} else {
				u = cp == VFAT_CP932 ? lookup(cp932_to_uni, cp932_to_uni_len, b[i]) : lookup(cp437_to_uni, cp437_to_uni_len, b[i]);
			}
			n += fslab_utf8_put(u < 0 ? 0xFFFD : (uint32_t)u, out + n);
		}
	}
	out[n] = 0;
	return n;
}
