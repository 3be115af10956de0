/* SPDX-License-Identifier: MIT */
/* CRC-32 (IEEE, reflected) as the kernel's crc32_le(): no inversion inside. F2FS seeds it
 * with its magic number (f2fs_crc32). */
#ifndef FSLAB_CRC32_H
#define FSLAB_CRC32_H
#include <stddef.h>
#include <stdint.h>
uint32_t fslab_crc32_le(uint32_t crc, const void *data, size_t len);
#endif
