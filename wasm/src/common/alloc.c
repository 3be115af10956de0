/* SPDX-License-Identifier: MIT */
/* Linear-memory allocation for the TypeScript side of every core (inputs in, copies out). */
#include <stdint.h>
#include <stdlib.h>

void *fx_malloc(uint32_t n);
void fx_free(void *p);

void *fx_malloc(uint32_t n) { return malloc(n); }
void fx_free(void *p) { free(p); }
