/* SPDX-License-Identifier: MIT */
#include "fslab/crc32.h"

static uint32_t table[256];
static int ready;

uint32_t fslab_crc32_le(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (!ready) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
			table[i] = c;
		}
		ready = 1;
	}
	while (len--)
		crc = (crc >> 8) ^ table[(crc ^ *p++) & 0xFF];
	return crc;
}
