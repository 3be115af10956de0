/* SPDX-License-Identifier: MIT */
/*
 * Names on disk are UTF-16 (exFAT name entries, VFAT long-name entries); what fslab prints
 * and returns is UTF-8. One encoder for all of them (the JSON writer, the VFAT name model,
 * the inspectors' paths).
 */
#ifndef FSLAB_UTF_H
#define FSLAB_UTF_H

#include <stddef.h>
#include <stdint.h>

/* A code point as UTF-8 into out (room for 4 bytes); returns the bytes written. */
size_t fslab_utf8_put(uint32_t cp, char *out);

/*
 * n UTF-16LE units to UTF-8 in out (cap bytes, NUL-terminated; a character that would not
 * fit is left out whole). Surrogate pairs become one code point; an unpaired surrogate, and
 * with `printable` a control character, becomes U+FFFD. Returns the bytes written.
 */
size_t fslab_utf16le_to_utf8(const uint8_t *units, size_t n, char *out, size_t cap, int printable);

#endif
