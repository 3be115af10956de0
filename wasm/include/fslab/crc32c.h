/* SPDX-License-Identifier: MIT */
/* CRC-32C (Castagnoli) as the kernel's crc32c() computes it: no inversion inside, so
 * ext4 starts from ~0 and chains seeds exactly as fs/ext4 does. */
#ifndef FSLAB_CRC32C_H
#define FSLAB_CRC32C_H
#include <stddef.h>
#include <stdint.h>
uint32_t fslab_crc32c(uint32_t crc, const void *data, size_t len);
#endif
