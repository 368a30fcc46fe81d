/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File-system syscalls, emulated: the supervisor resolves the path,
 * decides on the kernel-resolved object, performs the call itself on
 * that object and hands back the result (a descriptor, a stat buffer,
 * a status). Only chdir and execve continue in the kernel: chdir grants
 * nothing by itself, and execve is bounded by Landlock's EXECUTE right.
 */
#include <errno.h>
#include <fcntl.h>
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
#include <linux/limits.h>

#include "sup.h"
#include "target.h"

#define ARG(c, i) ((c)->req->data.args[i])
#define AT_FD(v) ((int)(int32_t)(v))

static void fail(struct call *c, int err)
{
	respond(c, 0, err < 0 ? err : -EACCES);
}

/* Our magic-link name for one of our descriptors. */
static void fdname(char *buf, size_t size, int fd)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

/* ---- open ---- */

struct open_req {
	struct call c; /* a copy: the worker outlives the dispatch */
	struct seccomp_notif req;
	int fd;
	int flags;
	bool cloexec; /* of the descriptor the target gets */
};

static void open_blocking(void *p)
{
	struct open_req *o = p;
	char name[64];
	int fd;

	o->c.req = &o->req;
	fdname(name, sizeof(name), o->fd);
	fd = open(name, o->flags);
	if (fd < 0)
		respond(&o->c, 0, -errno);
	else {
		respond_fd(&o->c, fd, o->cloexec);
		close(fd);
	}
	close(o->fd);
	free(o);
}

/* The operations an open with these flags performs on an existing object. */
static bool decide_open(struct call *c, const struct resolved *r, int flags,
			bool created)
{
	int acc = flags & O_ACCMODE;

	if (flags & O_PATH)
		return decide_path(c, FBAC_OP_FILE_GETATTR, r->path);
	if (created && !decide_path(c, FBAC_OP_FILE_CREATE, r->path))
		return false;
	if (acc == O_RDONLY || acc == O_RDWR) {
		if (!decide_path(c, r->is_dir ? FBAC_OP_DIR_READ :
						FBAC_OP_FILE_READ,
				 r->path))
			return false;
	}
	if (acc == O_WRONLY || acc == O_RDWR) {
		/* Appending is the narrower right; a writer may append too. */
		bool ok = (flags & O_APPEND) &&
			  decide_path(c, FBAC_OP_FILE_APPEND, r->path);
		if (!ok && !decide_path(c, FBAC_OP_FILE_WRITE, r->path))
			return false;
	}
	if ((flags & O_TRUNC) && !created && acc != O_RDONLY &&
	    !decide_path(c, FBAC_OP_FILE_TRUNCATE, r->path))
		return false;
	return true;
}

