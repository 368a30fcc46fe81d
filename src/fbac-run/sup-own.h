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
/* The supervisor's own process or thread id that path (resolved, under
 * /proc) names, else 0: those entries are never the program's. */
long own_is_supervisors(struct call *c, const char *path);
/* Whether name, as typed, means the caller's own /proc entry: "self" or
 * "thread-self" in it, and not the number n. */
bool own_names_self(const char *name, long n);
/* The caller's own name in out for path, the supervisor's entry n
 * reached through "self". Return: 0 or -ENAMETOOLONG. */
int own_for_supervisors(struct call *c, const char *path, long n, char *out,
			size_t size);
#endif
