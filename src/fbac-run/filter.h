/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seccomp filter: static denials, ENOSYS for what we cannot follow
 * (io_uring, clone3, syscalls newer than this table), and user
 * notification for every syscall that names a path or an address.
 */
#ifndef FBAC_RUN_FILTER_H
#define FBAC_RUN_FILTER_H

#include <stdbool.h>

/*
 * Build and load the filter on the calling thread.
 * Return: the notification listener fd, or -errno. Must be called after
 * no_new_privs; nothing after it may use a notified syscall before the
 * supervisor holds the listener.
 */
int filter_load(void);

/* The name of a native syscall number (for messages), or "?". */
const char *filter_syscall_name(int nr);

#endif
