/* SPDX-License-Identifier: MIT */
/* A few macros for the native tests: each failed check prints where and counts. */
#ifndef FSLAB_TEST_CHECK_H
#define FSLAB_TEST_CHECK_H
#include <stdio.h>

static int check_failures, check_count;

#define CHECK(cond) do { check_count++; if (!(cond)) { check_failures++; \
	fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ(a, b) do { long long _a = (long long)(a), _b = (long long)(b); check_count++; \
	if (_a != _b) { check_failures++; \
	fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, _a, #b, _b); } } while (0)
#define CHECK_DONE(name) (printf("%s: %d checks, %d failed\n", name, check_count, check_failures), check_failures ? 1 : 0)
#endif