static void do_open(struct call *c, int dirfd, uint64_t path, int flags,
		    mode_t mode, uint64_t resolve)
{
	struct resolved r;
	unsigned rf = RES_PARENT | RES_MAY_MISS;
	bool cloexec = flags & O_CLOEXEC;
	struct stat st;
	char name[64];
	int fd, err;

	/* RESOLVE_* asks for a stricter walk than ours: not emulated. */
	if (resolve & ~(uint64_t)(RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV)) {
		fail(c, -EOPNOTSUPP);
		return;
	}
	if (!(flags & O_NOFOLLOW))
		rf |= RES_FOLLOW;
	err = resolve_arg(c, dirfd, path, rf, &r);
	if (err < 0) {
		fail(c, err);
		return;
	}
	if (r.fd < 0) {
		/* Nothing there: create, or report what the kernel would. */
		if (!(flags & O_CREAT)) {
			fail(c, -ENOENT);
			goto out;
		}
		if (!decide_open(c, &r, flags, true)) {
			fail(c, -EACCES);
			goto out;
		}
		{
			mode_t old = umask(target_umask(c->tid));

			/* Never through a dangling symlink: it would create
			 * a file somewhere nobody decided on. */
			fd = openat(r.parent_fd, r.leaf,
				    (flags & ~O_PATH) | O_NOFOLLOW | O_CLOEXEC |
					    O_NOCTTY,
				    mode);
			err = fd < 0 ? -errno : 0;
			umask(old);
		}
		if (fd < 0) {
			fail(c, err);
			goto out;
		}
		if (call_valid(c))
			respond_fd(c, fd, cloexec);
		close(fd);
		goto out;
	}
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		fail(c, -EEXIST);
		goto out;
	}
	if ((flags & O_NOFOLLOW) && !(flags & O_PATH) &&
	    fstat(r.fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		fail(c, -ELOOP);
		goto out;
	}
	if ((flags & O_DIRECTORY) && !r.is_dir) {
		fail(c, -ENOTDIR);
		goto out;
	}
	if (!decide_open(c, &r, flags, false)) {
		fail(c, -EACCES);
		goto out;
	}
	if (flags & O_PATH) {
		respond_fd(c, r.fd, cloexec);
		goto out;
	}
	fdname(name, sizeof(name), r.fd);
	flags &= ~(O_CREAT | O_EXCL | O_NOFOLLOW);
	flags |= O_NOCTTY | O_CLOEXEC;
	/* A FIFO without O_NONBLOCK waits for its peer: not on our thread. */
	if (fstat(r.fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    !(flags & O_NONBLOCK)) {
		struct open_req *o = calloc(1, sizeof(*o));

		if (!o) {
			fail(c, -ENOMEM);
			goto out;
		}
		o->c = *c;
		o->req = *c->req;
		o->fd = r.fd;
		o->flags = flags;
		o->cloexec = cloexec;
		r.fd = -1;
		if ((err = run_slow(open_blocking, o)) < 0) {
			close(o->fd);
			free(o);
			fail(c, err);
		}
		goto out;
	}
	fd = open(name, flags);
	if (fd < 0) {
		fail(c, -errno);
		goto out;
	}
	respond_fd(c, fd, cloexec);
	close(fd);
out:
	resolved_close(&r);
}

static void h_openat2(struct call *c)
{
	struct open_how how = { 0 };
	uint64_t size = ARG(c, 3);

	if (size < sizeof(how) - 0 && size != 24) {
		fail(c, -EINVAL);
		return;
	}
	if (size > 4096) {
		fail(c, -E2BIG);
		return;
	}
	if (target_read(c->tid, ARG(c, 2), &how, sizeof(how)) < 0) {
		fail(c, -EFAULT);
		return;
	}
	/* A bigger struct must be zero beyond what we know. */
	if (size > sizeof(how)) {
		char extra[4096];

		if (target_read(c->tid, ARG(c, 2) + sizeof(how), extra,
				size - sizeof(how)) < 0) {
			fail(c, -EFAULT);
			return;
		}
		for (size_t i = 0; i < size - sizeof(how); i++)
			if (extra[i]) {
				fail(c, -E2BIG);
				return;
			}
	}
	if (how.flags >> 32) {
		fail(c, -EINVAL);
		return;
	}
	do_open(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)how.flags,
		(mode_t)how.mode, how.resolve);
}

/* ---- metadata ---- */

static int resolve_get(struct call *c, int dirfd, uint64_t path, int atflags,
		       struct resolved *r)
{
	unsigned rf = 0;
	int err;

	if (!(atflags & AT_SYMLINK_NOFOLLOW))
		rf |= RES_FOLLOW;
	if (atflags & AT_EMPTY_PATH)
		rf |= RES_EMPTY_OK;
	err = resolve_arg(c, dirfd, path, rf, r);
	if (err < 0)
		return err;
	/* fstat() of its own descriptor reveals nothing new to the program. */
	if (r->held)
		return 0;
	if (!decide_path(c, FBAC_OP_FILE_GETATTR, r->path)) {
		resolved_close(r);
		return -EACCES;
	}
	return 0;
}

