/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslab/json.h"
#include "fslab/utf.h"

void fslab_json_init(struct fslab_json *j) { memset(j, 0, sizeof(*j)); }

void fslab_json_free(struct fslab_json *j)
{
	free(j->buf);
	fslab_json_init(j);
}

static void put(struct fslab_json *j, const char *s, size_t n)
{
	if (j->oom)
		return;
	if (j->len + n + 1 > j->cap) {
		size_t cap = j->cap ? j->cap : 1024;
		while (cap < j->len + n + 1)
			cap *= 2;
		char *b = realloc(j->buf, cap);
		if (!b) {
			j->oom = 1;
			return;
		}
		j->buf = b;
		j->cap = cap;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = 0;
}

static void puts_(struct fslab_json *j, const char *s) { put(j, s, strlen(s)); }

static void quoted(struct fslab_json *j, const char *s, size_t n)
{
	char esc[8];
	size_t i, run;

	put(j, "\"", 1);
	/* a run of plain characters goes in with one put: a report holds thousands of names */
	for (i = 0, run = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		put(j, s + run, i - run);
		run = i + 1;
		if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			put(j, esc, 6);
		} else {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(j, esc, 2);
		}
	}
	put(j, s + run, n - run);
	put(j, "\"", 1);
}

static void key(struct fslab_json *j, const char *k)
{
	if (j->need_comma)
		put(j, ",", 1);
	j->need_comma = 1;
	if (k) {
		quoted(j, k, strlen(k));
		put(j, ":", 1);
	}
}

void fslab_json_open(struct fslab_json *j, const char *k, char bracket)
{
	key(j, k);
	put(j, &bracket, 1);
	j->need_comma = 0;
}

void fslab_json_close(struct fslab_json *j, char bracket)
{
	put(j, &bracket, 1);
	j->need_comma = 1;
}

void fslab_json_u64(struct fslab_json *j, const char *k, uint64_t v)
{
	char num[24], *p = num + sizeof(num);

	key(j, k);
	/* by hand, not snprintf: a report prints a number for every field of every file */
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	put(j, p, (size_t)(num + sizeof(num) - p));
}

void fslab_json_bool(struct fslab_json *j, const char *k, int v)
{
	key(j, k);
	puts_(j, v ? "true" : "false");
}

void fslab_json_str(struct fslab_json *j, const char *k, const char *s)
{
	key(j, k);
	quoted(j, s, strlen(s));
}

void fslab_json_utf16(struct fslab_json *j, const char *k, const uint8_t *s, size_t units)
{
	/* 4 UTF-8 bytes at most per unit: decode into a buffer, then quote it */
	char *tmp = malloc(units * 4 + 1);
	size_t n;

	if (!tmp) {
		j->oom = 1;
		return;
	}
	n = fslab_utf16le_to_utf8(s, units, tmp, units * 4 + 1, 0);
	key(j, k);
	quoted(j, tmp, n);
	free(tmp);
}
