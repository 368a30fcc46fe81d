/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * open, openat, openat2, creat: the supervisor resolves the path, decides
 * on the kernel-resolved object, opens it itself and injects the
 * descriptor (ADDFD|SEND). Creation goes through the pinned parent.
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
#include "output.h"
#include "path.h"
#include "sup-handlers.h"
#include "target.h"

/* ---- open ---- */

struct open_req {
	struct call c; /* a copy: the worker outlives the dispatch */
	struct seccomp_notif req;
	int fd;
	int flags;
	bool cloexec; /* of the descriptor the target gets */
	mode_t mode;
	char path[FBAC_MAX_PATH];
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
		call_respond(&o->c, 0, -errno);
	else {
		call_tell_device_ioctls(&o->c, fd, o->mode, o->path);
		call_inject_fd(&o->c, fd, o->cloexec);
		close(fd);
	}
	close(o->fd);
	free(o);
}

/* Finish an open that may wait in a worker; it takes r's descriptor. */
static void open_in_worker(struct call *c, struct resolved *r, int flags,
			   bool cloexec)
{
	struct open_req *o = calloc(1, sizeof(*o));
	int err;

	if (!o) {
		call_fail(c, -ENOMEM);
		return;
	}
	o->c = *c;
	o->req = *c->req;
	o->fd = r->fd;
	o->flags = flags;
	o->cloexec = cloexec;
	o->mode = r->st.st_mode;
	memcpy(o->path, r->path, sizeof(o->path));
	r->fd = -1;
	if ((err = call_run_slow(c, open_blocking, o)) < 0) {
		close(o->fd);
		free(o);
		call_fail(c, err);
	}
}

/* The operations an open with these flags performs on an existing object. */
static bool decide_open(struct call *c, const struct resolved *r, int flags,
			bool created)
{
	int acc = flags & O_ACCMODE;

	if (r->held && !r->path[0])
		return true; /* reopening its own pipe: nothing new */
	if (flags & O_PATH)
		return call_decide_getattr(c, r->path);
	if (created && !call_decide_path(c, FBAC_OP_FILE_CREATE, r->path))
		return false;
	/* Access mode 3 (ioctl-only opens) needs read and write, as the
	 * kernel itself asks, and the device ioctl right. */
	if (acc == O_ACCMODE &&
	    (!call_decide_path(c, FBAC_OP_FILE_IOCTL, r->path) ||
	     !call_decide_path(c, FBAC_OP_FILE_READ, r->path) ||
	     !call_decide_path(c, FBAC_OP_FILE_WRITE, r->path)))
		return false;
	if (acc == O_RDONLY || acc == O_RDWR) {
		if (!call_decide_path(c, r->is_dir ? FBAC_OP_DIR_READ :
						     FBAC_OP_FILE_READ,
				      r->path))
			return false;
	}
	if (acc == O_WRONLY || acc == O_RDWR) {
		/* Appending is the narrower right; a writer may append too.
		 * One decision (and at most one denial line) either way. */
		enum fbac_op op = FBAC_OP_FILE_WRITE;

		/* Denied either way, the narrower right is the one named. */
		if ((flags & O_APPEND) &&
		    !call_would_allow_path(c, FBAC_OP_FILE_WRITE, r->path))
			op = FBAC_OP_FILE_APPEND;

		if (!call_decide_path(c, op, r->path))
			return false;
	}
	if ((flags & O_TRUNC) && !created && acc != O_RDONLY &&
	    !call_decide_path(c, FBAC_OP_FILE_TRUNCATE, r->path))
		return false;
	return true;
}

/* The operation an open with flags is named by when the file's
 * permissions refuse it (sup-dac.c). */
static enum fbac_op open_op(int flags, bool is_dir)
{
	if ((flags & O_ACCMODE) != O_RDONLY)
		return FBAC_OP_FILE_WRITE;
	return is_dir ? FBAC_OP_DIR_READ : FBAC_OP_FILE_READ;
}

/*
 * A read-only open of a file or directory the policy lets the program
 * read may run in the kernel when the program's own domain reads through
 * narrow rules that allow it: the kernel walks the path again, and
 * whatever a swap put there, the narrow rules (never wider than the
 * policy) decide. One sync wake-up instead of an injection, which costs
 * a second round trip. /proc is resolved for the target's own entries by
 * us, and what is not a plain file or directory is opened here.
 */
static bool may_continue_read(struct call *c, const struct resolved *r,
			      int flags)
{
	if (c->s->mode != MODE_ENFORCE || (flags & O_ACCMODE) != O_RDONLY ||
	    (flags & (O_CREAT | O_TRUNC | O_PATH)) || r->held ||
	    !(S_ISREG(r->st.st_mode) || S_ISDIR(r->st.st_mode)) ||
	    fbac_path_is_under(r->path, "/proc"))
		return false;
	return landlock_narrow_allows(c->s->extras, c->s->n_extras,
				      c->s->root_fd,
				      r->is_dir ? FBAC_LL_FS_READ_DIR :
						  FBAC_LL_FS_READ_FILE,
				      r->path);
}

