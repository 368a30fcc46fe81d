/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A name relative to a directory descriptor (sup-dirfd.c), for sup-path.c. */
#ifndef FBAC_RUN_SUP_PATH_H
#define FBAC_RUN_SUP_PATH_H

#include "call.h"

/*
 * path (relative, not "self/...") from the caller's descriptor dirfd,
 * resolved from the directory's canonical path when no symlink, "..",
 * /proc or /dev is on the way and the object exists.
 * Return: 1 when it does not apply (nothing done); else 0 or -errno,
 * out filled as call_resolve_path does.
 */
int resolve_dirfd_name(struct call *c, int dirfd, const char *path,
		       unsigned flags, struct resolved *out);

#endif
