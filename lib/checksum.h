/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fast 64-bit checksum for fbac's own cache files: it catches a torn or
 * damaged file, not a forged one (who can write the file can recompute it).
 */
#ifndef FBAC_CHECKSUM_H
#define FBAC_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* A 64-bit checksum of buf, against damage (not forgery). */
uint64_t fbac_checksum(const void *buf, size_t len);

#endif