/*
 * A read-only open the program's narrow rules allow is one the policy
 * allows: those rules are made only from its allow rules, only where
 * its verdict is the same for everything below (no deny rule nor
 * protected folder there, no pattern the kernel cannot follow), and each
 * layer's must allow. So the decision is known without asking the
 * policy, about 4 us of each such call's 17 (python3 opens a hundred
 * modules at start-up). A nested run's policy is asked all the same.
 */
static bool read_known_allowed(struct call *c, const struct resolved *r,
			       int flags, bool narrow)
{
	if (!narrow || __atomic_load_n(&c->s->nested_runs, __ATOMIC_ACQUIRE))
		return false;
#ifndef FBAC_DEBUG
	(void)r;
	(void)flags;
#else
	if (!call_would_allow_path(c, open_op(flags, r->is_dir), r->path)) {
		log_error(0,
			  "internal error: the narrow rules allow reading '%s', which the policy does not",
			  r->path);
		abort();
	}
#endif
	return true;
}

/* A read-only open the narrow rules allow, decided: continued in the
 * kernel, after root's missing permission is told (sup-dac.c). */
static void continue_read(struct call *c, const struct resolved *r, int flags)
{
	call_predict_dac(c, open_op(flags, r->is_dir), r, flags);
	__atomic_fetch_add(&c->s->continued, 1, __ATOMIC_RELAXED);
	call_continue(c);
}

/*
 * A session leader without a controlling terminal that opens a terminal
 * without O_NOCTTY makes it its controlling terminal, which only its own
 * open can do (xterm's child). Decided like any open, it continues when
 * the program's narrow rules allow the same rights, so that a path
 * swapped in meanwhile reaches nothing the policy denies.
 */
static bool may_continue_ctty(struct call *c, const struct resolved *r,
			      int flags)
{
	int acc = flags & O_ACCMODE;
	struct target_stat ts;

	if (c->s->mode != MODE_ENFORCE || !S_ISCHR(r->st.st_mode) ||
	    (flags & (O_NOCTTY | O_CREAT | O_TRUNC | O_PATH)) ||
	    acc == O_ACCMODE || r->held)
		return false;
	if (target_proc_stat(c->tid, &ts) < 0 || ts.session != call_tgid(c) ||
	    ts.tty_nr != 0)
		return false;
	if ((acc == O_RDONLY || acc == O_RDWR) &&
	    !landlock_narrow_allows(c->s->extras, c->s->n_extras, c->s->root_fd,
				    FBAC_LL_FS_READ_FILE, r->path))
		return false;
	if ((acc == O_WRONLY || acc == O_RDWR) &&
	    !landlock_narrow_allows(c->s->extras, c->s->n_extras, c->s->root_fd,
				    FBAC_LL_FS_WRITE_FILE, r->path))
		return false;
	return true;
}

/*
 * Nothing at the path: create it, or report what the kernel would.
 * Return: true when the call is answered; false when a file appeared
 * meanwhile and may_retry: the open is to be decided again.
 */
static bool open_missing(struct call *c, const struct resolved *r, int flags,
			 mode_t mode, bool may_retry)
{
	bool cloexec = flags & O_CLOEXEC;
	mode_t old;
	int fd, err;

	if (!(flags & O_CREAT)) {
		call_fail(c, -ENOENT);
		return true;
	}
	if (!decide_open(c, r, flags, true)) {
		call_fail(c, -EACCES);
		return true;
	}
	old = call_umask_enter(c);
	/* Never through a dangling symlink: it would create a file
	 * somewhere nobody decided on. O_EXCL: a file that appeared
	 * meanwhile was not what we decided on (its truncation, say):
	 * decide again. */
	fd = openat(r->parent_fd, r->leaf,
		    (flags & ~O_PATH) | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
			    O_NOCTTY,
		    mode);
	err = fd < 0 ? -errno : 0;
	call_umask_leave(old);
	if (fd < 0 && err == -EEXIST && !(flags & O_EXCL) && may_retry)
		return false;
	if (fd < 0) {
		if (err == -EACCES)
			call_tell_dac(c, FBAC_OP_FILE_CREATE, r->path,
				      r->parent_fd, W_OK | X_OK);
		call_fail(c, err);
		return true;
	}
	if (call_valid(c))
		call_inject_fd(c, fd, cloexec);
	else
		call_drop(c); /* the caller is gone: nothing to answer */
	close(fd);
	return true;
}