static void do_stat(struct call *c, int dirfd, uint64_t path, uint64_t buf,
		    int atflags)
{
	struct resolved r;
	struct stat st;
	int err = resolve_get(c, dirfd, path, atflags, &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (fstatat(r.fd, "", &st, AT_EMPTY_PATH) < 0)
		err = -errno;
	else if (target_write(c->tid, buf, &st, sizeof(st)) < 0)
		err = -EFAULT;
	resolved_close(&r);
	respond(c, 0, err);
}

static void h_statx(struct call *c)
{
	struct resolved r;
	struct statx stx;
	int flags = (int)ARG(c, 2);
	int err = resolve_get(c, AT_FD(ARG(c, 0)), ARG(c, 1), flags, &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (statx(r.fd, "",
		  AT_EMPTY_PATH | (flags & (AT_STATX_SYNC_TYPE)),
		  (unsigned)ARG(c, 3), &stx) < 0)
		err = -errno;
	else if (target_write(c->tid, ARG(c, 4), &stx, sizeof(stx)) < 0)
		err = -EFAULT;
	resolved_close(&r);
	respond(c, 0, err);
}

static void h_statfs(struct call *c)
{
	struct resolved r;
	struct statfs sf;
	int err = resolve_get(c, AT_FDCWD, ARG(c, 0), 0, &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (fstatfs(r.fd, &sf) < 0)
		err = -errno;
	else if (target_write(c->tid, ARG(c, 1), &sf, sizeof(sf)) < 0)
		err = -EFAULT;
	resolved_close(&r);
	respond(c, 0, err);
}

static void do_access(struct call *c, int dirfd, uint64_t path, int mode,
		      int atflags)
{
	struct resolved r;
	int err = resolve_get(c, dirfd, path, atflags & ~AT_EMPTY_PATH, &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (syscall(SYS_faccessat2, r.fd, "", mode,
		    AT_EMPTY_PATH | (atflags & AT_EACCESS)) < 0)
		err = -errno;
	resolved_close(&r);
	respond(c, 0, err);
}

static void do_readlink(struct call *c, int dirfd, uint64_t path,
			uint64_t buf, uint64_t size)
{
	struct resolved r;
	char target[FBAC_MAX_PATH];
	ssize_t n;
	int err = resolve_get(c, dirfd, path, AT_SYMLINK_NOFOLLOW, &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if ((int64_t)size <= 0) {
		err = -EINVAL;
		goto out;
	}
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
	resolved_close(&r);
	respond(c, n, 0);
	return;
out:
	resolved_close(&r);
	respond(c, 0, err);
}

/* ---- creation and removal ---- */

/* Resolve the parent of a name to create or remove; decide op on it. */
static int resolve_entry(struct call *c, int dirfd, uint64_t path,
			 enum fbac_op op, struct resolved *r)
{
	int err = resolve_arg(c, dirfd, path, RES_PARENT | RES_MAY_MISS, r);

	if (err < 0)
		return err;
	if (!decide_path(c, op, r->path)) {
		resolved_close(r);
		return -EACCES;
	}
	return 0;
}

static void do_mkdir(struct call *c, int dirfd, uint64_t path, mode_t mode)
{
	struct resolved r;
	int err = resolve_entry(c, dirfd, path, FBAC_OP_DIR_MKDIR, &r);
	mode_t old;

	if (err < 0) {
		fail(c, err);
		return;
	}
	old = umask(target_umask(c->tid));
	if (mkdirat(r.parent_fd, r.leaf, mode) < 0)
		err = -errno;
	umask(old);
	resolved_close(&r);
	respond(c, 0, err);
}

static void do_mknod(struct call *c, int dirfd, uint64_t path, mode_t mode,
		     dev_t dev)
{
	enum fbac_op op = (mode & S_IFMT) == S_IFREG || !(mode & S_IFMT) ?
				  FBAC_OP_FILE_CREATE :
				  FBAC_OP_SPECIAL_CREATE;
	struct resolved r;
	int err = resolve_entry(c, dirfd, path, op, &r);
	mode_t old;

	if (err < 0) {
		fail(c, err);
		return;
	}
	old = umask(target_umask(c->tid));
	if (mknodat(r.parent_fd, r.leaf, mode, dev) < 0)
		err = -errno;
	umask(old);
	resolved_close(&r);
	respond(c, 0, err);
}

static void do_unlink(struct call *c, int dirfd, uint64_t path, int flags)
{
	struct resolved r;
	int err = resolve_entry(c, dirfd, path,
				(flags & AT_REMOVEDIR) ? FBAC_OP_DIR_RMDIR :
							 FBAC_OP_FILE_DELETE,
				&r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (unlinkat(r.parent_fd, r.leaf, flags & AT_REMOVEDIR) < 0)
		err = -errno;
	resolved_close(&r);
	respond(c, 0, err);
}

static void do_rename(struct call *c, int odir, uint64_t old, int ndir,
		      uint64_t new, unsigned flags)
{
	struct resolved a, b;
	int err = resolve_entry(c, odir, old, FBAC_OP_FILE_RENAME, &a);

	if (err < 0) {
		fail(c, err);
		return;
	}
	err = resolve_entry(c, ndir, new, FBAC_OP_FILE_RENAME, &b);
	if (err < 0) {
		resolved_close(&a);
		fail(c, err);
		return;
	}
	if (syscall(SYS_renameat2, a.parent_fd, a.leaf, b.parent_fd, b.leaf,
		    flags) < 0)
		err = -errno;
	resolved_close(&a);
	resolved_close(&b);
	respond(c, 0, err);
}

static void do_link(struct call *c, int odir, uint64_t old, int ndir,
		    uint64_t new, int flags)
{
	struct resolved a, b;
	int err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH)) {
		fail(c, -EINVAL);
		return;
	}
	/* Linking an open descriptor (AT_EMPTY_PATH) needs privileges we
	 * do not lend; following symlinks changes what is linked. */
	if (flags) {
		fail(c, -EOPNOTSUPP);
		return;
	}
	err = resolve_entry(c, odir, old, FBAC_OP_FILE_LINK, &a);
	if (err < 0) {
		fail(c, err);
		return;
	}
	err = resolve_entry(c, ndir, new, FBAC_OP_FILE_LINK, &b);
	if (err < 0) {
		resolved_close(&a);
		fail(c, err);
		return;
	}
	if (linkat(a.parent_fd, a.leaf, b.parent_fd, b.leaf, 0) < 0)
		err = -errno;
	resolved_close(&a);
	resolved_close(&b);
	respond(c, 0, err);
}

static void do_symlink(struct call *c, uint64_t target, int ndir,
		       uint64_t path)
{
	char content[FBAC_MAX_PATH];
	struct resolved r;
	int err = target_read_string(c->tid, target, content, sizeof(content));

	if (err < 0) {
		fail(c, err);
		return;
	}
	err = resolve_entry(c, ndir, path, FBAC_OP_SPECIAL_CREATE, &r);
	if (err < 0) {
		fail(c, err);
		return;
	}
	if (symlinkat(content, r.parent_fd, r.leaf) < 0)
		err = -errno;
	resolved_close(&r);
	respond(c, 0, err);
}

/* ---- attributes ---- */

static int resolve_set(struct call *c, int dirfd, uint64_t path, int atflags,
		       enum fbac_op op, struct resolved *r)
{
	unsigned rf = RES_FOLLOW;
	int err;

	if (atflags & AT_SYMLINK_NOFOLLOW)
		rf = 0;
	if (atflags & AT_EMPTY_PATH)
		rf |= RES_EMPTY_OK;
	err = resolve_arg(c, dirfd, path, rf, r);
	if (err < 0)
		return err;
	if (!decide_path(c, op, r->path)) {
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
			      &r);
	struct stat st;

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (fstat(r.fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		err = -EOPNOTSUPP; /* as the kernel says for symlinks */
	} else {
		fdname(name, sizeof(name), r.fd);
		if (chmod(name, mode) < 0)
			err = -errno;
	}
	resolved_close(&r);
	respond(c, 0, err);
}

static void do_chown(struct call *c, int dirfd, uint64_t path, uid_t uid,
		     gid_t gid, int atflags)
{
	struct resolved r;
	int err = resolve_set(c, dirfd, path, atflags, FBAC_OP_FILE_SETATTR,
			      &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (fchownat(r.fd, "", uid, gid, AT_EMPTY_PATH) < 0)
		err = -errno;
	resolved_close(&r);
	respond(c, 0, err);
}

static void h_truncate(struct call *c)
{
	struct resolved r;
	char name[64];
	int err = resolve_set(c, AT_FDCWD, ARG(c, 0), 0, FBAC_OP_FILE_TRUNCATE,
			      &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	fdname(name, sizeof(name), r.fd);
	if (truncate(name, (off_t)ARG(c, 1)) < 0)
		err = -errno;
	resolved_close(&r);
	respond(c, 0, err);
}

static void do_utimens(struct call *c, int dirfd, uint64_t path,
		       const struct timespec *ts, int atflags)
{
	struct resolved r;
	char name[64];
	struct stat st;
	int err = resolve_set(c, dirfd, path, atflags | (path ? 0 : AT_EMPTY_PATH),
			      FBAC_OP_FILE_SETATTR, &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (fstat(r.fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		err = -EOPNOTSUPP;
	} else {
		fdname(name, sizeof(name), r.fd);
		if (utimensat(AT_FDCWD, name, ts, 0) < 0)
			err = -errno;
	}
	resolved_close(&r);
	respond(c, 0, err);
}

static void h_utimensat(struct call *c)
{
	struct timespec ts[2];

	if (ARG(c, 2) &&
	    target_read(c->tid, ARG(c, 2), ts, sizeof(ts)) < 0) {
		fail(c, -EFAULT);
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
			fail(c, -EFAULT);
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
			fail(c, -EFAULT);
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
		fail(c, err == -ENAMETOOLONG ? -ERANGE : err);
		return;
	}
	err = resolve_set(c, AT_FDCWD, ARG(c, 0),
			  nofollow ? AT_SYMLINK_NOFOLLOW : 0,
			  set ? FBAC_OP_FILE_SETATTR : FBAC_OP_FILE_GETATTR, &r);
	if (err < 0) {
		fail(c, err);
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
	respond(c, err ? 0 : n, err);
}

/* ---- calls that continue in the kernel ---- */

static void h_chdir(struct call *c)
{
	struct resolved r;
	int err = resolve_arg(c, AT_FDCWD, ARG(c, 0), RES_FOLLOW, &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	/* The working directory grants nothing: every later access is
	 * resolved and decided again. So continuing is safe. */
	if (!r.is_dir)
		err = -ENOTDIR;
	else if (!decide_path(c, FBAC_OP_FILE_GETATTR, r.path))
		err = -EACCES;
	resolved_close(&r);
	if (err)
		fail(c, err);
	else
		respond_continue(c);
}

static void do_exec(struct call *c, int dirfd, uint64_t path, int flags)
{
	struct resolved r;
	unsigned rf = (flags & AT_SYMLINK_NOFOLLOW) ? 0 : RES_FOLLOW;
	int err;

	if (flags & AT_EMPTY_PATH)
		rf |= RES_EMPTY_OK;
	err = resolve_arg(c, dirfd, path, rf, &r);
	if (err < 0) {
		/* memfd, deleted files and other pathless programs: refused. */
		fail(c, err == -ENOENT || err == -EFAULT || err == -ENOTDIR ?
				err :
				-EACCES);
		return;
	}
	err = decide_path(c, FBAC_OP_FILE_EXECUTE, r.path) ? 0 : -EACCES;
	resolved_close(&r);
	/* Landlock's EXECUTE right bounds what a swapped path could reach. */
	if (err)
		fail(c, err);
	else
		respond_continue(c);
}

static void h_inotify(struct call *c)
{
	uint32_t mask = (uint32_t)ARG(c, 2);
	struct resolved r;
	char name[64];
	int ifd, wd, err;

	err = resolve_arg(c, AT_FDCWD, ARG(c, 1),
			  (mask & IN_DONT_FOLLOW) ? 0 : RES_FOLLOW, &r);
	if (err < 0) {
		fail(c, err);
		return;
	}
	if (!decide_path(c, r.is_dir ? FBAC_OP_DIR_READ : FBAC_OP_FILE_GETATTR,
			 r.path)) {
		resolved_close(&r);
		fail(c, -EACCES);
		return;
	}
	ifd = target_getfd(c->tid, (int)ARG(c, 0));
	if (ifd < 0) {
		resolved_close(&r);
		fail(c, ifd);
		return;
	}
	fdname(name, sizeof(name), r.fd);
	wd = inotify_add_watch(ifd, name, mask & ~IN_DONT_FOLLOW);
	err = wd < 0 ? -errno : 0;
	close(ifd);
	resolved_close(&r);
	respond(c, wd < 0 ? 0 : wd, err);
}

void handle_file(struct call *c)
{
	switch (c->nr) {
	case SYS_open:
		do_open(c, AT_FDCWD, ARG(c, 0), (int)ARG(c, 1),
			(mode_t)ARG(c, 2), 0);
		return;
	case SYS_openat:
		do_open(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 2),
			(mode_t)ARG(c, 3), 0);
		return;
	case SYS_creat:
		do_open(c, AT_FDCWD, ARG(c, 0), O_CREAT | O_WRONLY | O_TRUNC,
			(mode_t)ARG(c, 1), 0);
		return;
	case SYS_openat2:
		h_openat2(c);
		return;
	case SYS_stat:
		do_stat(c, AT_FDCWD, ARG(c, 0), ARG(c, 1), 0);
		return;
	case SYS_lstat:
		do_stat(c, AT_FDCWD, ARG(c, 0), ARG(c, 1), AT_SYMLINK_NOFOLLOW);
		return;
	case SYS_newfstatat:
		do_stat(c, AT_FD(ARG(c, 0)), ARG(c, 1), ARG(c, 2),
			(int)ARG(c, 3));
		return;
	case SYS_statx:
		h_statx(c);
		return;
	case SYS_statfs:
		h_statfs(c);
		return;
	case SYS_access:
		do_access(c, AT_FDCWD, ARG(c, 0), (int)ARG(c, 1), 0);
		return;
	case SYS_faccessat:
		do_access(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 2), 0);
		return;
	case SYS_faccessat2:
		do_access(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 2),
			  (int)ARG(c, 3));
		return;
	case SYS_readlink:
		do_readlink(c, AT_FDCWD, ARG(c, 0), ARG(c, 1), ARG(c, 2));
		return;
	case SYS_readlinkat:
		do_readlink(c, AT_FD(ARG(c, 0)), ARG(c, 1), ARG(c, 2),
			    ARG(c, 3));
		return;
	case SYS_mkdir:
		do_mkdir(c, AT_FDCWD, ARG(c, 0), (mode_t)ARG(c, 1));
		return;
	case SYS_mkdirat:
		do_mkdir(c, AT_FD(ARG(c, 0)), ARG(c, 1), (mode_t)ARG(c, 2));
		return;
	case SYS_mknod:
		do_mknod(c, AT_FDCWD, ARG(c, 0), (mode_t)ARG(c, 1),
			 (dev_t)ARG(c, 2));
		return;
	case SYS_mknodat:
		do_mknod(c, AT_FD(ARG(c, 0)), ARG(c, 1), (mode_t)ARG(c, 2),
			 (dev_t)ARG(c, 3));
		return;
	case SYS_unlink:
		do_unlink(c, AT_FDCWD, ARG(c, 0), 0);
		return;
	case SYS_rmdir:
		do_unlink(c, AT_FDCWD, ARG(c, 0), AT_REMOVEDIR);
		return;
	case SYS_unlinkat:
		do_unlink(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 2));
		return;
	case SYS_rename:
		do_rename(c, AT_FDCWD, ARG(c, 0), AT_FDCWD, ARG(c, 1), 0);
		return;
	case SYS_renameat:
		do_rename(c, AT_FD(ARG(c, 0)), ARG(c, 1), AT_FD(ARG(c, 2)),
			  ARG(c, 3), 0);
		return;
	case SYS_renameat2:
		do_rename(c, AT_FD(ARG(c, 0)), ARG(c, 1), AT_FD(ARG(c, 2)),
			  ARG(c, 3), (unsigned)ARG(c, 4));
		return;
	case SYS_link:
		do_link(c, AT_FDCWD, ARG(c, 0), AT_FDCWD, ARG(c, 1), 0);
		return;
	case SYS_linkat:
		do_link(c, AT_FD(ARG(c, 0)), ARG(c, 1), AT_FD(ARG(c, 2)),
			ARG(c, 3), (int)ARG(c, 4));
		return;
	case SYS_symlink:
		do_symlink(c, ARG(c, 0), AT_FDCWD, ARG(c, 1));
		return;
	case SYS_symlinkat:
		do_symlink(c, ARG(c, 0), AT_FD(ARG(c, 1)), ARG(c, 2));
		return;
	case SYS_chmod:
		do_chmod(c, AT_FDCWD, ARG(c, 0), (mode_t)ARG(c, 1), 0);
		return;
	case SYS_fchmodat:
		do_chmod(c, AT_FD(ARG(c, 0)), ARG(c, 1), (mode_t)ARG(c, 2), 0);
		return;
	case 452: /* fchmodat2 */
		do_chmod(c, AT_FD(ARG(c, 0)), ARG(c, 1), (mode_t)ARG(c, 2),
			 (int)ARG(c, 3));
		return;
	case SYS_chown:
		do_chown(c, AT_FDCWD, ARG(c, 0), (uid_t)ARG(c, 1),
			 (gid_t)ARG(c, 2), 0);
		return;
	case SYS_lchown:
		do_chown(c, AT_FDCWD, ARG(c, 0), (uid_t)ARG(c, 1),
			 (gid_t)ARG(c, 2), AT_SYMLINK_NOFOLLOW);
		return;
	case SYS_fchownat:
		do_chown(c, AT_FD(ARG(c, 0)), ARG(c, 1), (uid_t)ARG(c, 2),
			 (gid_t)ARG(c, 3), (int)ARG(c, 4));
		return;
	case SYS_truncate:
		h_truncate(c);
		return;
	case SYS_utime:
		h_utime(c);
		return;
	case SYS_utimes:
		h_utimes(c, AT_FDCWD, ARG(c, 0), ARG(c, 1));
		return;
	case SYS_futimesat:
		h_utimes(c, AT_FD(ARG(c, 0)), ARG(c, 1), ARG(c, 2));
		return;
	case SYS_utimensat:
		h_utimensat(c);
		return;
	case SYS_getxattr:
	case SYS_setxattr:
	case SYS_removexattr:
	case SYS_listxattr:
		do_xattr(c, false);
		return;
	case SYS_lgetxattr:
	case SYS_lsetxattr:
	case SYS_lremovexattr:
	case SYS_llistxattr:
		do_xattr(c, true);
		return;
	case SYS_chdir:
		h_chdir(c);
		return;
	case SYS_execve:
		do_exec(c, AT_FDCWD, ARG(c, 0), 0);
		return;
	case SYS_execveat:
		do_exec(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 4));
		return;
	case SYS_inotify_add_watch:
		h_inotify(c);
		return;
	default:
		/* A notified syscall without a handler is refused. */
		respond(c, 0, -ENOSYS);
	}
}
