/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The caller's own /proc entries (sup-own.c), for sup-path.c. */
#ifndef FBAC_RUN_SUP_OWN_H
#define FBAC_RUN_SUP_OWN_H
#include <stdbool.h>
#include <stddef.h>

#include "call.h"

/* The canonical path of one of our descriptors, as the kernel
 * sees it. Return: 0, -EACCES (no path: a pipe, a socket), -ENOENT
 * (deleted), or -errno. */
int fd_path(int fd, char *out, size_t size);

/* path, absolute, names one of the caller's own magic links (exe, cwd,
 * root, a namespace) or descriptors: resolved as that (0 or -errno);
 * else 1, nothing done. */
int own_entry(struct call *c, unsigned flags, const char *path,
	      struct resolved *out);
/* Whether own_entry would resolve path. */
bool own_name(struct call *c, unsigned flags, const char *path);
/* Whether path, relative to a /proc directory, may name one of the
 * caller's descriptors or magic links (a number; fd, task, ns, exe, cwd,
 * root as a whole component): the directory's name is read only then. */
bool maybe_proc_entry(const char *path);
#endif