/*
 * An O_PATH open, decided. The kernel will not inject an O_PATH file
 * (ADDFD takes fget(), which skips them), and continuing would let a
 * swapped path through. Where reading is allowed, a read-only descriptor
 * serves every use of an O_PATH one (a dirfd, fstat, fchdir); elsewhere,
 * and for what opening would disturb (devices, FIFOs, sockets, symlinks),
 * the kernel's.
 */
static void open_path_only(struct call *c, const struct resolved *r,
			   bool cloexec)
{
	char name[64];
	int fd;

	if (!(S_ISREG(r->st.st_mode) || S_ISDIR(r->st.st_mode)) ||
	    !call_would_allow_path(c,
				   r->is_dir ? FBAC_OP_DIR_READ :
					       FBAC_OP_FILE_READ,
				   r->path)) {
		/*
		 * Not readable: the descriptor must stay O_PATH, which only
		 * the kernel can make. It continues, decided on file_getattr;
		 * a path swapped in meanwhile can show metadata at most
		 * (fstat), as every later use of the descriptor is decided
		 * again.
		 */
		call_continue(c);
		return;
	}
	fdname(name, sizeof(name), r->fd);
	fd = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
				(r->is_dir ? O_DIRECTORY : 0));
	/* The file's permissions refuse reading it, which O_PATH never asks
	 * for: the kernel's O_PATH, as above. */
	if (fd < 0 && errno == EACCES) {
		call_continue(c);
		return;
	}
	if (fd < 0) {
		call_fail(c, -errno);
		return;
	}
	call_inject_fd(c, fd, cloexec);
	close(fd);
}

/* An existing object: refused, continued in the kernel, or opened here
 * (or by a worker) and its descriptor injected. */
static void open_existing(struct call *c, struct resolved *r, int flags)
{
	bool cloexec = flags & O_CLOEXEC, narrow;
	char name[64];
	int fd, err;

	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		call_fail(c, -EEXIST);
		return;
	}
	if ((flags & O_NOFOLLOW) && !(flags & O_PATH) &&
	    S_ISLNK(r->st.st_mode)) {
		call_fail(c, -ELOOP);
		return;
	}
	if ((flags & O_DIRECTORY) && !r->is_dir) {
		call_fail(c, -ENOTDIR);
		return;
	}
	narrow = may_continue_read(c, r, flags);
	if (!read_known_allowed(c, r, flags, narrow) &&
	    (!decide_open(c, r, flags, false) ||
	     (!(flags & O_PATH) &&
	      !call_pty_allowed(c,
				(flags & O_ACCMODE) == O_WRONLY ?
					FBAC_OP_FILE_WRITE :
					FBAC_OP_FILE_READ,
				r)))) {
		call_fail(c, -EACCES);
		return;
	}
	if (flags & O_PATH) {
		open_path_only(c, r, cloexec);
		return;
	}
	if (may_continue_ctty(c, r, flags)) {
		call_predict_dac(c, open_op(flags, false), r, flags);
		call_tell_device_ioctls(c, -1, r->st.st_mode, r->path);
		call_continue(c);
		return;
	}
	if (narrow) {
		continue_read(c, r, flags);
		return;
	}
	fdname(name, sizeof(name), r->fd);
	flags &= ~(O_CREAT | O_EXCL | O_NOFOLLOW);
	flags |= O_NOCTTY | O_CLOEXEC;
	/* A FIFO without O_NONBLOCK waits for its peer: not on our thread. */
	if (S_ISFIFO(r->st.st_mode) && !(flags & O_NONBLOCK)) {
		open_in_worker(c, r, flags, cloexec);
		return;
	}
	/* A map of a user namespace nested in the program's (sup-idmap.c). */
	fd = call_open_idmap(r->path, r->fd, flags);
	if (fd != -ENOENT) {
		if (fd < 0) {
			call_fail(c, fd);
			return;
		}
		call_inject_fd(c, fd, cloexec);
		close(fd);
		return;
	}
	/* Never wait on our thread: a lease being broken, a device that
	 * waits for a carrier. What would block goes to a worker. */
	fd = open(name, flags | O_NONBLOCK);
	if (fd < 0 && (errno == EWOULDBLOCK || errno == EAGAIN) &&
	    !(flags & O_NONBLOCK)) {
		open_in_worker(c, r, flags, cloexec);
		return;
	}
	if (fd < 0) {
		err = -errno;
		if (err == -EACCES)
			call_predict_dac(c, open_op(flags, r->is_dir), r, flags);
		call_fail(c, err);
		return;
	}
	/* F_SETFL takes only the status flags, all of which we know. */
	if (!(flags & O_NONBLOCK))
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	call_tell_device_ioctls(c, fd, r->st.st_mode, r->path);
	call_inject_fd(c, fd, cloexec);
	close(fd);
}

