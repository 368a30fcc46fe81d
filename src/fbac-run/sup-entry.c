/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Creating and removing names: mkdir, mknod, unlink, rmdir, rename,
 * link, symlink, each performed through the pinned parent directory.
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

#include <linux/fs.h>

#include "call.h"
#include "sup-handlers.h"
#include "target.h"

/* ---- creation and removal ---- */

/* Resolve the parent of a name to create or remove; decide op on it. */
static int resolve_entry(struct call *c, int dirfd, uint64_t path,
			 enum fbac_op op, struct resolved *r)
{
	int err = call_resolve_arg(c, dirfd, path, RES_PARENT | RES_MAY_MISS,
				   r);

	if (err < 0) {
		if (err == -EACCES)
			call_tell_dac_walk_arg(c, op, path);
		return err;
	}
	/* ".", ".." or "/": no name to create or remove there. */
	if (r->parent_fd < 0) {
		bool root = !strcmp(r->path, "/");

		resolved_close(r);
		/* mkdir of "/", "." or "..": they exist, as the kernel says. */
		return op == FBAC_OP_DIR_MKDIR ? -EEXIST : root ? -EBUSY : -EINVAL;
	}
	/*
	 * Making what exists fails with EEXIST before any permission check,
	 * in the kernel as here (mkdir -p walks up from "/"). It reveals no
	 * more than an open would: a missing name is ENOENT there too.
	 */
	if (r->fd >= 0 && (op == FBAC_OP_DIR_MKDIR ||
			   op == FBAC_OP_FILE_CREATE ||
			   op == FBAC_OP_SPECIAL_CREATE)) {
		resolved_close(r);
		return -EEXIST;
	}
	/*
	 * A directory the program may not write by its permissions: the
	 * kernel refuses it EACCES anyway, so the refusal is not ours and
	 * gets no denial line (Chromium tries mkdir in /usr/lib/chromium at
	 * every start). The answer is the same EACCES either way. Only with
	 * the program's own credentials and no capability on either side,
	 * as fbac-run drops them before it starts the program. Unless root
	 * started it: then the refusal is for want of the capabilities we
	 * dropped, ours, and told (sup-dac.c).
	 */
	if (faccessat(r->parent_fd, "", W_OK | X_OK,
		      AT_EMPTY_PATH | AT_EACCESS) < 0 &&
	    errno == EACCES && target_has_our_creds(c->tid)) {
		call_tell_dac(c, op, r->path, r->parent_fd, W_OK | X_OK);
		resolved_close(r);
		return -EACCES;
	}
	if (!call_decide_path(c, op, r->path)) {
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
		call_fail(c, err);
		return;
	}
	old = call_umask_enter(c);
	if (mkdirat(r.parent_fd, r.leaf, mode) < 0)
		err = -errno;
	call_umask_leave(old);
	resolved_close(&r);
	call_respond(c, 0, err);
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
		call_fail(c, err);
		return;
	}
	old = call_umask_enter(c);
	if (mknodat(r.parent_fd, r.leaf, mode, dev) < 0)
		err = -errno;
	call_umask_leave(old);
	resolved_close(&r);
	call_respond(c, 0, err);
}

