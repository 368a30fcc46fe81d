/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Changing metadata: chmod, chown, truncate, utimes, xattrs, by path and
 * by descriptor, performed on the decided object.
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

/* ---- attributes ---- */

static int resolve_set(struct call *c, int dirfd, uint64_t path, int atflags,
		       enum fbac_op op, bool owner_op, struct resolved *r)
{
	unsigned rf = RES_FOLLOW;
	int err;

	if (atflags & AT_SYMLINK_NOFOLLOW)
		rf = 0;
	if (atflags & AT_EMPTY_PATH)
		rf |= RES_EMPTY_OK;
	err = call_resolve_arg(c, dirfd, path, rf, r);
	if (err < 0)
		return err;
	/*
	 * A chmod or chown the kernel would refuse anyway (not the owner, no
	 * capability) gets the kernel's EPERM, not a denial: fbac did not
	 * cause it. fontconfig, for one, tries chmod on the root-owned
	 * /var/cache/fontconfig before it falls back to ~/.cache. Only where
	 * the program may read the file's owner anyway (file_getattr), so
	 * the answer reveals nothing the policy hides.
	 */
	if (owner_op && r->fd >= 0 &&
	    target_kernel_refuses_owner_op(c->tid, r->st.st_uid) &&
	    call_would_allow_path(c, FBAC_OP_FILE_GETATTR, r->path)) {
		/* Unless root started it: our refusal then (sup-dac.c). */
		if (c->s->dac_dropped && call_would_allow_path(c, op, r->path))
			call_tell_unowned(c, op, r, (uid_t)-1);
		resolved_close(r);
		return -EPERM;
	}
	if (!call_decide_path(c, op, r->path) ||
	    (op == FBAC_OP_FILE_SETATTR && !call_pty_allowed(c, op, r))) {
		resolved_close(r);
		return -EACCES;
	}
	return 0;
}

