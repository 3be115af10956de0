/* SPDX-License-Identifier: MIT */
#include "fslab/utf.h"

size_t fslab_utf8_put(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t fslab_utf16le_to_utf8(const uint8_t *s, size_t units, char *out, size_t cap, int printable)
{
	size_t i, n = 0;
	char tmp[4];

	if (!cap)
		return 0;
	for (i = 0; i < units; i++) {
		uint32_t u = (uint32_t)s[2 * i] | (uint32_t)s[2 * i + 1] << 8;
		if (u >= 0xD800 && u < 0xDC00 && i + 1 < units) {
			uint32_t lo = (uint32_t)s[2 * i + 2] | (uint32_t)s[2 * i + 3] << 8;
			if (lo >= 0xDC00 && lo < 0xE000) {
				u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
				i++;
			}
		}
		if ((u >= 0xD800 && u < 0xE000) || (printable && (u < 0x20 || u == 0x7F)))
			u = 0xFFFD;
		size_t k = fslab_utf8_put(u, tmp);
		if (n + k >= cap)
			break;
		for (size_t b = 0; b < k; b++)
			out[n++] = tmp[b];
	}
	out[n] = 0;
	return n;
}
