/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the filter module (filter.c, filter-ioctl.c): the ioctl
 * block of the supervisor's filter.
 */
#ifndef FBAC_RUN_FILTER_INT_H
#define FBAC_RUN_FILTER_INT_H

#include <stdint.h>

struct sock_filter;

/* The block's length: arch, nr, the request, the four notified requests
 * (TIOCSTI, TIOCLINUX, a nested run's two), the two returns. */
#define FILTER_IOCTL_BLOCK_LEN 11

/*
 * Write the block (FILTER_IOCTL_BLOCK_LEN instructions) at insns, to go
 * right after the prologue: a native ioctl (native_arch) is allowed or,
 * for the four requests the supervisor answers, notified; every other
 * call falls through past it, to a program that loads what it needs.
 */
void filter_ioctl_block(struct sock_filter *insns, uint32_t native_arch);

#endif