static void do_unlink(struct call *c, int dirfd, uint64_t path, int flags)
{
	struct resolved r;
	int err = resolve_entry(c, dirfd, path,
				(flags & AT_REMOVEDIR) ? FBAC_OP_DIR_RMDIR :
							 FBAC_OP_FILE_DELETE,
				&r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (unlinkat(r.parent_fd, r.leaf, flags & AT_REMOVEDIR) < 0)
		err = -errno;
	resolved_close(&r);
	call_respond(c, 0, err);
}

/*
 * Landlock's REFER rule, for what the supervisor decides: a name moved or
 * linked to another place must not be granted more there (say, out of a
 * carve-out into the readable tree). A directory moves its whole
 * subtree, so where rules tell its parts apart it may not move at all.
 * EXDEV makes mv and friends fall back to copying, which is decided
 * file by file.
 */
#define REFER_OPS                                                              \
	(FBAC_PATH_OPS &                                                       \
	 ~(FBAC_OP_BIT(FBAC_OP_FILE_CREATE) | FBAC_OP_BIT(FBAC_OP_DIR_MKDIR) | \
	   FBAC_OP_BIT(FBAC_OP_SPECIAL_CREATE) | FBAC_OP_BIT(FBAC_OP_UNIX_BIND)))

static int refer_check(struct call *c, const struct resolved *from,
		       const char *to, bool both_ways)
{
	const struct fbac_stack *st = c->s->stack;
	uint32_t src, dst;

	if (c->s->mode != MODE_ENFORCE || from->fd < 0)
		return 0;
	src = fbac_stack_path_ops(st, from->path) & REFER_OPS;
	dst = fbac_stack_path_ops(st, to) & REFER_OPS;
	if ((dst & ~src) || (both_ways && (src & ~dst)))
		return -EXDEV;
	if (from->is_dir && (!fbac_stack_uniform_below(st, from->path) ||
			     !fbac_stack_uniform_below(st, to)))
		return -EXDEV;
	return 0;
}

static void do_rename(struct call *c, int odir, uint64_t old, int ndir,
		      uint64_t new, unsigned flags)
{
	struct resolved a, b;
	int err = resolve_entry(c, odir, old, FBAC_OP_FILE_RENAME, &a);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	err = resolve_entry(c, ndir, new, FBAC_OP_FILE_RENAME, &b);
	if (err < 0) {
		resolved_close(&a);
		call_fail(c, err);
		return;
	}
	err = refer_check(c, &a, b.path, flags & RENAME_EXCHANGE);
	if (!err && (flags & RENAME_EXCHANGE))
		err = refer_check(c, &b, a.path, true);
	if (!err && syscall(SYS_renameat2, a.parent_fd, a.leaf, b.parent_fd,
			    b.leaf, flags) < 0)
		err = -errno;
	resolved_close(&a);
	resolved_close(&b);
	call_respond(c, 0, err);
}

static void do_link(struct call *c, int odir, uint64_t old, int ndir,
		    uint64_t new, int flags)
{
	struct resolved a, b;
	int err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH)) {
		call_fail(c, -EINVAL);
		return;
	}
	/* Linking an open descriptor (AT_EMPTY_PATH) needs privileges we
	 * do not lend; following symlinks changes what is linked. */
	if (flags) {
		call_fail(c, -EOPNOTSUPP);
		return;
	}
	err = resolve_entry(c, odir, old, FBAC_OP_FILE_LINK, &a);
	if (err < 0) {
		call_fail(c, err);
		return;
	}
	err = resolve_entry(c, ndir, new, FBAC_OP_FILE_LINK, &b);
	if (err < 0) {
		resolved_close(&a);
		call_fail(c, err);
		return;
	}
	err = refer_check(c, &a, b.path, false);
	if (!err && linkat(a.parent_fd, a.leaf, b.parent_fd, b.leaf, 0) < 0)
		err = -errno;
	resolved_close(&a);
	resolved_close(&b);
	call_respond(c, 0, err);
}

static void do_symlink(struct call *c, uint64_t target, int ndir,
		       uint64_t path)
{
	char content[FBAC_MAX_PATH];
	struct resolved r;
	int err = target_read_string(c->tid, target, content, sizeof(content));

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	err = resolve_entry(c, ndir, path, FBAC_OP_SPECIAL_CREATE, &r);
	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (symlinkat(content, r.parent_fd, r.leaf) < 0)
		err = -errno;
	resolved_close(&r);
	call_respond(c, 0, err);
}

bool handle_entry(struct call *c)
{
	switch (c->nr) {
	case SYS_mkdir:
		do_mkdir(c, AT_FDCWD, ARG(c, 0), (mode_t)ARG(c, 1));
		return true;
	case SYS_mkdirat:
		do_mkdir(c, AT_FD(ARG(c, 0)), ARG(c, 1), (mode_t)ARG(c, 2));
		return true;
	case SYS_mknod:
		do_mknod(c, AT_FDCWD, ARG(c, 0), (mode_t)ARG(c, 1),
			 (dev_t)ARG(c, 2));
		return true;
	case SYS_mknodat:
		do_mknod(c, AT_FD(ARG(c, 0)), ARG(c, 1), (mode_t)ARG(c, 2),
			 (dev_t)ARG(c, 3));
		return true;
	case SYS_unlink:
		do_unlink(c, AT_FDCWD, ARG(c, 0), 0);
		return true;
	case SYS_rmdir:
		do_unlink(c, AT_FDCWD, ARG(c, 0), AT_REMOVEDIR);
		return true;
	case SYS_unlinkat:
		do_unlink(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 2));
		return true;
	case SYS_rename:
		do_rename(c, AT_FDCWD, ARG(c, 0), AT_FDCWD, ARG(c, 1), 0);
		return true;
	case SYS_renameat:
		do_rename(c, AT_FD(ARG(c, 0)), ARG(c, 1), AT_FD(ARG(c, 2)),
			  ARG(c, 3), 0);
		return true;
	case SYS_renameat2:
		do_rename(c, AT_FD(ARG(c, 0)), ARG(c, 1), AT_FD(ARG(c, 2)),
			  ARG(c, 3), (unsigned)ARG(c, 4));
		return true;
	case SYS_link:
		do_link(c, AT_FDCWD, ARG(c, 0), AT_FDCWD, ARG(c, 1), 0);
		return true;
	case SYS_linkat:
		do_link(c, AT_FD(ARG(c, 0)), ARG(c, 1), AT_FD(ARG(c, 2)),
			ARG(c, 3), (int)ARG(c, 4));
		return true;
	case SYS_symlink:
		do_symlink(c, ARG(c, 0), AT_FDCWD, ARG(c, 1));
		return true;
	case SYS_symlinkat:
		do_symlink(c, ARG(c, 0), AT_FD(ARG(c, 1)), ARG(c, 2));
		return true;
	default:
		return false;
	}
}
