/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a nested fbac-run (nested.c) and the outer one's supervisor
 * (sup-nest.c) agree on: two ioctl requests, made on a sealed memfd that
 * holds the nested run's stack as lib/scache.c encodes it under
 * FBAC_NEST_KEY. The outer filter notifies them like any ioctl; natively
 * (no fbac supervisor above) a memfd answers both with ENOTTY.
 *
 * FBAC_IOC_NEST_REGISTER: the caller's descendants are decided by the
 * outer policy and this stack too. Return: 0, or an errno (EUSERS: too
 * many nested runs; EBADMSG: not a stack; EPERM: not sealed).
 * FBAC_IOC_NEST_DONE: the caller, registered, has no descendant left.
 */
#ifndef FBAC_RUN_NEST_ABI_H
#define FBAC_RUN_NEST_ABI_H

#include <linux/ioctl.h>

#define FBAC_IOC_NEST_REGISTER _IO(0xfb, 0x01)
#define FBAC_IOC_NEST_DONE _IO(0xfb, 0x02)
#define FBAC_NEST_KEY "fbac-nested"

#endif