static void do_chmod(struct call *c, int dirfd, uint64_t path, mode_t mode,
		     int atflags)
{
	struct resolved r;
	char name[64];
	int err = resolve_set(c, dirfd, path, atflags, FBAC_OP_FILE_SETATTR,
			      true, &r);
	struct stat st;

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (fstat(r.fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		err = -EOPNOTSUPP; /* as the kernel says for symlinks */
	} else {
		fdname(name, sizeof(name), r.fd);
		if (chmod(name, mode) < 0)
			err = -errno;
	}
	if (err == -EPERM)
		call_tell_unowned(c, FBAC_OP_FILE_SETATTR, &r, (uid_t)-1);
	resolved_close(&r);
	call_respond(c, 0, err);
}

static void do_chown(struct call *c, int dirfd, uint64_t path, uid_t uid,
		     gid_t gid, int atflags)
{
	struct resolved r;
	/* chown(-1, -1) changes nothing and the kernel lets anyone. */
	int err = resolve_set(c, dirfd, path, atflags, FBAC_OP_FILE_SETATTR,
			      uid != (uid_t)-1 || gid != (gid_t)-1, &r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (fchownat(r.fd, "", uid, gid, AT_EMPTY_PATH) < 0)
		err = -errno;
	if (err == -EPERM)
		call_tell_unowned(c, FBAC_OP_FILE_SETATTR, &r, uid);
	resolved_close(&r);
	call_respond(c, 0, err);
}

static void h_truncate(struct call *c)
{
	struct resolved r;
	char name[64];
	int err = resolve_set(c, AT_FDCWD, ARG(c, 0), 0, FBAC_OP_FILE_TRUNCATE,
			      false, &r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	fdname(name, sizeof(name), r.fd);
	if (truncate(name, (off_t)ARG(c, 1)) < 0)
		err = -errno;
	if (err == -EACCES)
		call_tell_dac(c, FBAC_OP_FILE_TRUNCATE, r.path, r.fd, W_OK);
	resolved_close(&r);
	call_respond(c, 0, err);
}

static void do_utimens(struct call *c, int dirfd, uint64_t path,
		       const struct timespec *ts, int atflags)
{
	struct resolved r;
	char name[64];
	struct stat st;
	int err = resolve_set(c, dirfd, path, atflags | (path ? 0 : AT_EMPTY_PATH),
			      FBAC_OP_FILE_SETATTR, false, &r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (fstat(r.fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		err = -EOPNOTSUPP;
	} else {
		fdname(name, sizeof(name), r.fd);
		if (utimensat(AT_FDCWD, name, ts, 0) < 0)
			err = -errno;
	}
	if (err == -EPERM)
		call_tell_unowned(c, FBAC_OP_FILE_SETATTR, &r, (uid_t)-1);
	else if (err == -EACCES)
		call_tell_dac(c, FBAC_OP_FILE_SETATTR, r.path, r.fd, W_OK);
	resolved_close(&r);
	call_respond(c, 0, err);
}

static void h_utimensat(struct call *c)
{
	struct timespec ts[2];

	if (ARG(c, 2) &&
	    target_read(c->tid, ARG(c, 2), ts, sizeof(ts)) < 0) {
		call_fail(c, -EFAULT);
		return;
	}
	do_utimens(c, AT_FD(ARG(c, 0)), ARG(c, 1), ARG(c, 2) ? ts : NULL,
		   (int)ARG(c, 3));
}

static void h_utimes(struct call *c, int dirfd, uint64_t path, uint64_t tv)
{
	struct timeval t[2];
	struct timespec ts[2];

	if (tv) {
		if (target_read(c->tid, tv, t, sizeof(t)) < 0) {
			call_fail(c, -EFAULT);
			return;
		}
		for (int i = 0; i < 2; i++) {
			ts[i].tv_sec = t[i].tv_sec;
			ts[i].tv_nsec = t[i].tv_usec * 1000;
		}
	}
	do_utimens(c, dirfd, path, tv ? ts : NULL, 0);
}

static void h_utime(struct call *c)
{
	struct utimbuf u;
	struct timespec ts[2];

	if (ARG(c, 1)) {
		if (target_read(c->tid, ARG(c, 1), &u, sizeof(u)) < 0) {
			call_fail(c, -EFAULT);
			return;
		}
		ts[0] = (struct timespec){ u.actime, 0 };
		ts[1] = (struct timespec){ u.modtime, 0 };
	}
	do_utimens(c, AT_FDCWD, ARG(c, 0), ARG(c, 1) ? ts : NULL, 0);
}

static void do_xattr(struct call *c, bool nofollow)
{
	int nr = c->nr;
	bool set = nr == SYS_setxattr || nr == SYS_lsetxattr ||
		   nr == SYS_removexattr || nr == SYS_lremovexattr;
	bool list = nr == SYS_listxattr || nr == SYS_llistxattr;
	struct resolved r;
	char name[256], fname[64];
	_cleanup_free_ char *value = NULL;
	struct stat st;
	ssize_t n = 0;
	uint64_t size;
	int err;

	if (!list && (err = target_read_string(c->tid, ARG(c, 1), name,
					       sizeof(name))) < 0) {
		call_fail(c, err == -ENAMETOOLONG ? -ERANGE : err);
		return;
	}
	err = resolve_set(c, AT_FDCWD, ARG(c, 0),
			  nofollow ? AT_SYMLINK_NOFOLLOW : 0,
			  set ? FBAC_OP_FILE_SETATTR : FBAC_OP_FILE_GETATTR,
			  false, &r);
	if (err < 0) {
		call_fail(c, err);
		return;
	}
	/* Symlinks carry no user attributes; we do not emulate the rest. */
	if (fstat(r.fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		err = set ? -EPERM : -ENODATA;
		if (list)
			n = 0, err = 0;
		goto out;
	}
	fdname(fname, sizeof(fname), r.fd);
	size = list ? ARG(c, 2) : ARG(c, 3);
	if (size > XATTR_SIZE_MAX)
		size = XATTR_SIZE_MAX;
	if (size) {
		value = malloc(size);
		if (!value) {
			err = -ENOMEM;
			goto out;
		}
	}
	if (nr == SYS_setxattr || nr == SYS_lsetxattr) {
		if (target_read(c->tid, ARG(c, 2), value, size) < 0) {
			err = -EFAULT;
			goto out;
		}
		if (setxattr(fname, name, value, size, (int)ARG(c, 4)) < 0)
			err = -errno;
	} else if (nr == SYS_removexattr || nr == SYS_lremovexattr) {
		if (removexattr(fname, name) < 0)
			err = -errno;
	} else if (list) {
		n = listxattr(fname, value, size);
		if (n < 0)
			err = -errno;
		else if (size && target_write(c->tid, ARG(c, 1), value,
					      (size_t)n) < 0)
			err = -EFAULT;
	} else {
		n = getxattr(fname, name, value, size);
		if (n < 0)
			err = -errno;
		else if (size && target_write(c->tid, ARG(c, 2), value,
					      (size_t)n) < 0)
			err = -EFAULT;
	}
out:
	resolved_close(&r);
	call_respond(c, err ? 0 : n, err);
}

/*
 * fchmod, fchown, fsetxattr, fremovexattr: the program holds the
 * descriptor, but holding it (perhaps read-only) is no licence to change
 * what it names. A copy of the descriptor is decided on and changed, so
 * a dup2() behind our back changes nothing.
 */
static void h_fd_setattr(struct call *c)
{
	char name[256], path[FBAC_MAX_PATH], link[64];
	_cleanup_free_ char *value = NULL;
	int fd, err = 0;
	ssize_t n;

	fd = target_getfd(c->tid, (int)ARG(c, 0));
	if (fd < 0) {
		call_fail(c, fd);
		return;
	}
	fdname(link, sizeof(link), fd);
	n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = 0;
	/* Pipes, sockets, memfds and deleted files have no path to protect
	 * (a memfd reads "/memfd:name (deleted)"). */
	if (path[0] == '/' && strncmp(path, "/memfd:", 7) &&
	    !(n > 0 && deleted_name(path, (size_t)n)) &&
	    !call_decide_path(c, FBAC_OP_FILE_SETATTR, path)) {
		err = -EACCES;
		goto out;
	}
	switch (c->nr) {
	case SYS_fchmod:
		if (fchmod(fd, (mode_t)ARG(c, 1)) < 0)
			err = -errno;
		break;
	case SYS_fchown:
		if (fchown(fd, (uid_t)ARG(c, 1), (gid_t)ARG(c, 2)) < 0)
			err = -errno;
		break;
	case SYS_fsetxattr:
	case SYS_fremovexattr:
		if ((err = target_read_string(c->tid, ARG(c, 1), name,
					      sizeof(name))) < 0) {
			err = err == -ENAMETOOLONG ? -ERANGE : err;
			break;
		}
		err = 0;
		if (c->nr == SYS_fremovexattr) {
			if (fremovexattr(fd, name) < 0)
				err = -errno;
			break;
		}
		if (ARG(c, 3) > XATTR_SIZE_MAX) {
			err = -E2BIG;
			break;
		}
		value = malloc(ARG(c, 3) ? ARG(c, 3) : 1);
		if (!value) {
			err = -ENOMEM;
			break;
		}
		if (target_read(c->tid, ARG(c, 2), value, ARG(c, 3)) < 0)
			err = -EFAULT;
		else if (fsetxattr(fd, name, value, ARG(c, 3), (int)ARG(c, 4)) <
			 0)
			err = -errno;
		break;
	default:
		err = -ENOSYS;
	}
out:
	close(fd);
	call_respond(c, 0, err);
}

bool handle_attr(struct call *c)
{
	switch (c->nr) {
	case SYS_chmod:
		do_chmod(c, AT_FDCWD, ARG(c, 0), (mode_t)ARG(c, 1), 0);
		return true;
	case SYS_fchmodat:
		do_chmod(c, AT_FD(ARG(c, 0)), ARG(c, 1), (mode_t)ARG(c, 2), 0);
		return true;
	case SYS_chown:
		do_chown(c, AT_FDCWD, ARG(c, 0), (uid_t)ARG(c, 1),
			 (gid_t)ARG(c, 2), 0);
		return true;
	case SYS_lchown:
		do_chown(c, AT_FDCWD, ARG(c, 0), (uid_t)ARG(c, 1),
			 (gid_t)ARG(c, 2), AT_SYMLINK_NOFOLLOW);
		return true;
	case SYS_fchownat:
		do_chown(c, AT_FD(ARG(c, 0)), ARG(c, 1), (uid_t)ARG(c, 2),
			 (gid_t)ARG(c, 3), (int)ARG(c, 4));
		return true;
	case SYS_truncate:
		h_truncate(c);
		return true;
	case SYS_utime:
		h_utime(c);
		return true;
	case SYS_utimes:
		h_utimes(c, AT_FDCWD, ARG(c, 0), ARG(c, 1));
		return true;
	case SYS_futimesat:
		h_utimes(c, AT_FD(ARG(c, 0)), ARG(c, 1), ARG(c, 2));
		return true;
	case SYS_utimensat:
		h_utimensat(c);
		return true;
	case SYS_getxattr:
	case SYS_setxattr:
	case SYS_removexattr:
	case SYS_listxattr:
		do_xattr(c, false);
		return true;
	case SYS_lgetxattr:
	case SYS_lsetxattr:
	case SYS_lremovexattr:
	case SYS_llistxattr:
		do_xattr(c, true);
		return true;
	case SYS_fchmod:
	case SYS_fchown:
	case SYS_fsetxattr:
	case SYS_fremovexattr:
		h_fd_setattr(c);
		return true;
	case 452: /* fchmodat2, newer than our headers */
		/* Its flags, as the kernel checks them. */
		if (ARG(c, 3) & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) {
			call_respond(c, 0, -EINVAL);
			return true;
		}
		do_chmod(c, AT_FD(ARG(c, 0)), ARG(c, 1), (mode_t)ARG(c, 2),
			 (int)ARG(c, 3));
		return true;
	default:
		return false;
	}
}
