/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Metadata reads: stat family, statfs, access, readlink. The supervisor
 * resolves, decides file_getattr, asks the kernel itself and writes the
 * answer into the program's buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <utime.h>

#include "call.h"
#include "sup-handlers.h"
#include "target.h"

/* ---- metadata ---- */

/* name: the path already copied from path, or NULL. */
static int resolve_get_name(struct call *c, int dirfd, uint64_t path,
			    const char *name, int atflags, struct resolved *r)
{
	unsigned rf = RES_HELD_NO_PATH;
	int err;

	__atomic_fetch_add(&c->s->metadata, 1, __ATOMIC_RELAXED);
	if (!(atflags & AT_SYMLINK_NOFOLLOW))
		rf |= RES_FOLLOW;
	if (atflags & AT_EMPTY_PATH)
		rf |= RES_EMPTY_OK;
	r->fd = r->parent_fd = -1;
	err = name ? call_resolve_path(c, dirfd, name, rf, r) :
		     call_resolve_arg(c, dirfd, path, rf, r);
	if (err < 0)
		return err;
	/* fstat() of its own descriptor reveals nothing new to the program. */
	if (r->held)
		return 0;
	if (!call_decide_getattr(c, r->path)) {
		resolved_close(r);
		return -EACCES;
	}
	return 0;
}

static int resolve_get(struct call *c, int dirfd, uint64_t path, int atflags,
		       struct resolved *r)
{
	return resolve_get_name(c, dirfd, path, NULL, atflags, r);
}

/*
 * The stat of an absolute name found in a directory known to be where the
 * name says (call_resolve_known): no walk, no descriptor. Return: true
 * when answered.
 */
static bool stat_known(struct call *c, const char *name, uint64_t buf,
		       int atflags)
{
	bool follow = !(atflags & AT_SYMLINK_NOFOLLOW);
	struct resolved r;
	int err = 0;

	if (call_resolve_known(c, name, follow, false, &r) != 0)
		return false;
	__atomic_fetch_add(&c->s->metadata, 1, __ATOMIC_RELAXED);
	if (!call_decide_getattr(c, r.path))
		err = -EACCES;
	else if (target_write(c->tid, buf, &r.st, sizeof(r.st)) < 0)
		err = -EFAULT;
	call_respond(c, 0, err);
	return true;
}

static void do_stat(struct call *c, int dirfd, uint64_t path, uint64_t buf,
		    int atflags)
{
	char name[FBAC_MAX_PATH];
	struct resolved r;
	int err;

	/* Copied once, for both ways. */
	if (path) {
		err = target_read_string(c->tid, path, name, sizeof(name));
		if (err < 0) {
			__atomic_fetch_add(&c->s->metadata, 1, __ATOMIC_RELAXED);
			call_fail(c, err);
			return;
		}
		if (name[0] == '/' && stat_known(c, name, buf, atflags))
			return;
	}
	err = resolve_get_name(c, dirfd, path, path ? name : NULL, atflags, &r);
	if (err < 0) {
		call_fail(c, err);
		return;
	}
	/* The walk took the object's stat already. */
	if (!r.st.st_mode && fstatat(r.fd, "", &r.st, AT_EMPTY_PATH) < 0)
		err = -errno;
	else if (target_write(c->tid, buf, &r.st, sizeof(r.st)) < 0)
		err = -EFAULT;
	call_respond(c, 0, err);
	resolved_close(&r);
}

