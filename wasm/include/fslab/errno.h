/* SPDX-License-Identifier: MIT */
/*
 * Error numbers the cores return (negated, as the kernel does). Linux's values, fixed here
 * because Emscripten's libc numbers them differently: the TypeScript side reads these.
 */
#ifndef FSLAB_ERRNO_H
#define FSLAB_ERRNO_H
#define FSLAB_ENOENT 2
#define FSLAB_EIO 5
#define FSLAB_EINVAL 22
#define FSLAB_ENFILE 23
#define FSLAB_ENOSPC 28
#endif
