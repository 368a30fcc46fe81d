/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A name relative to a directory descriptor, resolved from the
 * directory's canonical path: the common open of find, tar and every fts
 * walker, cheaper than the general way of sup-path.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "path.h"
#include "sup-path.h"
#include "target.h"

/* abs, normal and absolute, walked from root without meeting a symlink
 * (as sup-path.c walks absolute names): an O_PATH descriptor, or -errno
 * (-ELOOP for a symlink on the way). */
static int open_plain(int root, const char *abs, bool follow)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW),
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_IN_ROOT,
	};
	int fd;

	if (!fbac_path_is_normal(abs))
		return -ELOOP;
	do
		fd = (int)syscall(SYS_openat2, root, abs, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN);
	return fd < 0 ? -errno : fd;
}

/*
 * A name relative to a directory descriptor, as find, tar and every fts
 * walker open each entry: named from the directory's canonical path (one
 * readlink of /proc/TID/fd/N) and walked from our root without meeting a
 * symlink, which makes that string the object's canonical name; instead
 * of a copy of the descriptor (pidfd_getfd), a walk from it, a readlink
 * of what was found and a close: two system calls instead of four. As
 * for the working directory (cwd_absolute), what is decided on is what
 * is used: the object found at that path. Anything else (a symlink or
 * ".." on the way, /proc, /dev, a descriptor without a path, another
 * root, a missing object, a call that pins the parent) goes the general
 * way. Return: 1 when it does not apply; else 0 or -errno, out filled.
 */
int resolve_dirfd_name(struct call *c, int dirfd, const char *path,
		       unsigned flags, struct resolved *out)
{
	char abs[FBAC_MAX_PATH];
	int n, fd;

	/* Not the child before its exec (its /proc entries cannot be read
	 * yet), nor "self/..." (relative to /proc, the caller's). */
	if (dirfd < 0 || path[0] == '/' || !strncmp(path, "self", 4) ||
	    !strncmp(path, "thread-self", 11) ||
	    ((flags & RES_PARENT) && !(flags & RES_PARENT_IF_MISSING)) ||
	    c->tid == __atomic_load_n(&c->s->launch_pid, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&c->s->roots_vary, __ATOMIC_ACQUIRE))
		return 1;
	n = target_fd_path(c->tid, dirfd, abs, sizeof(abs));
	if (n <= 0 || abs[0] != '/' || deleted_name(abs, (size_t)n) ||
	    snprintf(abs + n, sizeof(abs) - (size_t)n, "%s%s", n > 1 ? "/" : "",
		     path) >= (int)(sizeof(abs) - (size_t)n) ||
	    fbac_path_is_under(abs, "/proc") || fbac_path_is_under(abs, "/dev"))
		return 1;
	if (strlen(abs) >= sizeof(out->path))
		return 1;
	fd = open_plain(c->s->root_fd, abs, flags & RES_FOLLOW);
	if (fd < 0)
		return 1;
	if (fstat(fd, &out->st) < 0) {
		close(fd);
		return 1;
	}
	memcpy(out->path, abs, strlen(abs) + 1);
	out->fd = fd;
	out->is_dir = S_ISDIR(out->st.st_mode);
	return 0;
}