static void h_statx(struct call *c)
{
	struct resolved r;
	struct statx stx;
	int flags = (int)ARG(c, 2);
	int err = resolve_get(c, AT_FD(ARG(c, 0)), ARG(c, 1), flags, &r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (statx(r.fd, "",
		  AT_EMPTY_PATH | (flags & (AT_STATX_SYNC_TYPE)),
		  (unsigned)ARG(c, 3), &stx) < 0)
		err = -errno;
	else if (target_write(c->tid, ARG(c, 4), &stx, sizeof(stx)) < 0)
		err = -EFAULT;
	call_respond(c, 0, err);
	resolved_close(&r);
}

static void h_statfs(struct call *c)
{
	struct resolved r;
	struct statfs sf;
	int err = resolve_get(c, AT_FDCWD, ARG(c, 0), 0, &r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (fstatfs(r.fd, &sf) < 0)
		err = -errno;
	else if (target_write(c->tid, ARG(c, 1), &sf, sizeof(sf)) < 0)
		err = -EFAULT;
	call_respond(c, 0, err);
	resolved_close(&r);
}

/*
 * What access(2) answers must be what the program may then do: the
 * permission bits say yes to root everywhere. Reading, writing (for a
 * directory: making a file in it) and running, each as the policy says.
 */
static bool access_allowed(struct call *c, const struct resolved *r, int mode)
{
	char child[FBAC_MAX_PATH + 32];

	if (r->held || !r->path[0])
		return true;
	/* Complaining or learning: nothing is refused, and what the program
	 * asked about is recorded as what it would then do. */
	if (c->s->mode != MODE_ENFORCE) {
		if (mode & R_OK)
			call_decide_path(c, r->is_dir ? FBAC_OP_DIR_READ :
							FBAC_OP_FILE_READ,
					 r->path);
		if ((mode & W_OK) && !r->is_dir)
			call_decide_path(c, FBAC_OP_FILE_WRITE, r->path);
		if ((mode & X_OK) && !r->is_dir)
			call_decide_path(c, FBAC_OP_FILE_EXECUTE, r->path);
		return true;
	}
	if ((mode & R_OK) &&
	    !call_would_allow_path(c, r->is_dir ? FBAC_OP_DIR_READ :
						     FBAC_OP_FILE_READ,
				   r->path))
		return false;
	if ((mode & W_OK) && !r->is_dir &&
	    !call_would_allow_path(c, FBAC_OP_FILE_WRITE, r->path))
		return false;
	if ((mode & W_OK) && r->is_dir) {
		if (snprintf(child, sizeof(child), "%s/fbac-access-probe",
			     strcmp(r->path, "/") ? r->path : "") >=
			    (int)sizeof(child) ||
		    !call_would_allow_path(c, FBAC_OP_FILE_CREATE, child))
			return false;
	}
	if ((mode & X_OK) && !r->is_dir &&
	    !call_would_allow_path(c, FBAC_OP_FILE_EXECUTE, r->path))
		return false;
	return true;
}

static void do_access(struct call *c, int dirfd, uint64_t path, int mode,
		      int atflags)
{
	struct resolved r;
	int err = resolve_get(c, dirfd, path, atflags & ~AT_EMPTY_PATH, &r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (syscall(SYS_faccessat2, r.fd, "", mode,
		    AT_EMPTY_PATH | (atflags & AT_EACCESS)) < 0)
		err = -errno;
	else if (!access_allowed(c, &r, mode))
		err = -EACCES; /* a question, not an attempt: no denial line */
	call_respond(c, 0, err);
	resolved_close(&r);
}

static void do_readlink(struct call *c, int dirfd, uint64_t path,
			uint64_t buf, uint64_t size)
{
	struct resolved r;
	char target[FBAC_MAX_PATH];
	ssize_t n;
	int err = resolve_get(c, dirfd, path, AT_SYMLINK_NOFOLLOW, &r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if ((int64_t)size <= 0) {
		err = -EINVAL;
		goto out;
	}
	/* One of its descriptors by /proc/self/fd/N: the link's own text
	 * (a path, "pipe:[...]", "... (deleted)"), as the kernel gives it. */
	if (r.link[0])
		n = readlink(r.link, target, sizeof(target));
	else if (r.st.st_mode && !S_ISLNK(r.st.st_mode))
		n = -1, errno = EINVAL; /* "" on O_PATH would say ENOENT */
	else
		n = readlinkat(r.fd, "", target, sizeof(target));
	if (n < 0) {
		err = -errno;
		goto out;
	}
	if ((uint64_t)n > size)
		n = (ssize_t)size;
	if (target_write(c->tid, buf, target, (size_t)n) < 0) {
		err = -EFAULT;
		goto out;
	}
	call_respond(c, n, 0);
	resolved_close(&r);
	return;
out:
	call_respond(c, 0, err);
	resolved_close(&r);
}

bool handle_meta(struct call *c)
{
	switch (c->nr) {
	case SYS_stat:
		do_stat(c, AT_FDCWD, ARG(c, 0), ARG(c, 1), 0);
		return true;
	case SYS_lstat:
		do_stat(c, AT_FDCWD, ARG(c, 0), ARG(c, 1), AT_SYMLINK_NOFOLLOW);
		return true;
	case SYS_newfstatat:
		do_stat(c, AT_FD(ARG(c, 0)), ARG(c, 1), ARG(c, 2),
			(int)ARG(c, 3));
		return true;
	case SYS_statx:
		h_statx(c);
		return true;
	case SYS_statfs:
		h_statfs(c);
		return true;
	case SYS_access:
		do_access(c, AT_FDCWD, ARG(c, 0), (int)ARG(c, 1), 0);
		return true;
	case SYS_faccessat:
		do_access(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 2), 0);
		return true;
	case SYS_faccessat2:
		do_access(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 2),
			  (int)ARG(c, 3));
		return true;
	case SYS_readlink:
		do_readlink(c, AT_FDCWD, ARG(c, 0), ARG(c, 1), ARG(c, 2));
		return true;
	case SYS_readlinkat:
		do_readlink(c, AT_FD(ARG(c, 0)), ARG(c, 1), ARG(c, 2),
			    ARG(c, 3));
		return true;
	default:
		return false;
	}
}