/*
 * A read-only open of an absolute name found in a directory known to be
 * where the name says (call_resolve_known): decided, and continued when
 * the narrow rules allow it, with no walk of ours. Return: true when
 * answered; false to take the general way (which decides again: the same
 * answer, the policy's verdicts are remembered).
 */
static bool open_known(struct call *c, const char *name, int flags)
{
	const int plain = O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_LARGEFILE |
			  O_DIRECTORY | O_NOFOLLOW;
	bool shape, allowed = false, cont = false;
	struct resolved r;

	if (c->s->mode != MODE_ENFORCE || name[0] != '/' ||
	    (flags & ~plain) != O_RDONLY ||
	    call_resolve_known(c, name, !(flags & O_NOFOLLOW), true, &r) != 0)
		return false;
	/* What the general way answers otherwise (ELOOP, ENOTDIR) is left
	 * to it. Held meanwhile: the narrow rules' check asks no news again
	 * (this call took it before its lookup). */
	shape = !S_ISLNK(r.st.st_mode) && (!(flags & O_DIRECTORY) || r.is_dir);
	if (shape) {
		bool narrow = may_continue_read(c, &r, flags);

		allowed = read_known_allowed(c, &r, flags, narrow) ||
			  decide_open(c, &r, flags, false);
		cont = allowed && narrow;
	}
	call_resolve_release();
	if (shape && !allowed) {
		call_fail(c, -EACCES);
		return true;
	}
	if (!cont)
		return false;
	continue_read(c, &r, flags);
	return true;
}

static void do_open(struct call *c, int dirfd, uint64_t path, int flags,
		    mode_t mode, uint64_t resolve)
{
	char name[FBAC_MAX_PATH];
	struct resolved r;
	unsigned rf = RES_PARENT | RES_PARENT_IF_MISSING | RES_MAY_MISS;
	int err;

	/* RESOLVE_* asks for a stricter walk than ours: not emulated. */
	if (resolve & ~(uint64_t)(RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV)) {
		call_fail(c, -EOPNOTSUPP);
		return;
	}
	if (!(flags & O_NOFOLLOW))
		rf |= RES_FOLLOW;
	/* Copied once, for every way and every try. */
	err = path ? target_read_string(c->tid, path, name, sizeof(name)) :
		     -EFAULT;
	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (!resolve && open_known(c, name, flags))
		return;
	/* A file that appears between our decision and our creation is
	 * decided again, three times at most. */
	for (int tries = 0;; tries++) {
		r.fd = r.parent_fd = -1;
		err = call_resolve_path(c, dirfd, name, rf, &r);
		if (err < 0) {
			if (err == -EACCES)
				call_tell_dac_walk(c, open_op(flags, false),
						   name);
			call_fail(c, err);
			return;
		}
		if (r.fd >= 0)
			break;
		if (open_missing(c, &r, flags, mode, tries < 2)) {
			resolved_close(&r);
			return;
		}
		resolved_close(&r);
	}
	open_existing(c, &r, flags);
	resolved_close(&r);
}

static void h_openat2(struct call *c)
{
	struct open_how how = { 0 };
	uint64_t size = ARG(c, 3);

	if (size < sizeof(how) - 0 && size != 24) {
		call_fail(c, -EINVAL);
		return;
	}
	if (size > 4096) {
		call_fail(c, -E2BIG);
		return;
	}
	if (target_read(c->tid, ARG(c, 2), &how, sizeof(how)) < 0) {
		call_fail(c, -EFAULT);
		return;
	}
	/* A bigger struct must be zero beyond what we know. */
	if (size > sizeof(how)) {
		char extra[4096];

		if (target_read(c->tid, ARG(c, 2) + sizeof(how), extra,
				size - sizeof(how)) < 0) {
			call_fail(c, -EFAULT);
			return;
		}
		for (size_t i = 0; i < size - sizeof(how); i++)
			if (extra[i]) {
				call_fail(c, -E2BIG);
				return;
			}
	}
	if (how.flags >> 32) {
		call_fail(c, -EINVAL);
		return;
	}
	do_open(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)how.flags,
		(mode_t)how.mode, how.resolve);
}

bool handle_open(struct call *c)
{
	switch (c->nr) {
	case SYS_open:
		do_open(c, AT_FDCWD, ARG(c, 0), (int)ARG(c, 1),
			(mode_t)ARG(c, 2), 0);
		return true;
	case SYS_openat:
		do_open(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 2),
			(mode_t)ARG(c, 3), 0);
		return true;
	case SYS_creat:
		do_open(c, AT_FDCWD, ARG(c, 0), O_CREAT | O_WRONLY | O_TRUNC,
			(mode_t)ARG(c, 1), 0);
		return true;
	case SYS_openat2:
		h_openat2(c);
		return true;
	default:
		return false;
	}
}
