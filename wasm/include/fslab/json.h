/* SPDX-License-Identifier: MIT */
/*
 * A growable text buffer that writes JSON: the inspectors' reports. Reports are small
 * (structures, not data), so the cores hand them over as text and the bulk stays in typed
 * arrays. Commas are placed by the writer, so callers only open, name and close.
 */
#ifndef FSLAB_JSON_H
#define FSLAB_JSON_H

#include <stddef.h>
#include <stdint.h>

struct fslab_json {
	char *buf;
	size_t len, cap;
	int oom;         /* an allocation failed: the text is incomplete */
	int need_comma;  /* the next value at this level follows another */
};

void fslab_json_init(struct fslab_json *j);
void fslab_json_free(struct fslab_json *j);
void fslab_json_open(struct fslab_json *j, const char *key, char bracket);  /* '{' or '[' */
void fslab_json_close(struct fslab_json *j, char bracket);                  /* '}' or ']' */
void fslab_json_u64(struct fslab_json *j, const char *key, uint64_t v);
void fslab_json_bool(struct fslab_json *j, const char *key, int v);
void fslab_json_str(struct fslab_json *j, const char *key, const char *s);
/* a UTF-16LE string from disk, as UTF-8; unpaired surrogates become U+FFFD */
void fslab_json_utf16(struct fslab_json *j, const char *key, const uint8_t *s, size_t units);

#endif
